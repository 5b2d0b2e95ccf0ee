/**
 * Arrow paths: each chain leaves its upper box at a port spread along the bottom edge (ordered by
 * where it heads, so arrows from one box do not cross each other), runs straight down through its
 * placeholders, and enters its lower box at a port on the top edge.
 */
import type { LayerNode, Layered } from './rank.ts';

/** A point of an arrow's path. */
export interface Point {
  x: number;
  y: number;
}

/** The x of each port along a box's edge for arrows heading to `targets` (their x), in that order. */
function ports(box: LayerNode, width: number, targets: ReadonlyArray<{ chain: number; x: number }>): Map<number, number> {
  const sorted = [...targets].sort((a, b) => a.x - b.x || a.chain - b.chain);
  const start = box.x - box.left;
  return new Map(sorted.map(({ chain }, index) => [chain, start + (width * (index + 1)) / (sorted.length + 1)]));
}

/** The path of every chain from its upper to its lower end; `widths` are the boxes' drawn widths. */
export function routeChains(layered: Layered, widths: ReadonlyMap<string, number>, rowTop: readonly number[], rowBottom: readonly number[]): Point[][] {
  const node = (id: string | undefined): LayerNode => {
    const found = id === undefined ? undefined : layered.nodes.get(id);
    if (!found) throw new Error(`layout lost node ${String(id)}`);
    return found;
  };
  const outPorts = new Map<string, Map<number, number>>();
  const inPorts = new Map<string, Map<number, number>>();
  for (const id of layered.nodes.keys()) {
    const box = node(id);
    if (box.kind !== 'node') continue;
    const width = widths.get(id) ?? box.left + box.right;
    const leaving = layered.chains.flatMap((chain, index) => (chain.path[0] === id ? [{ chain: index, x: node(chain.path[1]).x }] : []));
    const arriving = layered.chains.flatMap((chain, index) => (chain.path.at(-1) === id ? [{ chain: index, x: node(chain.path.at(-2)).x }] : []));
    outPorts.set(id, ports(box, width, leaving));
    inPorts.set(id, ports(box, width, arriving));
  }
  return layered.chains.map((chain, index) => {
    const first = node(chain.path[0]);
    const last = node(chain.path.at(-1));
    const points: Point[] = [{ x: outPorts.get(first.id)?.get(index) ?? first.x, y: first.y + first.height }];
    for (const id of chain.path.slice(1, -1)) {
      const step = node(id);
      points.push({ x: step.x, y: rowTop[step.rank] ?? step.y }, { x: step.x, y: rowBottom[step.rank] ?? step.y });
    }
    points.push({ x: inPorts.get(last.id)?.get(index) ?? last.x, y: last.y });
    return points;
  });
}

/** An SVG path through `points`: straight where x holds, else an S-curve leaving and arriving vertically. */
export function pathData(points: readonly Point[], format: (value: number) => string): string {
  const [start, ...rest] = points;
  if (!start) return '';
  let previous = start;
  let data = `M${format(start.x)},${format(start.y)}`;
  for (const point of rest) {
    const middle = (previous.y + point.y) / 2;
    data += Math.round(point.x) === Math.round(previous.x)
      ? ` L${format(point.x)},${format(point.y)}`
      : ` C${format(previous.x)},${format(middle)} ${format(point.x)},${format(middle)} ${format(point.x)},${format(point.y)}`;
    previous = point;
  }
  return data;
}
