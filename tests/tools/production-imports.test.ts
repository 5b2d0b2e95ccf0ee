import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinModules } from 'node:module';
import { describe, expect, it } from 'vitest';
import { startServerOnFreePort } from '../server/support/processes.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; scripts: Record<string, string> };

/** What production runs: the server, its operator commands, and the start script's build check. */
const ENTRY_POINTS = ['server/main.ts', 'server/cli/migrate.ts', 'server/cli/sso.ts', 'scripts/ensure-build.ts'];

/** Value imports (not `import type`) of a TypeScript file: static, re-exports and dynamic. */
function valueImports(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?'([^']+)'/gm)) {
    if (!match[2]) found.push(match[3]!);
  }
  for (const match of source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) found.push(match[1]!);
  return found;
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Every package the production code imports, with the file that imports it. */
function productionPackages(): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const queue = ENTRY_POINTS.map((entry) => path.join(ROOT, entry));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file) || !file.endsWith('.ts')) continue;
    seen.add(file);
    for (const specifier of valueImports(fs.readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) queue.push(path.resolve(path.dirname(file), specifier));
      else if (!specifier.startsWith('node:') && !builtinModules.includes(specifier)) packages.set(packageName(specifier), path.relative(ROOT, file));
    }
  }
  return packages;
}

describe('a production install (npm ci --omit=dev)', () => {
  it('has every package the server, the CLI and the start script import among the dependencies', () => {
    const packages = productionPackages();
    expect(packages.size).toBeGreaterThan(10);
    const missing = [...packages].filter(([name]) => !Object.hasOwn(manifest.dependencies, name)).map(([name, file]) => `${name} (imported by ${file})`);
    expect(missing).toEqual([]);
  });

  it('starts the server and the migrations with plain node: no tsx, no build tool', () => {
    for (const script of ['start', 'start:prod', 'migrate', 'sso']) {
      expect(manifest.scripts[script]).not.toMatch(/tsx|vite|esbuild/);
    }
    expect(Object.hasOwn(manifest.dependencies, 'tsx')).toBe(false);
  });

  it('runs the whole server with every devDependency refused at import, serves its metrics port, and stops it cleanly', { timeout: 120_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sso-prod-imports-'));
    const { port, child, output } = await startServerOnFreePort(
      (port) => ({ DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: `http://localhost:${port}`, SEED_DEMO: 'true', METRICS_PORT: '0' }),
      ['--import', './tests/tools/support/refuse-dev-dependencies.ts'],
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    expect(output()).not.toContain('devDependency');
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    // METRICS_PORT=0: the server prints where its metrics port listens, and Prometheus can scrape it there.
    const metricsUrl = /metrics: (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(output())?.[1];
    expect(metricsUrl, output()).toBeDefined();
    const scrape = await fetch(metricsUrl!);
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toContain('# TYPE sso_sign_ins_total counter');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
