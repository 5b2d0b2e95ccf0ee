/**
 * Writes a laid-out flow as SVG text: a title, arrows (next rules navy, links teal and dashed,
 * challenge answers amber), labels on white, boxes on top, and a legend. Same layout, same bytes.
 */
import type { EdgeKind, NodeKind } from './graph.ts';
import { BOX_PADDING, LABEL_LINE_HEIGHT, LABEL_PADDING, LEGEND_HEIGHT, MARGIN, TITLE_LINE_HEIGHT, TITLE_SCALE, type Layout, type PlacedEdge, type PlacedNode } from './layout.ts';
import { pathData } from './route.ts';
import { FONT_FAMILY, FONT_SIZE, LINE_HEIGHT, escapeXml, num } from './text.ts';

const EDGE_STYLE: Record<EdgeKind, { color: string; dash?: string; name: string }> = {
  next: { color: '#0b2545', name: 'next rule' },
  link: { color: '#0f766e', dash: '6 4', name: 'link' },
  challenge: { color: '#b45309', name: 'challenge answer' },
};

const NODE_STYLE: Record<NodeKind, { fill: string; stroke: string; dash?: string; radius: number }> = {
  step: { fill: '#ffffff', stroke: '#0b2545', radius: 6 },
  external: { fill: '#f1f4f8', stroke: '#52607a', dash: '5 4', radius: 6 },
  answer: { fill: '#fff7ed', stroke: '#b45309', radius: 18 },
};

const text = (x: number, y: number, content: string, extra = ''): string => `<text x="${num(x)}" y="${num(y)}"${extra}>${escapeXml(content)}</text>`;

function drawEdge({ edge, points, loop }: PlacedEdge): string {
  const style = EDGE_STYLE[edge.kind];
  const dash = style.dash ? ` stroke-dasharray="${style.dash}"` : '';
  const [a, b, c] = points;
  const data = loop && a && b && c ? `M${num(a.x)},${num(a.y)} C${num(b.x)},${num(a.y)} ${num(b.x)},${num(c.y)} ${num(c.x)},${num(c.y)}` : pathData(points, num);
  return `<path d="${data}" fill="none" stroke="${style.color}" stroke-width="1.5"${dash} marker-end="url(#arrow-${edge.kind})"/>`;
}

function drawLabel({ edge, label }: PlacedEdge): string {
  if (!label) return '';
  const lines = edge.label.map((line, index) => text(label.x + LABEL_PADDING, label.y + LABEL_PADDING + 11 + index * LABEL_LINE_HEIGHT, line));
  const frame = `<rect x="${num(label.x)}" y="${num(label.y)}" width="${num(label.width)}" height="${num(label.height)}" rx="3" fill="#ffffff" fill-opacity="0.92"/>`;
  return `<g class="label" fill="${EDGE_STYLE[edge.kind].color}">${frame}${lines.join('')}</g>`;
}

function drawNode({ node, x, y, width, height }: PlacedNode): string {
  const style = NODE_STYLE[node.kind];
  const dash = style.dash ? ` stroke-dasharray="${style.dash}"` : '';
  const frame = `<rect x="${num(x)}" y="${num(y)}" width="${num(width)}" height="${num(height)}" rx="${style.radius}" fill="${style.fill}" stroke="${style.stroke}" stroke-width="1.5"${dash}/>`;
  const lines = node.lines.map((line, index) => text(x + BOX_PADDING, y + BOX_PADDING + 10 + index * LINE_HEIGHT, line, index === 0 ? ' font-weight="bold"' : index > 1 && node.kind === 'step' ? ' fill="#52607a"' : ''));
  return `<g class="node" id="step-${escapeXml(node.id)}">${frame}${lines.join('')}</g>`;
}

function drawLegend(layout: Layout): string {
  const y = layout.height - MARGIN - LEGEND_HEIGHT / 2;
  const arrows = (Object.keys(EDGE_STYLE) as EdgeKind[]).map((kind, index) => {
    const { color, dash, name } = EDGE_STYLE[kind];
    const x = MARGIN + index * 170;
    const line = `<path d="M${num(x)},${num(y)} L${num(x + 36)},${num(y)}" stroke="${color}" stroke-width="1.5"${dash ? ` stroke-dasharray="${dash}"` : ''} marker-end="url(#arrow-${kind})"/>`;
    return `${line}${text(x + 44, y + 4, name, ` fill="${color}"`)}`;
  });
  const x = MARGIN + 3 * 170;
  const other = `<rect x="${num(x)}" y="${num(y - 8)}" width="28" height="16" rx="3" fill="${NODE_STYLE.external.fill}" stroke="${NODE_STYLE.external.stroke}" stroke-dasharray="${NODE_STYLE.external.dash ?? ''}"/>${text(x + 36, y + 4, 'other flow')}`;
  return `<g class="legend">${arrows.join('')}${other}</g>`;
}

/** The SVG document for `layout`. */
export function renderSvg(layout: Layout): string {
  const markers = (Object.keys(EDGE_STYLE) as EdgeKind[]).map(
    (kind) => `<marker id="arrow-${kind}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${EDGE_STYLE[kind].color}"/></marker>`,
  );
  const [heading = '', ...description] = layout.title;
  const title = [
    text(MARGIN, MARGIN + 12, heading, ` font-size="${num(FONT_SIZE * TITLE_SCALE)}" font-weight="bold"`),
    ...description.map((line, index) => text(MARGIN, MARGIN + 12 + (index + 1) * TITLE_LINE_HEIGHT, line, ' fill="#52607a"')),
  ];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(layout.width)}" height="${num(layout.height)}" viewBox="0 0 ${num(layout.width)} ${num(layout.height)}" font-family="${FONT_FAMILY}" font-size="${FONT_SIZE}" fill="#1b2433">`,
    `<title>${escapeXml(heading)}</title>`,
    `<defs>${markers.join('')}</defs>`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    ...title,
    ...layout.edges.map(drawEdge),
    ...layout.edges.map(drawLabel).filter(Boolean),
    ...layout.nodes.map(drawNode),
    drawLegend(layout),
    '</svg>',
    '',
  ].join('\n');
}
