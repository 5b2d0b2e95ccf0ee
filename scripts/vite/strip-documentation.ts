/**
 * Drops what the browser never reads from the data files the app imports: their `$schema` reference and their
 * `description` (they document the data for people, and editors and `npm run flows:check` read them from the files
 * themselves); in flow files also each step's `description` and `admits` (challenges only the server acts on).
 * Every byte of these files that the first screen imports is paid for by everyone who logs in, against the login
 * screen's JavaScript budget (scripts/size/login-scripts.ts).
 * Form schemas are not touched: a field's `description` is shown beside the field.
 */
import type { Plugin } from 'vite';

/** flows/<flow>.json */
const FLOW_FILE = /[\\/]flows[\\/][^\\/]+\.json$/;
/** The shell's tables (flows/shell/*.json) and the password policy (schemas/password-policy.json). */
const DATA_FILE = /[\\/](?:flows[\\/]shell[\\/][^\\/]+|schemas[\\/]password-policy)\.json$/;

interface Documented {
  $schema?: string;
  description?: string;
}

interface FlowFile extends Documented {
  steps?: Record<string, { description?: string; admits?: unknown }>;
}

/** The file without its top-level documentation. */
function withoutDocumentation<T extends Documented>(file: T): Omit<T, '$schema' | 'description'> {
  const { $schema: _schema, description: _description, ...data } = file;
  return data;
}

/** A flow file as the browser reads it. */
function flowForBrowser(text: string): unknown {
  const flow = withoutDocumentation(JSON.parse(text) as FlowFile);
  const steps = Object.fromEntries(Object.entries(flow.steps ?? {}).map(([id, { description: _description, admits: _admits, ...step }]) => [id, step]));
  return flow.steps ? { ...flow, steps } : flow;
}

/** A shell table or the password policy as the browser reads it. */
function dataForBrowser(text: string): unknown {
  return withoutDocumentation(JSON.parse(text) as Documented);
}

/** The Vite plugin: applies the two above to the files they are for, before Vite's JSON plugin reads them. */
export function stripDocumentation(): Plugin {
  return {
    name: 'strip-documentation',
    enforce: 'pre',
    transform(code, id) {
      if (FLOW_FILE.test(id)) return { code: JSON.stringify(flowForBrowser(code)), map: null };
      if (DATA_FILE.test(id)) return { code: JSON.stringify(dataForBrowser(code)), map: null };
      return null;
    },
  };
}
