/**
 * Runs a step's `call` or `init` against the API: page query values, form values as the body,
 * and listed fields encrypted to a fresh credential key.
 */
import type { ApiClient } from '../services/api-client.ts';
import { encryptFields, fetchCredentialKey } from '../services/credentials.ts';
import type { StepCall, StepResponse } from './flow-types.ts';

/** What a call is made from. */
export interface StepCallInput {
  call: StepCall;
  /** The page's query string values. */
  query: URLSearchParams;
  /** Submitted form values (the POST body). */
  values?: Readonly<Record<string, unknown>>;
  /** Parameters of the response that led to this step, for `{name}` placeholders in the path. */
  parameters?: Readonly<Record<string, unknown>>;
}

/** Fills `{name}` placeholders of a call path from form values, response parameters, then the page query. */
export function fillCallPath(path: string, input: Omit<StepCallInput, 'call'>): string {
  return path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const value = input.values?.[name] ?? input.parameters?.[name] ?? input.query.get(name);
    if (typeof value !== 'string' && typeof value !== 'number') throw new Error(`No value for {${name}} in ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** The page query values a call lists, skipping the ones the page does not have. */
export function pickQuery(names: readonly string[] = [], query: URLSearchParams): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = query.get(name);
    if (value !== null) picked[name] = value;
  }
  return picked;
}

/** Makes the call and resolves with the server's answer; rejects with the API client's error. */
export async function runStepCall(input: StepCallInput, api: ApiClient): Promise<StepResponse> {
  const { call } = input;
  let body: Record<string, unknown> | undefined;
  if (call.method === 'POST') {
    body = { ...input.values };
    if (call.encrypt?.length) body = await encryptFields(body, call.encrypt, await fetchCredentialKey(api));
  }
  const answer = await api.request<unknown>({
    method: call.method,
    path: fillCallPath(call.path, input),
    params: { ...call.defaultQuery, ...pickQuery(call.query, input.query) },
    body,
  });
  // A body that is not an object (an HTML error page, say) cannot drive the flow.
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) throw new Error('Unexpected response');
  return answer as StepResponse;
}
