/**
 * Coordinates: rows stacked top to bottom, each as tall as its tallest member; within a row,
 * members keep their order and spacing while being pulled towards the mean of their neighbours,
 * balancing a push-right and a push-left placement so clusters centre rather than drift.
 */
import { neighbours } from './order.ts';
import type { LayerNode, Layered } from './rank.ts';

/** Gap between two boxes side by side, and next to a placeholder. */
const BOX_GAP = 40;
const PLACEHOLDER_GAP = 24;
/** Vertical gap between rows, room for the arrows' curves. */
export const ROW_GAP = 22;

/** The least distance between the `x` of two neighbours in a row. */
function separation(a: LayerNode, b: LayerNode): number {
  return a.right + (a.kind === 'node' && b.kind === 'node' ? BOX_GAP : PLACEHOLDER_GAP) + b.left;
}

/** Positions closest to `desired` that keep order and separation: the mean of a push-right and a push-left pass. */
function place(row: LayerNode[], desired: number[]): void {
  const right: number[] = [];
  row.forEach((node, i) => {
    const previous = row[i - 1];
    right.push(previous ? Math.max(desired[i] ?? 0, (right[i - 1] ?? 0) + separation(previous, node)) : (desired[i] ?? 0));
  });
  const left: number[] = new Array<number>(row.length);
  for (let i = row.length - 1; i >= 0; i -= 1) {
    const next = row[i + 1];
    const node = row[i];
    if (!node) continue;
    left[i] = next ? Math.min(desired[i] ?? 0, (left[i + 1] ?? 0) - separation(node, next)) : (desired[i] ?? 0);
  }
  row.forEach((node, i) => {
    node.x = ((right[i] ?? 0) + (left[i] ?? 0)) / 2;
  });
}

/** Sets `x` and `y` of every member of `rows`; returns the top and bottom of each row. */
export function positionRows(layered: Layered, rows: readonly string[][], top: number, margin: number): { rowTop: number[]; rowBottom: number[] } {
  const members = rows.map((row) => row.map((id) => layered.nodes.get(id)).filter((node): node is LayerNode => node !== undefined));
  const rowTop: number[] = [];
  const rowBottom: number[] = [];
  let y = top;
  for (const row of members) {
    const height = Math.max(row.some((node) => node.kind === 'node') ? 0 : 12, ...row.map((node) => node.height));
    rowTop.push(y);
    rowBottom.push(y + height);
    for (const node of row) node.y = y;
    y += height + ROW_GAP;
  }
  for (const row of members) place(row, row.map(() => 0));
  const { up, down } = neighbours(layered);
  const pull = (row: LayerNode[], adjacent: Map<string, string[]>): void => {
    const desired = row.map((node) => {
      const xs = (adjacent.get(node.id) ?? []).map((id) => layered.nodes.get(id)?.x ?? 0);
      return xs.length ? xs.reduce((sum, value) => sum + value, 0) / xs.length : node.x;
    });
    place(row, desired);
  };
  for (let sweep = 0; sweep < 8; sweep += 1) {
    for (const row of members.slice(1)) pull(row, up);
    for (const row of members.slice(0, -1).reverse()) pull(row, down);
  }
  const all = members.flat();
  const shift = margin - Math.min(...all.map((node) => node.x - node.left));
  for (const node of all) node.x += shift;
  return { rowTop, rowBottom };
}
