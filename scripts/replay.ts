/**
 * npm run replay -- [<fixture>...] [--dir folder] [--report file.html] [--headed] [--flows-root folder --web-dir folder]
 *
 * Replays fixtures (names such as login/wrong-password, or paths; all of tests/fixtures/flows, or of --dir, when none
 * is named) against a live server it starts itself, with the product's default of MFA required (and one more for each
 * set of feature flags a fixture asks for), each in a fresh browser context. Prints one line per fixture (✓ as recorded, ✗ where and how it diverged, - engine only) and, for
 * any divergence, writes an HTML report of the step as recorded beside the screen as it is now. Exits 1 on a
 * divergence. The studio adds --flows-root and --web-dir: the server then serves that flows copy and the web app built
 * from it instead of the project's flows and dist/web.
 */
import { parseArgs } from 'node:util';
import type { Browser } from '@playwright/test';
import type { Fixture } from '../src/recorder/fixture-types.ts';
import { createBrowserDriver, pageHeadline, pageMessages } from './fixtures/browser-driver.ts';
import { DivergenceError } from './fixtures/divergence.ts';
import { fixtureName, fixtureNames, fixturePath, FIXTURES_DIR, loadFixture } from './fixtures/fixture-files.ts';
import { flowRouteOf } from './fixtures/flow-routes.ts';
import type { LiveServer } from './fixtures/live-server.ts';
import { createFixtureClient, createFixtureUser, fixtureEmail, liveValues } from './fixtures/live-values.ts';
import { personsDevices } from './fixtures/page-secrets.ts';
import { divergenceLines, writeReplayReport, type Divergence } from './fixtures/replay-report.ts';
import { walkFixture } from './fixtures/walk-fixture.ts';
import { runScript, withLiveServers } from './fixtures/live-session.ts';

const USAGE = 'usage: npm run replay -- [<fixture name or path>...] [--dir folder] [--report file.html] [--headed] [--flows-root folder --web-dir folder]';
const STEP_TIMEOUT_MS = 10_000;
const DEFAULT_REPORT = 'test-results/replay-report.html';

/** Replays `fixture` in a fresh context; resolves with its divergence, or undefined when it went as recorded. */
async function replayOne(server: LiveServer, browser: Browser, name: string, fixture: Fixture): Promise<Divergence | undefined> {
  const email = fixtureEmail(name);
  await createFixtureUser(server.dataDir, fixture, email);
  await createFixtureClient(server.dataDir, server.origin, fixture);
  const context = await browser.newContext({ baseURL: server.origin });
  try {
    const page = await context.newPage();
    const totpSecret = await personsDevices(page);
    try {
      await walkFixture(fixture, {
        name,
        driver: await createBrowserDriver(page, STEP_TIMEOUT_MS),
        value: liveValues({ origin: server.origin, email, codes: fixture.codes, totpSecret, dataDir: server.dataDir, user: fixture.user }),
        routeOf: flowRouteOf(),
        timeoutMs: STEP_TIMEOUT_MS,
      });
      return undefined;
    } catch (error) {
      if (!(error instanceof DivergenceError)) throw error;
      const { step } = error.place;
      const now = {
        url: page.url().replace(server.origin, ''),
        title: await page.title(),
        headline: await pageHeadline(page),
        messages: await pageMessages(page),
        screenshot: await page.screenshot({ fullPage: true }).catch(() => undefined),
      };
      return { fixture: name, description: fixture.description, step, problem: error.problem, recorded: fixture.steps[step - 1], now, seen: error.seen };
    }
  } finally {
    await context.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const { values: options, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { dir: { type: 'string' }, report: { type: 'string' }, headed: { type: 'boolean' }, 'flows-root': { type: 'string' }, 'web-dir': { type: 'string' } },
  });
  const flowsRoot = options['flows-root'];
  const webDir = options['web-dir'];
  if ((flowsRoot === undefined) !== (webDir === undefined)) {
    process.stderr.write(`${USAGE}\n(--flows-root and --web-dir go together)\n`);
    return 2;
  }
  if (options.dir && positionals.length > 0) {
    process.stderr.write(`${USAGE}\n(name fixtures or a --dir, not both)\n`);
    return 2;
  }
  const paths = positionals.length > 0 ? positionals.map((given) => fixturePath(given)) : fixtureNames(options.dir ?? FIXTURES_DIR).map((name) => fixturePath(name, options.dir));
  if (paths.length === 0) {
    process.stderr.write(`${USAGE}\n(no fixtures found)\n`);
    return 2;
  }
  const fixtures = paths.map((path) => ({ name: fixtureName(path, options.dir), fixture: loadFixture(path) }));
  const copy = flowsRoot && webDir ? { flowsRoot, webDir } : undefined;
  return withLiveServers({ headed: options.headed, copy }, async (serverFor, browser) => {
    const divergences: Divergence[] = [];
    let passed = 0;
    for (const { name, fixture } of fixtures) {
      if (fixture.realServer === false) {
        process.stdout.write(`- ${name}: engine only (${fixture.reason ?? 'no reason given'})\n`);
        continue;
      }
      const divergence = await replayOne(await serverFor(fixture.flags), browser, name, fixture);
      if (divergence) divergences.push(divergence);
      else passed += 1;
      const lines = divergence ? divergenceLines(divergence, fixture.steps.map((step) => step.route)) : [`✓ ${name} (${fixture.steps.length} steps)`];
      process.stdout.write(`${lines.join('\n')}\n`);
    }
    if (divergences.length === 0) return 0;
    const report = options.report ?? DEFAULT_REPORT;
    writeReplayReport(report, divergences, passed);
    process.stdout.write(`${divergences.length} of ${passed + divergences.length} diverged: the report is ${report}\n`);
    return 1;
  });
}

runScript('replay', () => main(process.argv.slice(2)));
