/**
 * npm run replay -- <fixture> [--headed]
 *
 * Replays one fixture (a name such as login/wrong-password, or a path) against a live server it
 * starts itself, in a headless browser or, with --headed, a visible one. Prints each step as it
 * passes (`✓ 1 login "Log In"`) or where it diverged (`✗ 3 change-password expected …`), and
 * exits 1 on a divergence.
 */
import { parseArgs } from 'node:util';
import { createBrowserDriver } from './fixtures/browser-driver.ts';
import { DivergenceError, describeScreen } from './fixtures/divergence.ts';
import { fixtureName, fixturePath, loadFixture } from './fixtures/fixture-files.ts';
import { flowRouteOf } from './fixtures/flow-routes.ts';
import { uniqueEmail } from './fixtures/live-server.ts';
import { createFixtureUser, liveValues } from './fixtures/live-values.ts';
import { walkFixture } from './fixtures/walk-fixture.ts';
import { runScript, withLiveBrowser } from './fixtures/live-session.ts';

const USAGE = 'usage: npm run replay -- <fixture name or path> [--headed]';
const STEP_TIMEOUT_MS = 10_000;

async function main(argv: string[]): Promise<number> {
  const { values: options, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { headed: { type: 'boolean' } } });
  const [given] = positionals;
  if (!given || positionals.length > 1) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const name = fixtureName(fixturePath(given));
  const fixture = loadFixture(given);
  if (fixture.realServer === false) {
    process.stderr.write(`${name} cannot be replayed against a live server: ${fixture.reason ?? 'no reason given'}\n`);
    return 2;
  }
  // The recorded walks go through flows without a second factor, as the e2e server that replays them does.
  return withLiveBrowser({ ...options, env: { MFA_REQUIRED: 'false' } }, async (server, browser) => {
    try {
      const email = uniqueEmail(name);
      await createFixtureUser(server.dataDir, fixture, email);
      const page = await (await browser.newContext({ baseURL: server.origin })).newPage();
      process.stdout.write(`${name}: ${fixture.description}\n`);
      await walkFixture(fixture, {
        name,
        driver: await createBrowserDriver(page, STEP_TIMEOUT_MS),
        value: liveValues({ origin: server.origin, email, codes: fixture.codes }),
        routeOf: flowRouteOf(),
        timeoutMs: STEP_TIMEOUT_MS,
        onStep: (index, step) => process.stdout.write(`✓ ${index} ${describeScreen(step)}\n`),
      });
      process.stdout.write(`${name} replayed as recorded (${fixture.steps.length} steps)\n`);
      return 0;
    } catch (error) {
      if (!(error instanceof DivergenceError)) throw error;
      process.stdout.write(`✗ ${error.place.step} ${error.place.route} ${error.problem}\n`);
      return 1;
    }
  });
}

runScript('replay', () => main(process.argv.slice(2)));
