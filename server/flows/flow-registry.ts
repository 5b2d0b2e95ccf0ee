import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { ProblemDetail } from '../../contract/error-codes.ts';
import type { FlowGraph } from '../../contract/flow-graph.ts';
import { compileFlows } from '../../contract/flow-sources.ts';
import type * as FlowFile from '../../contract/flow-file.ts';
import { mergeVariants, variantsPossibleAt } from '../../contract/step-variants.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The HTTP methods a step's call may use. */
export type CallMethod = 'GET' | 'POST';

type FlowCall = FlowFile.Call;
type FlowForm = FlowFile.Form;

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
  /** Every step behind `callPath` whose calls the server admits at `challenge` within a sign-in, in the flows' order. */
  stepsFor(callPath: string, challenge: string, method?: CallMethod): readonly ServerStep[];
  /** Which step may follow which (contract/flow-graph.ts). */
  graph: FlowGraph;
  /** The content hash of the flows (contract/flow-sources.ts), which the web build must have been made from. */
  hash: string;
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
    if (key) return { key, message: format(catalogue, key), field };
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
  const compiled = compileFlows(root);
  const { flows } = compiled;
  for (const flow of flows) {
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

  const stepsFor = (callPath: string, challenge: string, method: CallMethod = 'POST') =>
    (byCall.get(`${method} ${callPath}`) ?? []).filter((step) => step.needsTransaction && step.challenges.includes(challenge));
  return {
    stepFor: (callPath, challenge, method = 'POST') => stepsFor(callPath, challenge, method)[0],
    stepsFor,
    graph: compiled.graph,
    hash: compiled.hash,
    openStepFor: (callPath, method = 'POST') => byCall.get(`${method} ${callPath}`)?.find((step) => !step.needsTransaction),
    challenges: () => challenges,
    requestSchemasFor: (callPath, method = 'POST') => [...(bodiesByCall.get(`${method} ${callPath}`)?.values() ?? [])],
  };
}
