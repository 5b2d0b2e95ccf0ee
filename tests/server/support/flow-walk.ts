import fs from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { firstMatchingRule } from '../../../contract/conditions.ts';
import { compileFlowGraph, type FlowGraph, type GraphCall, type GraphFlowSource } from '../../../contract/flow-graph.ts';
import type { TestBrowser } from './sign-in.ts';

const API = '/api/sso/v3';
const PROJECT = path.resolve(import.meta.dirname, '../../..');

/** The graph of the flows in `root`/flows (the project's by default). */
export function flowGraphOf(root: string = PROJECT): FlowGraph {
  const folder = path.join(root, 'flows');
  const files = fs.readdirSync(folder).filter((name) => name.endsWith('.json'));
  return compileFlowGraph(files.map((file) => JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8')) as GraphFlowSource));
}

let projectGraph: FlowGraph | undefined;

/** The project's flow graph, read once. */
export const projectFlowGraph = (): FlowGraph => (projectGraph ??= flowGraphOf());

/** Sends `values` to `call` as the web app does: the call's encrypted fields encrypted to the server's key. */
export async function submitCall(browser: TestBrowser, call: GraphCall, values: Readonly<Record<string, unknown>>): Promise<LightMyRequestResponse> {
  const body: Record<string, unknown> = { ...values };
  for (const field of call.encrypt ?? []) {
    if (typeof body[field] === 'string') body[field] = await browser.encrypt(body[field]);
  }
  return browser.request(call.method, `${API}/${call.path}`, call.method === 'POST' ? body : undefined);
}

/**
 * From step `from`, whose call answered `answer`, follows the flows' `next` rules as the web app does, submitting each
 * step reached that declares example values with them, until a step that declares none (the code step of a sign-up).
 * Returns that step and the answer that led to it.
 */
export async function walkOn(browser: TestBrowser, from: string, answer: object, graph: FlowGraph = projectFlowGraph()): Promise<{ step: string; answer: object }> {
  let at = { step: from, answer };
  for (;;) {
    const rule = firstMatchingRule(graph.steps[at.step]?.next, at.answer, {});
    const next = rule && graph.steps[rule.go];
    if (!rule || !next?.submit || !next.examples) return rule ? { step: rule.go, answer: at.answer } : at;
    const response = await submitCall(browser, next.submit, next.examples.valid);
    if (response.statusCode !== 200) throw new Error(`${next.id} answered ${response.statusCode}: ${response.body}`);
    at = { step: next.id, answer: response.json<object>() };
  }
}

/** The example values walkOn submits from step `from` when every answer on the way looks like `answer`, merged. */
export function exampleValuesOnTheWay(from: string, answer: object, graph: FlowGraph = projectFlowGraph()): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (let at = from, seen = new Set<string>(); !seen.has(at); seen.add(at)) {
    const rule = firstMatchingRule(graph.steps[at]?.next, answer, {});
    const next = rule && graph.steps[rule.go];
    if (!next?.submit || !next.examples) break;
    Object.assign(values, next.examples.valid);
    at = next.id;
  }
  return values;
}
