/**
 * The flow-properties reference of docs/flows.md, written from schemas/flow.schema.json: one table per
 * object of a flow file (the file, a step, then each definition in the schema's order), each row a
 * property, its type, whether it is required, and its description.
 */
import { tableCell } from './markdown.ts';

/** The part of JSON Schema the meta-schema uses, as far as the reference reads it. */
export interface SchemaNode {
  readonly description?: string;
  readonly type?: string | readonly string[];
  readonly $ref?: string;
  readonly enum?: readonly unknown[];
  readonly items?: SchemaNode;
  readonly anyOf?: readonly SchemaNode[];
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly additionalProperties?: SchemaNode | boolean;
  readonly required?: readonly string[];
  readonly pattern?: string;
  readonly default?: unknown;
  readonly definitions?: Readonly<Record<string, SchemaNode>>;
}

const definitionName = (ref: string): string => ref.replace('#/definitions/', '');
const anchor = (name: string): string => name.toLowerCase();

type Definitions = Readonly<Record<string, SchemaNode>>;

/** A type in a reader's words: `string`, `link list`, `map of messageKey`, `"GET" or "POST"`, linked to where the definition it names is described. */
function typeOf(node: SchemaNode, definitions: Definitions): string {
  if (node.$ref) {
    const name = definitionName(node.$ref);
    return `[${name}](#${definitions[name]?.properties ? anchor(name) : 'value-types'})`;
  }
  if (node.enum) return node.enum.map((value) => `\`${JSON.stringify(value)}\``).join(' or ');
  if (node.anyOf) return node.anyOf.map((option) => typeOf(option, definitions)).join(' or ');
  const types = Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
  if (types.includes('array') && node.items) return `${typeOf(node.items, definitions)} list`;
  if (types.includes('object') && node.properties) return `{ ${Object.keys(node.properties).join(', ')} }`;
  if (types.includes('object') && typeof node.additionalProperties === 'object') return `map of ${typeOf(node.additionalProperties, definitions)}`;
  return types.join(' or ') || 'any';
}

/** The property's own description, else that of the definition it names, with its default when it has one. */
function descriptionOf(node: SchemaNode, definitions: Definitions): string {
  const own = node.description ?? (node.$ref ? definitions[definitionName(node.$ref)]?.description : undefined) ?? '';
  return node.default === undefined ? own : `${own} Default: \`${JSON.stringify(node.default)}\`.`.trim();
}

function propertyTable(node: SchemaNode, definitions: Definitions): string[] {
  const required = new Set(node.required ?? []);
  const rows = Object.entries(node.properties ?? {}).map(
    ([name, property]) => `| \`${name}\` | ${tableCell(typeOf(property, definitions))} | ${required.has(name) ? 'yes' : ''} | ${tableCell(descriptionOf(property, definitions))} |`,
  );
  return ['| property | type | required | description |', '|---|---|---|---|', ...rows];
}

/** The whole reference: the flow file, a step, every other object, then the value types. */
export function flowPropertiesReference(metaSchema: SchemaNode): string {
  const definitions = metaSchema.definitions ?? {};
  const objects = Object.entries(definitions).filter(([, node]) => node.properties);
  const ordered = [...objects.filter(([name]) => name === 'step'), ...objects.filter(([name]) => name !== 'step')];
  const section = (name: string, node: SchemaNode): string[] => [`### ${name}`, '', ...(node.description ? [node.description, ''] : []), ...propertyTable(node, definitions), ''];
  const values = Object.entries(definitions)
    .filter(([, node]) => !node.properties)
    .map(([name, node]) => {
      const pattern = node.pattern ? ` Pattern \`${node.pattern}\`.` : '';
      return `| \`${name}\` | ${tableCell(typeOf(node, definitions))} | ${tableCell(`${descriptionOf(node, definitions)}${pattern}`.trim())} |`;
    });
  return [
    ...section('flow file', metaSchema),
    ...ordered.flatMap(([name, node]) => section(name, node)),
    '### value types',
    '',
    '| name | type | description |',
    '|---|---|---|',
    ...values,
  ].join('\n');
}
