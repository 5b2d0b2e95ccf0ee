/**
 * Every fixture a live server can reproduce (realServer is not false), replayed in Chromium against the e2e server
 * that keeps the product's default, MFA required (a fixture with feature flags of its own, such as the company picker
 * on, against a server this file starts with them): its user created with the admin CLI under a fresh address, codes
 * read from the development outbox, authenticator codes computed from the key the page shows, a virtual passkey
 * device, and each screen's route, title, headline and messages checked as recorded.
 */
import { expect, test, type Browser } from '@playwright/test';
import type { Fixture } from '../src/recorder/fixture-types.ts';
import { createBrowserDriver } from '../scripts/fixtures/browser-driver.ts';
import { fixtureNames, loadFixture } from '../scripts/fixtures/fixture-files.ts';
import { flowRouteOf } from '../scripts/fixtures/flow-routes.ts';
import { startLiveServer, type LiveServer } from '../scripts/fixtures/live-server.ts';
import { createFixtureClient, createFixtureUser, fixtureEmail, liveValues } from '../scripts/fixtures/live-values.ts';
import { personsDevices } from '../scripts/fixtures/page-secrets.ts';
import { walkFixture, type ReplayDriver } from '../scripts/fixtures/walk-fixture.ts';

const STEP_TIMEOUT_MS = 10_000;
/** As playwright.config.ts allows its servers: a loaded machine is slow to boot one. */
const SERVER_START_MS = 120_000;
/**
 * What one admin CLI call (a Node.js process of its own) may take on a loaded machine; 0.7 s on an idle one. A fixture
 * whose user is in eight companies makes close to twenty of them, most before its walk begins.
 */
const ADMIN_CALL_MS = 4_000;
const routeOf = flowRouteOf();
const replayable = fixtureNames()
  .map((name) => ({ name, fixture: loadFixture(name) }))
  .filter(({ fixture }) => fixture.realServer !== false);

/**
 * Replays fixture `name` in a new browser context on `server`, its user and client created first; `slowed` stands in
 * for a walker that goes on from a hand-over only later (it wraps the driver's `open`).
 */
async function replay(
  browser: Browser,
  { name, fixture }: (typeof replayable)[number],
  server: Pick<LiveServer, 'origin' | 'dataDir'>,
  slowed?: (open: ReplayDriver['open'], screens: ReplayDriver['screens']) => ReplayDriver['open'],
): Promise<void> {
  const { origin, dataDir } = server;
  const email = fixtureEmail(name);
  await createFixtureUser(dataDir, fixture, email);
  await createFixtureClient(dataDir, origin, fixture);
  const context = await browser.newContext({ baseURL: origin });
  const page = await context.newPage();
  const driver = await createBrowserDriver(page, STEP_TIMEOUT_MS);
  await walkFixture(fixture, {
    name,
    driver: slowed ? { ...driver, open: slowed(driver.open, driver.screens) } : driver,
    value: liveValues({ origin, email, codes: fixture.codes, totpSecret: await personsDevices(page), dataDir, user: fixture.user }),
    routeOf,
    timeoutMs: STEP_TIMEOUT_MS,
  });
  await context.close();
}

/** Declares one test per fixture, each replayed on the server `server()` gives when the test runs. */
function replayTests(fixtures: typeof replayable, server: () => Pick<LiveServer, 'origin' | 'dataDir'>): void {
  for (const replayed of fixtures) {
    test(`replays ${replayed.name} against the live server`, ({ browser }) => {
      // Each of the user's companies is made and joined with two admin calls, on top of the walk's own time.
      test.setTimeout(test.info().timeout + (replayed.fixture.user?.companies?.length ?? 0) * 2 * ADMIN_CALL_MS);
      return replay(browser, replayed, server());
    });
  }
}

/** The e2e server that keeps the product's default (MFA required), as playwright.config.ts starts it. */
function defaultServer(): Pick<LiveServer, 'origin' | 'dataDir'> {
  const dataDir = process.env.E2E_MFA_DATA_DIR;
  const port = process.env.E2E_MFA_PORT;
  if (!dataDir || !port) throw new Error('E2E_MFA_DATA_DIR and E2E_MFA_PORT come from playwright.config.ts');
  return { origin: `http://localhost:${port}`, dataDir };
}

test('a replay whose walker falls behind the browser through automatic steps still sees each hand-over to the provider', async ({ browser }) => {
  const name = 'invitation/terms-not-accepted';
  // A busy walker: it goes on after the first hand-over only once the browser, on its own, shows the screen after the
  // second (the login screen of the provider's interaction, the fifth screen of the walk).
  await replay(browser, { name, fixture: loadFixture(name) }, defaultServer(), (open, screens) => async (url, reason, forwardedTo) => {
    if (reason === 'leave') await expect.poll(() => screens().length, { timeout: STEP_TIMEOUT_MS }).toBeGreaterThanOrEqual(5);
    await open(url, reason, forwardedTo);
  });
});

const flagsOf = (fixture: Fixture) => JSON.stringify(Object.entries(fixture.flags ?? {}).sort());

replayTests(
  replayable.filter(({ fixture }) => !fixture.flags),
  defaultServer,
);

for (const flags of new Set(replayable.filter(({ fixture }) => fixture.flags).map(({ fixture }) => flagsOf(fixture)))) {
  const fixtures = replayable.filter(({ fixture }) => fixture.flags && flagsOf(fixture) === flags);
  test.describe(`with the flags ${flags}`, () => {
    let server: LiveServer | undefined;
    test.beforeAll(async () => {
      test.setTimeout(SERVER_START_MS);
      server = await startLiveServer({ flags: fixtures[0]?.fixture.flags });
    });
    test.afterAll(async () => server?.stop());
    replayTests(fixtures, () => {
      if (!server) throw new Error('the flagged server did not start');
      return server;
    });
  });
}
