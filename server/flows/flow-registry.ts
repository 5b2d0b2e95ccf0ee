import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The HTTP methods a step's call may use. */
export type CallMethod = 'GET' | 'POST';

interface FlowCall {
  method: CallMethod;
  path: string;
  encrypt?: string[];
  /** `none`: the call is open to anyone (password recovery); by default it needs a sign-in transaction. */
  transaction?: 'required' | 'none';
}

interface FlowStep {
  challenges?: string[];
  /** Challenges at which the server admits the step's calls without the step claiming them (reached by a link). */
  admits?: string[];
  route: string;
  title: string;
  form?: { schema: string; messages?: Record<string, Record<string, string>> };
  init?: FlowCall;
  call?: FlowCall;
  botCheck?: boolean;
}

interface FlowFile {
  id: string;
  steps: Record<string, FlowStep>;
}

/** A step that answers a server call, as the server enforces it. */
export interface ServerStep {
  id: string;
  flow: string;
  /** The challenges the transaction may be at for this step's calls: those it claims and those it admits. */
  challenges: readonly string[];
  /** False for calls open without a sign-in transaction. */
  needsTransaction: boolean;
  encrypt: readonly string[];
  /** The step's form submit carries a bot-check token (`botCheckToken`), verified when the bot check is on. */
  botCheck: boolean;
  /** Checks a (decrypted) payload against the step's form schema; returns the first problem in the spec's words. */
  validate(payload: unknown): string | undefined;
}

/** The flows read from `flows/*.json`: the same JSON the web app renders, enforced here. */
export interface FlowRegistry {
  /** The step behind `callPath` (a POST unless `method` says otherwise) that answers `challenge`, or undefined when the transaction is elsewhere. */
  stepFor(callPath: string, challenge: string, method?: CallMethod): ServerStep | undefined;
  /** The step behind `callPath` that needs no transaction, if the flows declare one. */
  openStepFor(callPath: string, method?: CallMethod): ServerStep | undefined;
  /** Every challenge kind some step answers. */
  challenges(): ReadonlySet<string>;
}

type Catalogue = Record<string, string>;

function format(catalogue: Catalogue, key: string): string {
  const text = catalogue[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => catalogue[`validation.example.${name}`] ?? whole);
}

function firstMessage(errors: ErrorObject[], messages: Record<string, Record<string, string>>, catalogue: Catalogue): string {
  for (const error of errors) {
    const field =
      error.keyword === 'required'
        ? String((error.params as { missingProperty: string }).missingProperty)
        : error.instancePath.replace(/^\//, '').split('/')[0] ?? '';
    const key = messages[field]?.[error.keyword];
    if (key) return format(catalogue, key);
  }
  const error = errors[0];
  return error ? `${error.instancePath.replace(/^\//, '') || 'request'} ${error.message ?? 'is not valid'}` : 'The request is not valid.';
}

/** Loads every flow, form schema and the English catalogue from the project's `flows/` and `schemas/` folders. */
export function loadFlowRegistry(root: string = ROOT): FlowRegistry {
  const ajv = new Ajv({ allErrors: true, strict: true });
  addFormats.default(ajv, ['email', 'uri', 'date']);
  const catalogue = JSON.parse(fs.readFileSync(path.join(root, 'flows/messages/en.json'), 'utf8')) as Catalogue;
  const validators = new Map<string, ValidateFunction>();
  const schemaValidator = (file: string): ValidateFunction => {
    let validator = validators.get(file);
    if (!validator) {
      const schema = JSON.parse(fs.readFileSync(path.join(root, 'schemas/forms', file), 'utf8')) as Record<string, unknown>;
      delete schema.$schema;
      validator = ajv.compile(schema);
      validators.set(file, validator);
    }
    return validator;
  };

  const byCall = new Map<string, ServerStep[]>();
  const challenges = new Set<string>();
  const flowFiles = fs.readdirSync(path.join(root, 'flows')).filter((name) => name.endsWith('.json')).sort();
  for (const file of flowFiles) {
    const flow = JSON.parse(fs.readFileSync(path.join(root, 'flows', file), 'utf8')) as FlowFile;
    for (const [id, step] of Object.entries(flow.steps)) {
      for (const challenge of step.challenges ?? []) challenges.add(challenge);
      const form = step.form;
      // A step's entry call sends no form; only its `call` carries the form's payload.
      const calls = [
        { call: step.init, validate: undefined },
        { call: step.call, validate: form ? schemaValidator(form.schema) : undefined },
      ];
      for (const { call, validate } of calls) {
        if (!call) continue;
        const serverStep: ServerStep = {
          id,
          flow: flow.id,
          challenges: [...(step.challenges ?? []), ...(step.admits ?? [])],
          needsTransaction: call.transaction !== 'none',
          encrypt: call.encrypt ?? [],
          botCheck: validate !== undefined && step.botCheck === true,
          validate(payload) {
            if (!validate || validate(payload)) return undefined;
            return firstMessage(validate.errors ?? [], form?.messages ?? {}, catalogue);
          },
        };
        const key = `${call.method} ${call.path}`;
        byCall.set(key, [...(byCall.get(key) ?? []), serverStep]);
      }
    }
  }

  return {
    stepFor: (callPath, challenge, method = 'POST') =>
      byCall.get(`${method} ${callPath}`)?.find((step) => step.needsTransaction && step.challenges.includes(challenge)),
    openStepFor: (callPath, method = 'POST') => byCall.get(`${method} ${callPath}`)?.find((step) => !step.needsTransaction),
    challenges: () => challenges,
  };
}
