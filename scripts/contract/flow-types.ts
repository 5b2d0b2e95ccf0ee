/**
 * The TypeScript types of a flow file, generated from the meta-schema (schemas/flow.schema.json) by
 * json-schema-to-typescript into contract/flow-file/ (one file per concern, each under the project's 300 lines) and
 * contract/flow-file.ts, which re-exports them all: the web app, the server and the scripts read flow files through
 * these types, so the shape is written once. `npm run contract:generate` writes the files; flows:check reports them stale.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile } from 'json-schema-to-typescript';

/** The file importers read, relative to the project root: it re-exports every concern's file. */
export const FLOW_TYPES_FILE = 'contract/flow-file.ts';

/** The folder of the concerns' files, relative to the project root. */
export const FLOW_TYPES_DIR = 'contract/flow-file';

/** The project's limit on a source file's length, which each generated file keeps under. */
const MAX_LINES = 300;

/**
 * Which file holds each definition of the meta-schema, in layers: a file imports only from the files above it, so the
 * files make no import cycle. A definition not named here goes to the file of the first definition that uses it (the
 * flow's, when none does), so a new definition needs no edit here until a file grows too long.
 */
const CONCERNS: ReadonlyArray<{ file: string; about: string; types: readonly string[] }> = [
  { file: 'values', about: 'the values it names: challenge kinds, message keys, value sources and conditions', types: ['ChallengeKind', 'TitleKeys', 'MessageKey', 'FieldPath', 'ValueSources', 'ValueSource', 'Condition'] },
  { file: 'form', about: "a step's form and its example inputs", types: ['Form', 'Examples'] },
  { file: 'moves', about: 'how a step leads on: its guard, call, links, actions, variants and next rules', types: ['Guard', 'Call', 'BackToApp', 'Link', 'Events', 'Action', 'Variant', 'Rule'] },
  { file: 'flow', about: 'the flow and its steps', types: ['FlowDefinition', 'Step'] },
];

const banner = (about: string) => `/**
 * The shape of a flow file (flows/*.json): ${about}. Generated from schemas/flow.schema.json by npm run contract:generate.
 * Do not edit: change the meta-schema and run the command (npm run flows:check reports this file when it is stale).
 */
`;

/**
 * A \`$ref\` with words beside it (its \`description\` where it is used) would make a type of its own for each use
 * (Call1, Call2, …): the references keep only the \`$ref\`, so each definition is one type.
 */
function bareReferences(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(bareReferences);
  if (node === null || typeof node !== 'object') return node;
  const entries = Object.entries(node as Record<string, unknown>);
  if ('$ref' in node) return { $ref: (node as { $ref: unknown }).$ref };
  return Object.fromEntries(entries.map(([key, value]) => [key, bareReferences(value)]));
}

/** One top-level declaration of the compiled types: its name, its text (doc comment included) and the names it uses. */
interface Declaration {
  name: string;
  text: string;
  uses: Set<string>;
}

// A top-level doc comment starts and ends at the line's start; the comments of members are indented.
const DECLARATION = /(?:^\/\*\*[\s\S]*?^ \*\/\n)?^export (?:type|interface) (\w+)[\s\S]*?(?=^\/\*\*|^export |(?![\s\S]))/gm;

function declarationsOf(types: string): Declaration[] {
  const found = [...types.matchAll(DECLARATION)].map((match) => ({ name: match[1] as string, text: match[0].trimEnd() }));
  const names = new Set(found.map((declaration) => declaration.name));
  return found.map(({ name, text }) => {
    const code = text.replace(/\/\*\*[\s\S]*?\*\//g, '');
    const uses = new Set([...code.matchAll(/\b[A-Z]\w*\b/g)].map((word) => word[0]).filter((word) => word !== name && names.has(word)));
    return { name, text, uses };
  });
}

/** The concern file of each declaration: the CONCERNS table's, else that of the first declaration using it. */
function placed(declarations: readonly Declaration[]): Map<string, string> {
  const fileOf = new Map<string, string>();
  for (const concern of CONCERNS) for (const type of concern.types) fileOf.set(type, concern.file);
  const place = (name: string, seen: Set<string>): string => {
    const known = fileOf.get(name);
    if (known) return known;
    const user = declarations.find((declaration) => declaration.uses.has(name) && !seen.has(declaration.name));
    const file = user ? place(user.name, new Set([...seen, name])) : (CONCERNS.at(-1)?.file as string);
    fileOf.set(name, file);
    return file;
  };
  for (const declaration of declarations) place(declaration.name, new Set());
  return fileOf;
}

/** The project-relative path of a concern's file. */
const concernPath = (file: string) => `${FLOW_TYPES_DIR}/${file}.ts`;

/** The text of each generated file (project-relative path -> text) for the meta-schema's text. */
export async function flowTypesOf(metaSchemaText: string): Promise<Map<string, string>> {
  const schema = bareReferences(JSON.parse(metaSchemaText)) as Parameters<typeof compile>[0];
  const types = await compile(schema, 'FlowDefinition', {
    bannerComment: '',
    ignoreMinAndMaxItems: true,
    unreachableDefinitions: true,
    format: true,
    style: { singleQuote: true, printWidth: 160 },
  });
  const declarations = declarationsOf(types);
  const fileOf = placed(declarations);
  const files = new Map<string, string>();
  for (const concern of CONCERNS) {
    const own = declarations.filter((declaration) => fileOf.get(declaration.name) === concern.file);
    if (own.length === 0) continue;
    const imports = new Map<string, Set<string>>();
    for (const name of own.flatMap((declaration) => [...declaration.uses])) {
      const from = fileOf.get(name) as string;
      if (from !== concern.file) imports.set(from, (imports.get(from) ?? new Set()).add(name));
    }
    const importLines = [...imports].sort(([a], [b]) => a.localeCompare(b)).map(([from, names]) => `import type { ${[...names].sort().join(', ')} } from './${from}.ts';\n`);
    const text = `${banner(concern.about)}${importLines.length ? `${importLines.join('')}\n` : ''}${own.map((declaration) => declaration.text).join('\n')}\n`;
    const lines = text.split('\n').length - 1;
    if (lines > MAX_LINES) throw new Error(`${concernPath(concern.file)} would have ${lines} lines: give some of its definitions a concern of their own in CONCERNS (scripts/contract/flow-types.ts)`);
    files.set(concernPath(concern.file), text);
  }
  const index = [...files.keys()].map((path) => `export type * from './${path.slice('contract/'.length)}';\n`).join('');
  files.set(FLOW_TYPES_FILE, `${banner('every type, re-exported from the files of contract/flow-file/')}${index}`);
  return files;
}

/** The generated files as committed under `root` (project-relative path -> text): the index and every file of the folder. */
export function committedFlowTypes(root: string): Map<string, string> {
  const files = new Map<string, string>();
  if (existsSync(join(root, FLOW_TYPES_FILE))) files.set(FLOW_TYPES_FILE, readFileSync(join(root, FLOW_TYPES_FILE), 'utf8'));
  const dir = join(root, FLOW_TYPES_DIR);
  for (const name of existsSync(dir) ? readdirSync(dir).sort() : []) files.set(`${FLOW_TYPES_DIR}/${name}`, readFileSync(join(dir, name), 'utf8'));
  return files;
}
