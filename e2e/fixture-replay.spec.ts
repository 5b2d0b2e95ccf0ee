/**
 * Every fixture a live server can reproduce (realServer is not false), replayed in Chromium
 * against the e2e server: its user created with the admin CLI under a fresh address, codes read
 * from the development outbox, and each screen's route, title and messages checked as recorded.
 */
import { test } from '@playwright/test';
import { createBrowserDriver } from '../scripts/fixtures/browser-driver.ts';
import { fixtureNames, loadFixture } from '../scripts/fixtures/fixture-files.ts';
import { flowRouteOf } from '../scripts/fixtures/flow-routes.ts';
import { uniqueEmail } from '../scripts/fixtures/live-server.ts';
import { createFixtureUser, liveValues } from '../scripts/fixtures/live-values.ts';
import { walkFixture } from '../scripts/fixtures/walk-fixture.ts';

const STEP_TIMEOUT_MS = 10_000;
const routeOf = flowRouteOf();
const replayable = fixtureNames()
  .map((name) => ({ name, fixture: loadFixture(name) }))
  .filter(({ fixture }) => fixture.realServer !== false);

for (const { name, fixture } of replayable) {
  test(`replays ${name} against the live server`, async ({ page, baseURL }) => {
    const dataDir = process.env.E2E_DATA_DIR;
    if (!dataDir || !baseURL) throw new Error('E2E_DATA_DIR and baseURL come from playwright.config.ts');
    const email = uniqueEmail(name);
    await createFixtureUser(dataDir, fixture, email);
    await walkFixture(fixture, {
      name,
      driver: await createBrowserDriver(page, STEP_TIMEOUT_MS),
      value: liveValues({ origin: new URL(baseURL).origin, email, codes: fixture.codes }),
      routeOf,
      timeoutMs: STEP_TIMEOUT_MS,
    });
  });
}
