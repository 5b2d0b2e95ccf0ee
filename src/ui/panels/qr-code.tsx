/**
 * A QR code drawn as one SVG path from the `qrcode` package's module matrix: no canvas, no data URL, nothing for
 * the content security policy to allow. Loaded only with the panel that shows it.
 */
import { create } from 'qrcode';

/** The path of every dark module, one unit square each. */
function modulePath(text: string): { size: number; path: string } {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  let path = '';
  for (let row = 0; row < modules.size; row += 1) {
    for (let col = 0; col < modules.size; col += 1) if (modules.get(row, col)) path += `M${col} ${row}h1v1h-1z`;
  }
  return { size: modules.size, path };
}

/** Renders `text` as a QR code with a quiet zone, labelled for screen readers. */
export function QrCode({ text, label }: { text: string; label: string }) {
  const { size, path } = modulePath(text);
  const quiet = 4;
  return (
    <svg className="qr-code" role="img" aria-label={label} viewBox={`${-quiet} ${-quiet} ${size + 2 * quiet} ${size + 2 * quiet}`} shapeRendering="crispEdges">
      <rect x={-quiet} y={-quiet} width={size + 2 * quiet} height={size + 2 * quiet} fill="#ffffff" />
      <path d={path} fill="#0b2545" />
    </svg>
  );
}

export default QrCode;
