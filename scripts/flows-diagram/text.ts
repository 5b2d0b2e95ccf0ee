/**
 * Text in the diagrams. Everything is set in a monospace font, so a line's width is its length
 * times one advance and boxes can be sized without font metrics, identically on every machine.
 */

/** Font size of every text, in px. */
export const FONT_SIZE = 12;
/** The advance of one monospace character at FONT_SIZE (0.6 em, as DejaVu Sans Mono, Menlo, Consolas). */
export const CHAR_WIDTH = 7.2;
/** Distance between baselines. */
export const LINE_HEIGHT = 16;
/** The fonts asked for, all monospace with the advance above. */
export const FONT_FAMILY = "'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace";

/** The width `text` takes. */
export function textWidth(text: string): number {
  return [...text].length * CHAR_WIDTH;
}

/** `text` safe inside an SVG element or attribute. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** `text` broken at spaces into lines of at most `max` characters (a longer word keeps its own line). */
export function wrap(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > max) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

/** A whole number as text, so the same layout always prints the same bytes (no "-0", no float noise). */
export function num(value: number): string {
  const rounded = Math.round(value);
  return String(rounded === 0 ? 0 : rounded);
}
