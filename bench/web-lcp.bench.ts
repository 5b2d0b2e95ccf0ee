/**
 * `npm run bench:web` (after npm run build): what a user waits for after following a client app's link to the
 * login screen, in Chromium with the CPU slowed 4× and the cache off, as on a low-end phone's first visit:
 * - the page loads per client link (HTML documents the browser renders; redirects are not pages);
 * - the time from the link to a usable form (the login screen of the provider's interaction, ready for input);
 * - Largest Contentful Paint from the link, counting the redirect chain and any earlier page load, against a
 *   static HTML login form served by the same server. The goal is a ratio ≤ 1.5.
 * BENCH_SMOKE=1 runs once, to prove it still runs.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { seedDemo } from '../server/admin/seed.ts';
import { buildApp } from '../server/app.ts';
import { buildDemoApp } from '../server/demo/demo-app.ts';
import { loadConfig } from '../server/config.ts';
import { createSecretBox } from '../server/crypto/secret-box.ts';
import { launchChromium } from '../scripts/fixtures/chromium.ts';
import { testBackends } from '../tests/server/support/databases.ts';
import { printTable } from './support/table.ts';

const SMOKE = process.env.BENCH_SMOKE === '1';
const PORT = Number(process.env.BENCH_WEB_PORT ?? 4519);
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? (SMOKE ? 1 : 9));
const CPU_SLOWDOWN = 4;
const GOALS = { lcpRatio: 1.5, pageLoads: 1 };
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

/** The last LCP, in wall-clock milliseconds since `openedAt`, once the page has settled. */
async function lcpSince(page: Page, openedAt: number): Promise<number> {
  await page.waitForLoadState('load');
  await page.waitForTimeout(1_500);
  const seen = await page.evaluate(() => ({ lcp: (window as Window & { benchLcp?: number }).benchLcp, origin: performance.timeOrigin }));
  if (seen.lcp === undefined) throw new Error(`no LCP recorded on ${page.url()}`);
  return seen.origin + seen.lcp - openedAt;
}

interface LinkRun {
  pageLoads: number;
  usableMs: number;
  lcpMs: number;
}

/** Opens the client link as a user does and times it up to a usable login form. */
async function openClientLink(browser: Browser, link: string): Promise<LinkRun> {
  const page = await throttledPage(browser);
  let pageLoads = 0;
  page.on('response', (response) => {
    if (response.request().isNavigationRequest() && response.frame() === page.mainFrame() && response.status() === 200) pageLoads += 1;
  });
  const openedAt = Date.now();
  await page.goto(link);
  await page.waitForURL(/[?&]interaction=/);
  await page.locator('main[aria-busy="false"] input[name="email"]:enabled').waitFor();
  const usableMs = Date.now() - openedAt;
  const lcpMs = await lcpSince(page, openedAt);
  await page.context().close();
  return { pageLoads, usableMs, lcpMs };
}

async function staticFormLcp(browser: Browser, url: string): Promise<number> {
  const page = await throttledPage(browser);
  const openedAt = Date.now();
  await page.goto(url);
  const lcp = await lcpSince(page, openedAt);
  await page.context().close();
  return lcp;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const runsOf = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ');

async function main(): Promise<void> {
  if (!fs.existsSync(path.join('dist', 'web', 'login.html'))) throw new Error('dist/web has no prerendered login page: run `npm run build` first');
  const backend = testBackends()[0];
  if (!backend) throw new Error('no database backend to run on');
  const db = await backend.open();
  const publicUrl = `http://localhost:${PORT}`;
  const config = loadConfig({ NODE_ENV: 'development', PUBLIC_URL: publicUrl, LOG_LEVEL: 'warn', DATA_DIR: path.join(os.tmpdir(), `sso-bench-web-${PORT}`) });
  const masterKey = crypto.randomBytes(32);
  await seedDemo({ db, box: createSecretBox(masterKey), config });
  const { app } = await buildApp({ config, db, masterKey });
  app.get(STATIC_PATH, (_request, reply) => reply.type('text/html; charset=utf-8').send(STATIC_FORM));
  await app.listen({ host: '127.0.0.1', port: PORT });
  // The demo client app on its own origin, as `npm start` runs it: its sign-in button gives the client link.
  const demo = await buildDemoApp({ config, db, box: createSecretBox(masterKey) });
  if (!demo) throw new Error('the demo client app did not start: no demo clients were seeded');
  await demo.listen({ host: '127.0.0.1', port: config.demo.port });
  const browser = await launchChromium();
  try {
    // The demo client's sign-in button answers with the link a client app sends its users to.
    const start = await fetch(`${config.demo.url}/demo/login?client=sso-account`, { redirect: 'manual' });
    const link = new URL(String(start.headers.get('location')), publicUrl).href;
    if (!new URL(link).pathname.startsWith('/auth/login')) throw new Error(`the demo client did not link to the login screen: ${link}`);
    const linkRuns: LinkRun[] = [];
    const staticRuns: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      linkRuns.push(await openClientLink(browser, link));
      staticRuns.push(await staticFormLcp(browser, `${publicUrl}${STATIC_PATH}`));
    }
    const pageLoads = Math.max(...linkRuns.map((run) => run.pageLoads));
    const usable = median(linkRuns.map((run) => run.usableMs));
    const appLcp = median(linkRuns.map((run) => run.lcpMs));
    const staticLcp = median(staticRuns);
    const ratio = appLcp / staticLcp;
    const where = `client link, CPU ${CPU_SLOWDOWN}× slower, cache off`;
    console.log(`npm run bench:web${SMOKE ? ' (smoke run: one run, the figures mean little)' : ''}: median of ${RUNS}`);
    printTable([
      { section: where, figure: 'page loads per client link', value: String(pageLoads), goal: `${GOALS.pageLoads}`, met: pageLoads <= GOALS.pageLoads },
      { section: where, figure: `link → usable form (runs: ${runsOf(linkRuns.map((run) => run.usableMs))})`, value: `${usable.toFixed(0)} ms` },
      { section: where, figure: `LCP from the link (runs: ${runsOf(linkRuns.map((run) => run.lcpMs))})`, value: `${appLcp.toFixed(0)} ms` },
      { section: where, figure: `LCP of a static HTML form (runs: ${runsOf(staticRuns)})`, value: `${staticLcp.toFixed(0)} ms` },
      { section: where, figure: 'LCP ratio, login screen / static form', value: ratio.toFixed(2), goal: `≤ ${GOALS.lcpRatio}`, met: ratio <= GOALS.lcpRatio },
    ]);
  } finally {
    await browser.close();
    await demo.close();
    await app.close();
    await db.close();
  }
}

await main();
