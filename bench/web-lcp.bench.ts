/**
 * `npm run bench:web` (after npm run build): Largest Contentful Paint of the login screen against a
 * static HTML login form served by the same server, in Chromium with the CPU slowed 4× and the cache
 * off, as on a low-end phone's first visit. The login screen is reached as a client app sends users
 * there (through the demo client and the OpenID provider), then loaded again for the measurement,
 * so both figures time one document load. Prints the medians and their ratio; the goal is ≤ 1.5.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { seedDemo } from '../server/admin/seed.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { createSecretBox } from '../server/crypto/secret-box.ts';
import { launchChromium } from '../scripts/fixtures/chromium.ts';
import { testBackends } from '../tests/server/support/databases.ts';

const PORT = Number(process.env.BENCH_WEB_PORT ?? 4519);
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 5);
const CPU_SLOWDOWN = 4;
const GOAL_RATIO = 1.5;
const STATIC_PATH = '/bench/static-login';
const STATIC_FORM = fs.readFileSync(path.join(import.meta.dirname, 'web', 'static-login.html'), 'utf8');

/** Records the page's latest LCP candidate in `window.benchLcp`. */
function watchLcp(): void {
  new PerformanceObserver((list) => {
    const last = list.getEntries().at(-1);
    if (last) (window as Window & { benchLcp?: number }).benchLcp = last.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
}

/** A fresh page with the CPU slowed and the cache off. */
async function throttledPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await page.addInitScript(watchLcp);
  return page;
}

/** The LCP of the document `load` brings up, once the page has settled. */
async function lcpOf(page: Page, load: () => Promise<unknown>): Promise<number> {
  await load();
  await page.waitForLoadState('load');
  await page.waitForTimeout(1_500);
  const lcp = await page.evaluate(() => (window as Window & { benchLcp?: number }).benchLcp);
  if (lcp === undefined) throw new Error(`no LCP recorded on ${page.url()}`);
  return lcp;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function main(): Promise<void> {
  if (!fs.existsSync(path.join('dist', 'web', 'login.html'))) throw new Error('dist/web has no prerendered login page: run `npm run build` first');
  const backend = testBackends()[0];
  if (!backend) throw new Error('no database backend to run on');
  const db = await backend.open();
  const publicUrl = `http://localhost:${PORT}`;
  const config = loadConfig({ NODE_ENV: 'development', PUBLIC_URL: publicUrl, LOG_LEVEL: 'warn', DATA_DIR: path.join(os.tmpdir(), 'sso-bench-web') });
  const masterKey = crypto.randomBytes(32);
  await seedDemo({ db, box: createSecretBox(masterKey), config });
  const { app } = await buildApp({ config, db, masterKey });
  app.get(STATIC_PATH, (_request, reply) => reply.type('text/html; charset=utf-8').send(STATIC_FORM));
  await app.listen({ host: '127.0.0.1', port: PORT });
  const browser = await launchChromium();
  try {
    const appRuns: number[] = [];
    const staticRuns: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const appPage = await throttledPage(browser);
      await appPage.goto(`${publicUrl}/demo/`);
      await appPage.getByRole('link', { name: /Account Area/ }).click();
      await appPage.waitForURL(/\/auth\/login\?/);
      appRuns.push(await lcpOf(appPage, () => appPage.reload()));
      await appPage.context().close();

      const staticPage = await throttledPage(browser);
      staticRuns.push(await lcpOf(staticPage, () => staticPage.goto(`${publicUrl}${STATIC_PATH}`)));
      await staticPage.context().close();
    }
    const appLcp = median(appRuns);
    const staticLcp = median(staticRuns);
    const ratio = appLcp / staticLcp;
    console.log(`LCP, CPU ${CPU_SLOWDOWN}× slower, cache off, median of ${RUNS}:`);
    console.log(`  /auth/login         ${appLcp.toFixed(0)} ms  (runs: ${appRuns.map((value) => value.toFixed(0)).join(', ')})`);
    console.log(`  static HTML form    ${staticLcp.toFixed(0)} ms  (runs: ${staticRuns.map((value) => value.toFixed(0)).join(', ')})`);
    console.log(`  ratio ${ratio.toFixed(2)} (goal ≤ ${GOAL_RATIO}) — ${ratio <= GOAL_RATIO ? 'met' : 'NOT met'}`);
  } finally {
    await browser.close();
    await app.close();
    await db.close();
  }
}

await main();
