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

/** A run of the text that a script would hold as it is (no quote or escape), long enough to be the text's own. */
function probeOf(text: string): string | undefined {
  return text.match(/[A-Za-z0-9 ,.()-]{24,}/)?.[0];
}

/** The documentation in the data files the app imports: each flow's and each step's, the shell tables' and the password policy's. */
function dataFileDocumentation(): Array<{ file: string; description: string }> {
  const root = join(import.meta.dirname, '..', '..');
  const read = (file: string) => JSON.parse(readFileSync(join(root, file), 'utf8')) as { description?: string; steps?: Record<string, { description?: string }> };
  const files = [
    ...readdirSync(join(root, 'flows')).filter((name) => name.endsWith('.json')).map((name) => `flows/${name}`),
    ...readdirSync(join(root, 'flows', 'shell')).map((name) => `flows/shell/${name}`),
    'schemas/password-policy.json',
  ];
  return files.flatMap((file) => {
    const data = read(file);
    return [data.description, ...Object.values(data.steps ?? {}).map((step) => step.description)].flatMap((description) => (description ? [{ file, description }] : []));
  });
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

  it('ships none of the data files\' documentation: no flow, step, shell table or password policy description reaches a script', () => {
    const code = builtScripts().map((script) => script.code).join('\n');
    const documentation = dataFileDocumentation();
    expect(documentation.length).toBeGreaterThan(50);
    const shipped = documentation.filter(({ description }) => {
      const probe = probeOf(description);
      return probe !== undefined && code.includes(probe);
    });
    expect(shipped.map(({ file, description }) => `${file}: ${description.slice(0, 60)}`)).toEqual([]);
    // The probe finds text that is shipped: the product's name, from the words the login screen imports.
    const english = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'flows', 'messages', 'en.json'), 'utf8')) as Record<string, string>;
    expect(code).toContain(probeOf(english['app.name'] ?? ''));
  });

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
