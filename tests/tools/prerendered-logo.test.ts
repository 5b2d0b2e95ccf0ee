/**
 * The prerendered login screen draws the brand logo as markup in its box (scripts/inline-logo.ts,
 * scripts/prerendered-page.ts), so the browser paints it with the page instead of building a document for an image.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inlineLogo } from '../../scripts/inline-logo.ts';
import { withScreen } from '../../scripts/prerendered-page.ts';

const root = join(import.meta.dirname, '..', '..');
const productLogo = readFileSync(join(root, 'public', 'logo.svg'), 'utf8');

const INDEX_HTML =
  '<!doctype html><html><head><title>x</title><link rel="preload" href="/auth/logo.svg" as="image" type="image/svg+xml" />' +
  '<link rel="stylesheet" crossorigin href="/auth/assets/index-abc.css"></head><body><div id="root"></div></body></html>';
const SCREEN = '<div class="page"><main class="card"><header class="brand"><span class="brand-logo" role="img" aria-label="Payments Network Single Sign-On"></span></header><h1>Log in</h1></main></div>';
const PRODUCT_CSS = ':root{--brand-logo:url(/auth/logo.svg)}.brand-logo{background:var(--brand-logo) no-repeat left center/contain}';

describe('the brand logo on the prerendered login screen', () => {
  it('is put in its box as markup, hidden from assistive technology (the box names it) and scaled as the background was', () => {
    const page = withScreen(INDEX_HTML, SCREEN, 'Log In', () => PRODUCT_CSS, productLogo);
    const box = /<span class="brand-logo" role="img" aria-label="Payments Network Single Sign-On">(<svg[^>]*>)[\s\S]*?<\/svg><\/span>/.exec(page);
    expect(box).not.toBeNull();
    const opening = box?.[1] ?? '';
    expect(opening).toContain('viewBox="0 0 180 40"');
    expect(opening).toContain('preserveAspectRatio="xMinYMid meet"');
    expect(opening).toContain('aria-hidden="true"');
    expect(opening).not.toMatch(/\srole=|\saria-label=/);
    // Nothing else draws it or fetches it: the stylesheet's background is gone and so is the preload.
    expect(page).toContain('--brand-logo:none');
    expect(page).not.toContain('/auth/logo.svg');
  });

  it("leaves the logo to the stylesheet when an operator pointed --brand-logo at a file of their own", () => {
    const ownLogo = ':root{--brand-logo:url(/brand/acme.png)}.brand-logo{background:var(--brand-logo) no-repeat left center/contain}';
    const page = withScreen(INDEX_HTML, SCREEN, 'Log In', () => ownLogo, productLogo);
    expect(page).toContain('<span class="brand-logo" role="img" aria-label="Payments Network Single Sign-On"></span>');
    expect(page).toContain('--brand-logo:url(/brand/acme.png)');
  });

  it('stops the build when the screen has no empty logo box to put the logo in', () => {
    expect(() => withScreen(INDEX_HTML, '<div class="page"><h1>Log in</h1></div>', 'Log In', () => PRODUCT_CSS, productLogo)).toThrow(/no empty \.brand-logo box/);
  });

  it('takes a logo without a viewBox by its width and height, and drops an XML prolog and comments', () => {
    const markup = inlineLogo('<?xml version="1.0"?>\n<!-- drawn by hand -->\n<svg xmlns="http://www.w3.org/2000/svg" width="120" height="30px"><rect width="120" height="30"/></svg>');
    expect(markup).toBe('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 30" preserveAspectRatio="xMinYMid meet" aria-hidden="true" focusable="false"><rect width="120" height="30"/></svg>');
  });

  it.each([
    ['a script', '<svg viewBox="0 0 10 10"><script>alert(1)</script></svg>', /<script> element would run/],
    ['an event handler', '<svg viewBox="0 0 10 10" onload="alert(1)"><rect/></svg>', /event handler attribute/],
    ['HTML in a foreignObject', '<svg viewBox="0 0 10 10"><foreignObject><p>hi</p></foreignObject></svg>', /<foreignObject> element/],
    ['a style sheet', '<svg viewBox="0 0 10 10"><style>body{display:none}</style></svg>', /<style> element would style the whole page/],
    ['a javascript: link', '<svg viewBox="0 0 10 10"><a href="javascript:alert(1)"><rect/></a></svg>', /javascript: address/],
    ['an image from elsewhere', '<svg viewBox="0 0 10 10"><image href="https://tracker.example/pixel.png"/></svg>', /fetched by the page/],
    ['no size at all', '<svg><rect/></svg>', /needs a viewBox, or a width and height/],
    ['something that is not an SVG', '<html><body>logo</body></html>', /not one <svg> element/],
  ])('refuses a logo with %s, saying why', (_case, svg, reason) => {
    expect(() => inlineLogo(svg)).toThrow(reason);
    expect(() => inlineLogo(svg)).toThrow(/^public\/logo\.svg cannot be inlined: /);
  });

  it('keeps references inside the logo, such as a gradient it defines, and pictures it carries as data', () => {
    const svg = '<svg viewBox="0 0 10 10"><defs><linearGradient id="g"><stop offset="0"/></linearGradient></defs><rect fill="url(#g)"/><use href="#g"/><image href="data:image/png;base64,iVBORw0KGgo="/></svg>';
    expect(inlineLogo(svg)).toContain('<use href="#g"/>');
    expect(inlineLogo(svg)).toContain('<image href="data:image/png;base64,iVBORw0KGgo="/>');
  });

  it('keeps the space between two runs of text', () => {
    const svg = '<svg viewBox="0 0 100 20">\n  <text><tspan>Payments</tspan>\n    <tspan>Network</tspan></text>\n</svg>';
    expect(inlineLogo(svg)).toContain('<tspan>Payments</tspan> <tspan>Network</tspan>');
  });
});
