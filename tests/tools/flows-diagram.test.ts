/**
 * flows:diagram: the committed docs/flows/*.svg match the flows, the output is deterministic, boxes
 * and labels never overlap, and arrows say what they stand for (conditions, flags, links, challenges).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FlowDefinition } from '../../src/engine/flow-types.ts';
import { loadProject } from '../../scripts/flows-check/load-project.ts';
import { conditionLines, flowGraph } from '../../scripts/flows-diagram/graph.ts';
import { layoutGraph, type Box, type Layout } from '../../scripts/flows-diagram/layout.ts';
import { DIAGRAM_DIR, renderFlowDiagrams } from '../../scripts/flows-diagram/render-flows.ts';
import { renderSvg } from '../../scripts/flows-diagram/svg.ts';

const root = join(import.meta.dirname, '..', '..');
const diagrams = renderFlowDiagrams(loadProject(root));

/** Every box and label of a layout, named for the failure message. */
function rectangles(layout: Layout): Array<Box & { name: string }> {
  return [
    ...layout.nodes.map((placed) => ({ ...placed, name: `box ${placed.node.id}` })),
    ...layout.edges.flatMap(({ edge, label }) => (label ? [{ ...label, name: `label ${edge.from}->${edge.to} ${edge.label.join(' ')}` }] : [])),
  ];
}

/** Pairs of rectangles that overlap. */
function overlaps(layout: Layout): string[] {
  const all = rectangles(layout);
  return all.flatMap((a, i) =>
    all.slice(i + 1).filter((b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height).map((b) => `${a.name} / ${b.name}`),
  );
}

/** A flow with a flag rule, a cycle, a self-link and a link to another flow's step. */
const tangled: FlowDefinition = {
  id: 'tangled',
  steps: {
    start: { challenges: ['LOGIN_REQUIRED'], route: 'start', title: 'Start', titleKeys: [], call: { method: 'POST', path: 'start' }, next: [{ when: { flag: 'company-selection-removal' }, go: 'pick' }, { when: { flag: '!company-selection-removal' }, go: 'done' }] },
    pick: { route: 'pick', title: 'Pick', titleKeys: [], links: [{ label: 'pick.again', go: 'pick' }, { label: 'pick.back', go: 'start' }, { label: 'pick.done', go: 'done', style: 'button' }] },
    done: { route: 'done', title: 'Done', titleKeys: [], links: [{ label: 'done.help', go: 'help' }] },
  },
};
const tangledFiles = [
  { file: 'flows/tangled.json', flow: tangled },
  { file: 'flows/other.json', flow: { id: 'other', steps: { help: { route: 'help', title: 'Help', titleKeys: [] } } } },
];
const english = { 'pick.again': 'Pick again', 'pick.back': 'Back', 'pick.done': 'Done', 'done.help': 'Help' };
const tangledLayout = layoutGraph(flowGraph('tangled', tangledFiles, english, ['LOGIN_REQUIRED']));

describe('docs/flows', () => {
  it.each([...diagrams.keys()])('%s is up to date', (path) => {
    const committed = existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : '(missing)';
    expect(committed === diagrams.get(path), `${path} is stale: run \`npm run flows:diagram\``).toBe(true);
  });

  it('holds no diagram of a flow that is gone', () => {
    const onDisk = readdirSync(join(root, DIAGRAM_DIR)).filter((name) => name.endsWith('.svg')).map((name) => `${DIAGRAM_DIR}/${name}`);
    expect(onDisk.filter((path) => !diagrams.has(path)), 'stale diagrams: run `npm run flows:diagram`').toEqual([]);
  });
});

describe('flows:diagram', () => {
  it('draws the same bytes every time', () => {
    expect(renderFlowDiagrams(loadProject(root))).toEqual(diagrams);
  });

  it.each([...diagrams])('writes only whole-number coordinates into %s', (_path, svg) => {
    expect(svg.match(/\s(?:x|y|width|height|d|viewBox)="[^"]*\d\.\d[^"]*"/g) ?? []).toEqual([]);
  });

  it.each(loadProject(root).raw.map(({ data }) => (data as FlowDefinition).id))('lays out flow %s with no box or label overlapping another', (id) => {
    const loaded = loadProject(root);
    const flows = loaded.raw.map(({ file, data }) => ({ file, flow: data as FlowDefinition }));
    expect(overlaps(layoutGraph(flowGraph(id, flows, loaded.base.catalogues.get('en') ?? {}, loaded.base.serverChallenges)))).toEqual([]);
  });

  it('lays out cycles, self-links and other flows’ steps with no overlap', () => {
    expect(overlaps(tangledLayout)).toEqual([]);
  });

  it('shows each step with its id, address, title and server call', () => {
    const svg = diagrams.get(`${DIAGRAM_DIR}/login.svg`) ?? '';
    expect(svg).toContain('>login</text>');
    expect(svg).toContain('>/auth/login</text>');
    expect(svg).toContain('>&quot;Log In&quot;</text>');
    expect(svg).toContain('>call: POST auth/login (encrypts password)</text>');
  });

  it('labels arrows with flags, link texts, buttons and challenges, and draws steps of other flows', () => {
    const svg = renderSvg(tangledLayout);
    for (const label of ['flag: company-selection-removal', 'flag off: company-selection-removal', 'link: &quot;Pick again&quot;', 'button: &quot;Done&quot;', 'LOGIN_REQUIRED', 'in flow other']) {
      expect(svg).toContain(`>${label}</text>`);
    }
  });

  it.each([
    { when: undefined, lines: ['always'] },
    { when: { challenge: 'PASSWORD_RECOVERY' }, lines: ['challenge: PASSWORD_RECOVERY'] },
    { when: { exists: 'redirect_to', flag: 'company-selection-removal' }, lines: ['exists: redirect_to', 'flag: company-selection-removal'] },
    { when: { equals: { field: 'parameters.kind', value: 'sms' } }, lines: ['equals: parameters.kind = "sms"'] },
    { when: { in: { field: 'kind', values: ['a', 2] } }, lines: ['in: kind in ["a", 2]'] },
    { when: { flag: '!disable-sms-mfa' }, lines: ['flag off: disable-sms-mfa'] },
  ])('labels the condition $when as $lines', ({ when, lines }) => {
    expect(conditionLines(when)).toEqual(lines);
  });
});
