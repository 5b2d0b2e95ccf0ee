/**
 * A flow as boxes and arrows: its steps, the steps of other flows it points at, and the server's
 * answer (whose challenge picks a step); arrows for next rules, links and challenge answers,
 * labelled with the condition, the link's English text, or the challenge.
 */
import type { Condition } from '../../contract/conditions.ts';
import type { StepCall, StepDefinition } from '../../src/engine/flow-types.ts';
import type { Catalogue, FlowFile } from '../flows-check/types.ts';
import { wrap } from './text.ts';

/** What a box stands for; it decides how the box is drawn. */
export type NodeKind = 'step' | 'external' | 'answer';
/** What an arrow stands for; it decides how the arrow is drawn. */
export type EdgeKind = 'next' | 'link' | 'challenge';

/** A box: its lines of text, the first drawn bold. */
export interface DiagramNode {
  id: string;
  kind: NodeKind;
  lines: string[];
}

/** An arrow from one box to another, with its label lines. */
export interface DiagramEdge {
  from: string;
  to: string;
  kind: EdgeKind;
  label: string[];
}

/** The boxes and arrows of one flow. */
export interface DiagramGraph {
  title: string[];
  nodes: DiagramNode[];
  edges: DiagramEdge[];
}

/** The id of the box standing for the server's answer. */
export const ANSWER_NODE = '(answer)';
const LABEL_WIDTH = 34;

/** "POST auth/login", with what is encrypted and whether it needs a sign-in transaction. */
function describeCall(call: StepCall): string {
  const extras = [...(call.encrypt?.length ? [`encrypts ${call.encrypt.join(', ')}`] : []), ...(call.transaction === 'none' ? ['no transaction'] : [])];
  return `${call.method} ${call.path}${extras.length ? ` (${extras.join('; ')})` : ''}`;
}

/** The lines of a step's box: id, address, title, then what it does. */
function stepLines(id: string, step: StepDefinition): string[] {
  return [
    id,
    `/auth/${step.route}`,
    ...(step.aliases ?? []).map((alias) => `also /auth/${alias}`),
    `"${step.title}"`,
    ...(step.init ? [`init: ${describeCall(step.init)}`] : []),
    ...(step.form ? [`form: ${step.form.schema}`] : []),
    ...(step.call ? [`call: ${describeCall(step.call)}`] : []),
    ...(step.navigate ? [`navigate: ${step.navigate}`] : []),
    ...(step.terminal ? ['terminal'] : []),
  ];
}

/** A next rule's condition as label lines, one per key; flags say on or off. */
export function conditionLines(when: Condition | undefined): string[] {
  if (!when) return ['always'];
  return [
    ...(when.challenge ? [`challenge: ${when.challenge}`] : []),
    ...(when.exists ? [`exists: ${when.exists}`] : []),
    ...(when.equals ? [`equals: ${when.equals.field} = ${JSON.stringify(when.equals.value)}`] : []),
    ...(when.in ? [`in: ${when.in.field} in [${when.in.values.map((value) => JSON.stringify(value)).join(', ')}]`] : []),
    ...(when.flag ? [when.flag.startsWith('!') ? `flag off: ${when.flag.slice(1)}` : `flag: ${when.flag}`] : []),
  ];
}

/** The challenge kinds a step claims, as label lines; kinds the server does not send yet are set apart. */
function challengeLines(kinds: readonly string[], serverChallenges: readonly string[]): string[] {
  const sent = kinds.filter((kind) => serverChallenges.includes(kind));
  const unsent = kinds.filter((kind) => !serverChallenges.includes(kind));
  return [...wrap(sent.join(', '), LABEL_WIDTH), ...(unsent.length ? ['not sent yet:', ...wrap(unsent.join(', '), LABEL_WIDTH)] : [])];
}

/** The graph of the flow in `flows` whose id is `flowId`. */
export function flowGraph(flowId: string, flows: readonly FlowFile[], english: Catalogue, serverChallenges: readonly string[]): DiagramGraph {
  const own = flows.find(({ flow }) => flow.id === flowId)?.flow;
  if (!own) throw new Error(`No flow "${flowId}"`);
  const flowOf = new Map(flows.flatMap(({ flow }) => Object.keys(flow.steps).map((id) => [id, flow.id] as const)));
  const steps = Object.entries(own.steps);
  const claiming = steps.filter(([, step]) => step.challenges?.length);
  const nodes: DiagramNode[] = [
    ...(claiming.length ? [{ id: ANSWER_NODE, kind: 'answer' as const, lines: ['server answer', 'its challenge picks the step'] }] : []),
    ...steps.map(([id, step]) => ({ id, kind: 'step' as const, lines: stepLines(id, step) })),
  ];
  const edges: DiagramEdge[] = claiming.map(([id, step]) => ({ from: ANSWER_NODE, to: id, kind: 'challenge', label: challengeLines(step.challenges ?? [], serverChallenges) }));
  for (const [id, step] of steps) {
    for (const rule of step.next ?? []) edges.push({ from: id, to: rule.go, kind: 'next', label: conditionLines(rule.when) });
    for (const link of step.links ?? []) {
      const text = `${link.style === 'button' ? 'button' : 'link'}: "${english[link.label] ?? link.label}"`;
      edges.push({ from: id, to: link.go, kind: 'link', label: wrap(text, LABEL_WIDTH) });
    }
  }
  // Steps of other flows the arrows reach, once each, in the order first met.
  const known = new Set(nodes.map((node) => node.id));
  for (const edge of edges) {
    if (known.has(edge.to)) continue;
    known.add(edge.to);
    nodes.push({ id: edge.to, kind: 'external', lines: [edge.to, flowOf.has(edge.to) ? `in flow ${flowOf.get(edge.to)}` : 'no such step'] });
  }
  const title = [`flow: ${own.id}`, ...(own.description ? wrap(own.description, 110) : [])];
  return { title, nodes, edges };
}
