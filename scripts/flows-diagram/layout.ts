/**
 * The whole layout of one flow diagram: box and label sizes from their text, then rows (rank.ts),
 * order (order.ts), coordinates (position.ts) and arrow paths (route.ts). Pure and deterministic.
 */
import type { DiagramEdge, DiagramGraph, DiagramNode } from './graph.ts';
import { LOOP_SPACE, layer } from './rank.ts';
import { orderRows } from './order.ts';
import { positionRows } from './position.ts';
import { routeChains, type Point } from './route.ts';
import { LINE_HEIGHT, textWidth } from './text.ts';

/** A rectangle: top-left corner and size. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A box of the diagram where it is drawn. */
export interface PlacedNode extends Box {
  node: DiagramNode;
}

/** An arrow of the diagram: its path from source to target, and where its label goes. */
export interface PlacedEdge {
  edge: DiagramEdge;
  points: Point[];
  loop: boolean;
  label?: Box;
}

/** Everything the SVG writer draws. */
export interface Layout {
  width: number;
  height: number;
  title: string[];
  nodes: PlacedNode[];
  edges: PlacedEdge[];
}

/** Padding inside a box. */
export const BOX_PADDING = 10;
/** Padding inside a label. */
export const LABEL_PADDING = 4;
/** Distance between the baselines of a label's lines. */
export const LABEL_LINE_HEIGHT = 14;
/** Empty space round the drawing. */
export const MARGIN = 24;
/** Distance between the baselines of the title's lines. */
export const TITLE_LINE_HEIGHT = 18;
/** How much larger the first title line is than other text. */
export const TITLE_SCALE = 1.25;
/** Room the legend takes below the drawing. */
export const LEGEND_HEIGHT = 40;
/** Width the legend needs. */
export const LEGEND_WIDTH = 640;

const widest = (lines: readonly string[]): number => Math.max(0, ...lines.map(textWidth));

/** The drawn size of a box. */
export function nodeSize(node: DiagramNode): { width: number; height: number } {
  return { width: Math.max(150, widest(node.lines) + 2 * BOX_PADDING), height: node.lines.length * LINE_HEIGHT + 2 * BOX_PADDING - 4 };
}

/** The drawn size of a label; zero for an arrow without one. */
export function labelSize(lines: readonly string[]): { width: number; height: number } {
  return lines.length ? { width: widest(lines) + 2 * LABEL_PADDING, height: lines.length * LABEL_LINE_HEIGHT + 2 * LABEL_PADDING } : { width: 0, height: 0 };
}

/** Lays `graph` out. */
export function layoutGraph(graph: DiagramGraph): Layout {
  const sizes = new Map(graph.nodes.map((node) => [node.id, nodeSize(node)]));
  const layered = layer(
    graph.nodes.map((node) => ({ id: node.id, ...(sizes.get(node.id) ?? { width: 0, height: 0 }) })),
    graph.edges.map((edge) => {
      const size = labelSize(edge.label);
      return { from: edge.from, to: edge.to, labelNearTarget: edge.kind === 'challenge', labelWidth: size.width, labelHeight: size.height };
    }),
  );
  const rows = orderRows(layered, graph.nodes.map((node) => node.id));
  const top = MARGIN + graph.title.length * TITLE_LINE_HEIGHT + 16;
  const { rowTop, rowBottom } = positionRows(layered, rows, top, MARGIN);
  const widths = new Map([...sizes].map(([id, size]) => [id, size.width]));
  const paths = routeChains(layered, widths, rowTop, rowBottom);

  const nodes = graph.nodes.map((node): PlacedNode => {
    const placed = layered.nodes.get(node.id);
    const size = sizes.get(node.id) ?? { width: 0, height: 0 };
    return { node, x: (placed?.x ?? 0) - (placed?.left ?? 0), y: placed?.y ?? 0, ...size };
  });
  const edges: PlacedEdge[] = layered.chains.map((chain, index) => {
    const edge = graph.edges[chain.edge] as DiagramEdge;
    const points = paths[index] ?? [];
    const holder = chain.label ? layered.nodes.get(chain.label) : undefined;
    const size = labelSize(edge.label);
    const label = holder ? { x: holder.x + 6, y: holder.y, ...size } : undefined;
    return { edge, points: chain.reversed ? [...points].reverse() : points, loop: false, label };
  });
  for (const index of layered.loops) {
    const edge = graph.edges[index] as DiagramEdge;
    const box = nodes.find((placed) => placed.node.id === edge.from);
    if (!box) continue;
    const right = box.x + box.width;
    const points = [{ x: right, y: box.y + 12 }, { x: right + LOOP_SPACE - 8, y: box.y + 20 }, { x: right, y: box.y + 28 }];
    edges.push({ edge, points, loop: true, label: { x: right + LOOP_SPACE, y: box.y + 4, ...labelSize(edge.label) } });
  }
  const extents = [...nodes, ...edges.flatMap((edge) => (edge.label ? [edge.label] : []))];
  // The first title line is drawn larger (TITLE_SCALE); the legend sits below the drawing.
  const [heading = '', ...description] = graph.title;
  const titleWidth = Math.max(textWidth(heading) * TITLE_SCALE, widest(description), LEGEND_WIDTH);
  const width = Math.max(MARGIN + titleWidth, ...extents.map((box) => box.x + box.width)) + MARGIN;
  const height = Math.max(...extents.map((box) => box.y + box.height), top) + LEGEND_HEIGHT + MARGIN;
  return { width, height, title: graph.title, nodes, edges };
}
