/**
 * Ordering within rows, the second half of the layering: a few barycenter sweeps down and up,
 * keeping the order with the fewest crossings. Ties keep the current order, so it is deterministic.
 */
import type { Layered } from './rank.ts';

/** For each placeholder or box, its neighbours in the row above and below. */
export function neighbours(layered: Layered): { up: Map<string, string[]>; down: Map<string, string[]> } {
  const up = new Map<string, string[]>();
  const down = new Map<string, string[]>();
  for (const { path } of layered.chains) {
    for (let i = 1; i < path.length; i += 1) {
      const [a, b] = [path[i - 1] ?? '', path[i] ?? ''];
      down.set(a, [...(down.get(a) ?? []), b]);
      up.set(b, [...(up.get(b) ?? []), a]);
    }
  }
  return { up, down };
}

/** How many arrow segments cross between adjacent rows. */
export function crossings(rows: readonly string[][], layered: Layered): number {
  const { down } = neighbours(layered);
  let count = 0;
  for (let r = 0; r + 1 < rows.length; r += 1) {
    const position = new Map((rows[r + 1] ?? []).map((id, index) => [id, index]));
    const segments = (rows[r] ?? []).flatMap((id, index) => (down.get(id) ?? []).map((to) => [index, position.get(to) ?? 0] as const));
    for (const [i, [a1, b1]] of segments.entries()) {
      for (const [a2, b2] of segments.slice(i + 1)) if ((a1 - a2) * (b1 - b2) < 0) count += 1;
    }
  }
  return count;
}

/** Sorts one row by the mean position of each member's neighbours in `reference`; members without any stay put. */
function sortRow(row: string[], reference: readonly string[], adjacent: Map<string, string[]>): string[] {
  const position = new Map(reference.map((id, index) => [id, index]));
  const weight = (id: string, index: number): number => {
    const others = (adjacent.get(id) ?? []).map((other) => position.get(other)).filter((value): value is number => value !== undefined);
    return others.length ? others.reduce((sum, value) => sum + value, 0) / others.length : index;
  };
  return row.map((id, index) => ({ id, index, weight: weight(id, index) })).sort((a, b) => a.weight - b.weight || a.index - b.index).map(({ id }) => id);
}

/** The rows of `layered`, each ordered to keep crossings few; `initial` is the order boxes start in. */
export function orderRows(layered: Layered, initial: readonly string[]): string[][] {
  const members = [...initial, ...[...layered.nodes.keys()].filter((id) => !initial.includes(id))];
  const depth = Math.max(0, ...[...layered.nodes.values()].map((node) => node.rank)) + 1;
  let rows: string[][] = Array.from({ length: depth }, (_, r) => members.filter((id) => layered.nodes.get(id)?.rank === r));
  const { up, down } = neighbours(layered);
  let best = { rows, crossings: crossings(rows, layered) };
  for (let sweep = 0; sweep < 12; sweep += 1) {
    rows = rows.map((row) => [...row]);
    if (sweep % 2 === 0) for (let r = 1; r < depth; r += 1) rows[r] = sortRow(rows[r] ?? [], rows[r - 1] ?? [], up);
    else for (let r = depth - 2; r >= 0; r -= 1) rows[r] = sortRow(rows[r] ?? [], rows[r + 1] ?? [], down);
    const count = crossings(rows, layered);
    if (count < best.crossings) best = { rows, crossings: count };
  }
  return best.rows;
}
