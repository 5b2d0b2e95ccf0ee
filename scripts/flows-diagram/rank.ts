/**
 * Layering, the first half of a Sugiyama layout: arrows that close a cycle are turned around,
 * every box gets a rank (row) by longest path, and each arrow becomes a chain through one
 * placeholder per row it crosses, one of which carries its label, so nothing has to jump a row.
 * Boxes sit on even ranks, labels on odd ones.
 */

/** A box or arrow to lay out: sizes only. */
export interface SizedNode {
  id: string;
  width: number;
  height: number;
}

/** An arrow to lay out: its ends, whether its label belongs near the target, and the label's size. */
export interface SizedEdge {
  from: string;
  to: string;
  labelNearTarget: boolean;
  labelWidth: number;
  labelHeight: number;
}

/** A box or placeholder on a row. `left`/`right` are its extent either side of `x`. */
export interface LayerNode {
  id: string;
  kind: 'node' | 'label' | 'dummy';
  rank: number;
  left: number;
  right: number;
  height: number;
  x: number;
  y: number;
}

/** An arrow as laid out: the row-by-row path from its upper to its lower end. */
export interface Chain {
  edge: number;
  /** True when the arrow points up (it closes a cycle), so it is drawn from the path's end. */
  reversed: boolean;
  path: string[];
  label?: string;
}

/** The rows of a graph: every box and placeholder, the chains, and the self-loops (drawn beside their box). */
export interface Layered {
  nodes: Map<string, LayerNode>;
  chains: Chain[];
  loops: number[];
}

/** Space a self-loop takes right of its box, besides its label. */
export const LOOP_SPACE = 40;

/** Indices of the edges that close a cycle, found by depth-first search in input order. */
function backEdges(nodes: readonly SizedNode[], edges: readonly SizedEdge[]): Set<number> {
  const state = new Map<string, 'active' | 'done'>();
  const back = new Set<number>();
  const visit = (id: string): void => {
    state.set(id, 'active');
    edges.forEach((edge, index) => {
      if (edge.from !== id || edge.to === id) return;
      const seen = state.get(edge.to);
      if (seen === 'active') back.add(index);
      else if (!seen) visit(edge.to);
    });
    state.set(id, 'done');
  };
  for (const node of nodes) if (!state.has(node.id)) visit(node.id);
  return back;
}

/** Ranks by longest path (2 apart, leaving odd rows for labels); sources then sit just above their first successor. */
function ranks(nodes: readonly SizedNode[], arcs: ReadonlyArray<readonly [string, string]>): Map<string, number> {
  const rank = new Map(nodes.map((node) => [node.id, 0]));
  const incoming = new Map(nodes.map((node) => [node.id, arcs.filter(([, to]) => to === node.id).length]));
  const queue = nodes.filter((node) => incoming.get(node.id) === 0).map((node) => node.id);
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    for (const [from, to] of arcs) {
      if (from !== id) continue;
      rank.set(to, Math.max(rank.get(to) ?? 0, (rank.get(id) ?? 0) + 2));
      incoming.set(to, (incoming.get(to) ?? 0) - 1);
      if (incoming.get(to) === 0) queue.push(to);
    }
  }
  for (const node of nodes) {
    const successors = arcs.filter(([from, to]) => from === node.id && to !== node.id).map(([, to]) => rank.get(to) ?? 0);
    if (successors.length && !arcs.some(([, to]) => to === node.id)) rank.set(node.id, Math.min(...successors) - 2);
  }
  const lowest = Math.min(...rank.values());
  return new Map([...rank].map(([id, value]) => [id, value - lowest]));
}

/** Lays `nodes` and `edges` out in rows. */
export function layer(nodes: readonly SizedNode[], edges: readonly SizedEdge[]): Layered {
  const back = backEdges(nodes, edges);
  const arcs = edges.flatMap((edge, index) => (edge.from === edge.to ? [] : [back.has(index) ? ([edge.to, edge.from] as const) : ([edge.from, edge.to] as const)]));
  const rank = ranks(nodes, arcs);
  const layered: Layered = { nodes: new Map(), chains: [], loops: [] };
  for (const node of nodes) {
    layered.nodes.set(node.id, { id: node.id, kind: 'node', rank: rank.get(node.id) ?? 0, left: node.width / 2, right: node.width / 2, height: node.height, x: 0, y: 0 });
  }
  edges.forEach((edge, index) => {
    if (edge.from === edge.to) {
      layered.loops.push(index);
      const box = layered.nodes.get(edge.from);
      if (box) box.right += LOOP_SPACE + edge.labelWidth;
      return;
    }
    const reversed = back.has(index);
    const [top, bottom] = reversed ? [edge.to, edge.from] : [edge.from, edge.to];
    const topRank = rank.get(top) ?? 0;
    const bottomRank = rank.get(bottom) ?? 0;
    // The label sits by the end it explains: a rule's or link's by its source, a challenge's by the step it picks.
    const nearBottom = edge.labelNearTarget !== reversed;
    const labelRank = edge.labelWidth > 0 ? (nearBottom ? bottomRank - 1 : topRank + 1) : undefined;
    const chain: Chain = { edge: index, reversed, path: [top] };
    for (let r = topRank + 1; r < bottomRank; r += 1) {
      const id = `${index}@${r}`;
      const isLabel = r === labelRank;
      layered.nodes.set(id, { id, kind: isLabel ? 'label' : 'dummy', rank: r, left: isLabel ? 4 : 1, right: isLabel ? edge.labelWidth + 8 : 1, height: isLabel ? edge.labelHeight : 0, x: 0, y: 0 });
      chain.path.push(id);
      if (isLabel) chain.label = id;
    }
    chain.path.push(bottom);
    layered.chains.push(chain);
  });
  return layered;
}
