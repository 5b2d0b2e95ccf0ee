/**
 * The brand logo (public/logo.svg, which operators replace) as markup for the prerendered page's logo box
 * (scripts/prerender.ts). Drawn as an image (a CSS background or an <img>), an SVG gets a document of its own in
 * the browser, built, styled and laid out before the first paint that shows it. On the login screen under a 4× slower
 * CPU, the main thread's work before the first paint was 891 ms with the logo as a background and 518 ms with it
 * inline (Chromium traces, median of 9 loads each); the first paint itself came 120 ms sooner.
 *
 * Inline, an SVG is also part of the page, no longer a sandboxed image: markup that could run, fetch or restyle
 * anything there is refused with the reason, and the build stops. The logo's box carries its accessible name
 * (role="img"), so the SVG is hidden from assistive technology, and it is scaled into the box as the stylesheet's
 * background was (left, centred, contained).
 */

/** What an inlined logo may not hold, each with the reason given to whoever supplied the file. */
const REFUSED: ReadonlyArray<readonly [RegExp, string]> = [
  [/<script\b/i, 'a <script> element would run in the page'],
  [/<foreignObject\b/i, 'a <foreignObject> element would put HTML in the page'],
  [/<style\b/i, 'a <style> element would style the whole page'],
  [/\son[a-z]+\s*=/i, 'an event handler attribute (on…=) would run in the page'],
  [/javascript:/i, 'a javascript: address would run in the page'],
  [/\s(?:xlink:)?href\s*=\s*["'](?!#|data:image\/)/i, 'a link or image outside the logo would be fetched by the page (only #fragments and data:image/ addresses may be referenced)'],
];

/** The root element's opening tag. */
const ROOT_TAG = /^<svg\b([^>]*)>/i;

/** Attributes of the root element set here instead: its accessible name (the box has it), its size and how it is fitted. */
const REPLACED_ATTRIBUTES = /\s(?:role|aria-[a-z]+|focusable|preserveAspectRatio|viewBox|width|height)\s*=\s*("[^"]*"|'[^']*')/gi;

function attribute(attributes: string, name: string): string | undefined {
  return new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i').exec(attributes)?.slice(1).find((value) => value !== undefined);
}

/** The root's viewBox: its own, or its width and height (in user units) when it has none. */
function viewBoxOf(attributes: string): string {
  const own = attribute(attributes, 'viewBox');
  if (own !== undefined) return own;
  const [width, height] = [attribute(attributes, 'width'), attribute(attributes, 'height')].map((value) => (value && /^\d+(\.\d+)?(px)?$/.test(value) ? parseFloat(value) : undefined));
  if (width === undefined || height === undefined) throw new Error('public/logo.svg cannot be inlined: its <svg> needs a viewBox, or a width and height in pixels, to be scaled into the logo box');
  return `0 0 ${width} ${height}`;
}

/** `svg` ready to be put inside the logo box; throws an Error saying why when it cannot be inlined safely. */
export function inlineLogo(svg: string): string {
  const markup = svg
    .replace(/<\?xml[^>]*\?>/gi, '')
    .replace(/<!DOCTYPE[^>]*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .trim();
  const root = ROOT_TAG.exec(markup);
  if (!root || !/<\/svg>$/i.test(markup)) throw new Error('public/logo.svg cannot be inlined: it is not one <svg> element');
  for (const [pattern, reason] of REFUSED) if (pattern.test(markup)) throw new Error(`public/logo.svg cannot be inlined: ${reason}`);
  const attributes = root[1] ?? '';
  const kept = attributes.replace(REPLACED_ATTRIBUTES, '');
  const opening = `<svg${kept} viewBox="${viewBoxOf(attributes)}" preserveAspectRatio="xMinYMid meet" aria-hidden="true" focusable="false">`;
  // Runs of white space count as one space in SVG text, as between its elements: one is kept, for a <tspan> after another.
  return (opening + markup.slice(root[0].length)).replace(/\s+/g, ' ');
}
