import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { ProblemDetail } from '../../contract/error-codes.ts';
import { mergeVariants, variantsPossibleAt } from '../../contract/step-variants.ts';

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

type FlowForm = { schema: string; messages?: Record<string, Record<string, string>> };

interface FlowStep {
  challenges?: string[];
  /** Challenges at which the server admits the step's calls without the step claiming them (reached by a link). */
  admits?: string[];
  route: string;
  title: string;
  form?: FlowForm;
  init?: FlowCall;
  call?: FlowCall;
  /** Buttons that call without a form (ask for a new code). */
  actions?: { call: FlowCall }[];
  /** Calls the step's panel makes itself (the passkey autofill). */
  panelCalls?: Record<string, FlowCall>;
  /** The step after particular answers: its own form and call, admitted at the challenge `when` names. */
  variants?: { when: { challenge?: string }; form?: FlowForm; call?: FlowCall }[];
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
  /** Checks a (decrypted) payload against the step's form schema; returns the first problem, in the spec's words. */
  validate(payload: unknown): ProblemDetail | undefined;
}

/** The flows read from `flows/*.json`: the same JSON the web app renders, enforced here. */
export interface FlowRegistry {
  /** The step behind `callPath` (a POST unless `method` says otherwise) that answers `challenge`, or undefined when the transaction is elsewhere. */
  stepFor(callPath: string, challenge: string, method?: CallMethod): ServerStep | undefined;
  /** The step behind `callPath` that needs no transaction, if the flows declare one. */
  openStepFor(callPath: string, method?: CallMethod): ServerStep | undefined;
  /** Every challenge kind some step answers. */
  challenges(): ReadonlySet<string>;
  /** The JSON Schemas a call's body may follow (one per distinct form behind it), as the API document shows them. */
  requestSchemasFor(callPath: string, method?: CallMethod): readonly object[];
}

/**
 * A form's schema as the request body carries it: encrypted fields are compact JWE strings, and a bot-checked step
 * adds its widget token.
 */
function requestSchema(form: Record<string, unknown>, encrypt: readonly string[], botCheck: boolean): Record<string, unknown> {
  const { $schema: _schema, $id: _id, ...schema } = form;
  const properties = { ...((schema.properties as Record<string, unknown> | undefined) ?? {}) };
  for (const field of encrypt) {
    properties[field] = { type: 'string', description: 'RSA-OAEP-256 compact JWE of { v: value, n: nonce }, to the key from GET crypto/rsa-public-key' };
  }
  if (botCheck) properties.botCheckToken = { type: 'string', description: 'the bot-check widget token' };
  return { ...schema, type: 'object', properties };
}

type Catalogue = Record<string, string>;

function format(catalogue: Catalogue, key: string): string {
  const text = catalogue[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => catalogue[`validation.example.${name}`] ?? whole);
}

function firstProblem(errors: ErrorObject[], messages: Record<string, Record<string, string>>, catalogue: Catalogue): ProblemDetail {
  for (const error of errors) {
    const field =
      error.keyword === 'required'
        ? String((error.params as { missingProperty: string }).missingProperty)
        : error.instancePath.replace(/^\//, '').split('/')[0] ?? '';
    const key = messages[field]?.[error.keyword];
    if (key) return { key, message: format(catalogue, key) };
  }
  const error = errors[0];
  return { message: error ? `${error.instancePath.replace(/^\//, '') || 'request'} ${error.message ?? 'is not valid'}` : 'The request is not valid.' };
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
  const bodiesByCall = new Map<string, Map<string, object>>();
  const challenges = new Set<string>();
  const flowFiles = fs.readdirSync(path.join(root, 'flows')).filter((name) => name.endsWith('.json')).sort();
  for (const file of flowFiles) {
    const flow = JSON.parse(fs.readFileSync(path.join(root, 'flows', file), 'utf8')) as FlowFile;
    for (const [id, step] of Object.entries(flow.steps)) {
      for (const challenge of step.challenges ?? []) challenges.add(challenge);
      const stepChallenges = [...(step.challenges ?? []), ...(step.admits ?? [])];
      // Variants apply together, in order (contract/step-variants.ts); at each challenge a variant's call carries the
      // form the variants the browser may be showing there give.
      const possibleAt = (challenge: string) => variantsPossibleAt(step, challenge, stepChallenges);
      const variantCalls = (step.variants ?? []).flatMap((variant) =>
        stepChallenges
          .filter((challenge) => possibleAt(challenge).includes(variant))
          .map((challenge) => {
            const shown = mergeVariants(step, possibleAt(challenge));
            return { call: variant.call ?? shown.call, form: shown.form, admitted: [challenge] };
          }),
      );
      // A step's entry call and its actions send no form; only its `call` (or a variant's) carries a form's payload.
      const calls: { call: FlowCall | undefined; form: FlowForm | undefined; admitted: string[] }[] = [
        { call: step.init, form: undefined, admitted: stepChallenges },
        { call: step.call, form: step.form, admitted: stepChallenges },
        ...(step.actions ?? []).map((action) => ({ call: action.call, form: undefined, admitted: stepChallenges })),
        ...Object.values(step.panelCalls ?? {}).map((call) => ({ call, form: undefined, admitted: stepChallenges })),
        ...variantCalls,
      ];
      for (const { call, form, admitted } of calls) {
        if (!call) continue;
        const validate = form ? schemaValidator(form.schema) : undefined;
        const serverStep: ServerStep = {
          id,
          flow: flow.id,
          challenges: admitted,
          needsTransaction: call.transaction !== 'none',
          encrypt: call.encrypt ?? [],
          botCheck: validate !== undefined && step.botCheck === true,
          validate(payload) {
            if (!validate || validate(payload)) return undefined;
            return firstProblem(validate.errors ?? [], form?.messages ?? {}, catalogue);
          },
        };
        const key = `${call.method} ${call.path}`;
        byCall.set(key, [...(byCall.get(key) ?? []), serverStep]);
        if (form) {
          const formSchema = JSON.parse(fs.readFileSync(path.join(root, 'schemas/forms', form.schema), 'utf8')) as Record<string, unknown>;
          const body = requestSchema(formSchema, serverStep.encrypt, serverStep.botCheck);
          const bodies = bodiesByCall.get(key) ?? new Map<string, object>();
          bodies.set(JSON.stringify(body), body);
          bodiesByCall.set(key, bodies);
        }
      }
    }
  }

  return {
    stepFor: (callPath, challenge, method = 'POST') =>
      byCall.get(`${method} ${callPath}`)?.find((step) => step.needsTransaction && step.challenges.includes(challenge)),
    openStepFor: (callPath, method = 'POST') => byCall.get(`${method} ${callPath}`)?.find((step) => !step.needsTransaction),
    challenges: () => challenges,
    requestSchemasFor: (callPath, method = 'POST') => [...(bodiesByCall.get(`${method} ${callPath}`)?.values() ?? [])],
  };
}
