// @vitest-environment node
/**
 * The production bundle in dist/web (npm test builds it first): CSP-safe (the page is served with
 * script-src 'self', so no eval or new Function) and small enough for the login screen, counted as a user
 * pays for it: every script a real browser fetches from a client's link until the credentials are submitted.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { LOGIN_JS_GZIP_BUDGET, scriptsToLogIn } from '../../scripts/size/login-scripts.ts';

const dist = join(import.meta.dirname, '..', '..', 'dist', 'web');
/** Starting the built server and Chromium, following the link and logging in. */
const BROWSER_RUN_TIMEOUT_MS = 120_000;

function builtScripts(): Array<{ name: string; code: string }> {
  if (!existsSync(join(dist, 'index.html'))) {
    throw new Error('dist/web is missing: run `npm run build` first (npm test does it before vitest)');
  }
  const assets = join(dist, 'assets');
  return readdirSync(assets)
    .filter((name) => name.endsWith('.js'))
    .map((name) => ({ name, code: readFileSync(join(assets, name), 'utf8') }));
}

/** The scripts index.html loads up front: its entry module and the chunks it preloads. */
function initialScripts(): string[] {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  return [...html.matchAll(/(?:src|href)="\/auth\/assets\/([^"]+\.js)"/g)].map((match) => match[1] ?? '');
}

describe('dist/web bundle', () => {
  it('contains no eval or new Function in any script', () => {
    const offenders = builtScripts().flatMap(({ name, code }) =>
      [/\bnew Function\s*\(/, /\beval\s*\(/, /\bFunction\s*\(\s*["'`]/].filter((pattern) => pattern.test(code)).map((p) => `${name}: ${p}`),
    );
    expect(offenders).toEqual([]);
  });

  it(
    'fetches at most 135 KB of gzipped JavaScript from opening a client link to submitting the credentials, each script once',
    async () => {
      builtScripts();
      const fetched = await scriptsToLogIn();
      // The count covers at least what index.html loads up front, and the chunks fetched later on the way.
      expect(fetched.map((script) => script.name)).toEqual(expect.arrayContaining(initialScripts()));
      const size = fetched.reduce((total, script) => total + script.gzipBytes, 0);
      expect(size).toBeLessThanOrEqual(LOGIN_JS_GZIP_BUDGET);
    },
    BROWSER_RUN_TIMEOUT_MS,
  );

  it('serves its assets from /auth/', () => {
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    expect(html).toMatch(/src="\/auth\/assets\//);
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
  });

  it('prerenders the login page with its markup and no inline script', () => {
    const html = readFileSync(join(dist, 'login.html'), 'utf8');
    expect(html).toMatch(/<div id="root"><div class="page">/);
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
    expect(html).not.toMatch(/\son[a-z]+="/);
  });

  it('prerenders the logo as markup in its box, so the first paint draws no image the browser must build a document for', () => {
    const html = readFileSync(join(dist, 'login.html'), 'utf8');
    expect(html).toMatch(/<span class="brand-logo" role="img" aria-label="[^"]+"><svg [^>]*aria-hidden="true"/);
    expect(html).not.toMatch(/data:image\/svg|\/auth\/logo\.svg/);
  });
});
