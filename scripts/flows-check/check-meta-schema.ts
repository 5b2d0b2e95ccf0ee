/**
 * Guards the shape of every flow file: it must be JSON and validate against
 * schemas/flow.schema.json. The other checks only run once this passes, since they trust the shape.
 */
import { Ajv, type ErrorObject } from 'ajv';
import { useOneOf } from './problem.ts';
import type { Problem, RawFlow } from './types.ts';

const META_SCHEMA = 'schemas/flow.schema.json';

/** `/steps/login/next/0/go` as `steps.login.next[0].go`. */
export function jsonPath(pointer: string, ...more: string[]): string {
  const segments = [...pointer.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~')), ...more];
  return segments.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

/** The JSON pointer of `target` inside `schema` (ajv's schemaPath restarts at every $ref, so it is searched for). */
function pointerTo(schema: unknown, target: unknown, at = ''): string | undefined {
  if (schema === target) return at;
  if (schema === null || typeof schema !== 'object') return undefined;
  for (const [key, value] of Object.entries(schema)) {
    const found = pointerTo(value, target, `${at}/${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A problem for one ajv error, worded for someone editing the flow file. */
function describe(file: string, error: ErrorObject, metaSchema: Record<string, unknown>): Problem {
  const params = error.params as Record<string, unknown>;
  const parent = (error.parentSchema ?? {}) as { properties?: Record<string, unknown>; description?: string };
  const where = `see ${META_SCHEMA}#${pointerTo(metaSchema, error.parentSchema) ?? ''}`;
  switch (error.keyword) {
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      return { file, path: jsonPath(error.instancePath, name), message: 'is not a known property', fix: useOneOf(name, Object.keys(parent.properties ?? {})) };
    }
    case 'required':
      return { file, path: jsonPath(error.instancePath, String(params.missingProperty)), message: 'is missing', fix: `add it (${where})` };
    case 'enum':
      return { file, path: jsonPath(error.instancePath), message: `is ${JSON.stringify(error.data)}, which is not allowed`, fix: useOneOf(String(error.data), (params.allowedValues as string[]).map(String)) };
    case 'pattern':
      return { file, path: jsonPath(error.instancePath), message: `${JSON.stringify(error.data)} does not match ${String(params.pattern)}`, fix: parent.description ? `${where} (${parent.description.replace(/\.$/, '')})` : where };
    default:
      return { file, path: jsonPath(error.instancePath), message: error.message ?? 'is not valid', fix: where };
  }
}

/** Problems with flow files that are not JSON or do not validate against the meta-schema. */
export function checkMetaSchema(flows: readonly RawFlow[], metaSchema: Record<string, unknown>): Problem[] {
  const validate = new Ajv({ allErrors: true, allowUnionTypes: true, verbose: true }).compile(metaSchema);
  return flows.flatMap(({ file, data, syntaxError }) => {
    if (syntaxError) return [{ file, path: String(syntaxError.line), message: `is not valid JSON (${syntaxError.message})`, fix: 'fix the syntax near that line' }];
    if (validate(data)) return [];
    // anyOf repeats its branches' errors; the branch errors say more, so the summary line is dropped.
    return (validate.errors ?? []).filter((error) => error.keyword !== 'anyOf').map((error) => describe(file, error, metaSchema));
  });
}
