/**
 * `npm run record` reads the recorded walk back from the provider's last page once the walk has left for the client
 * app. That page starts the web app again, whose recorder goes on with the walk at once; what the CLI reads is the
 * walk as it was when the page opened, however soon the app runs.
 */
import { expect, test, type Page } from '@playwright/test';
import { config } from '../src/config.ts';
import { copyWalkOnOpen, keptWalkOf } from '../scripts/fixtures/kept-walk.ts';

const WALK = config.recorder.walkKey;

/** The number of finished steps of the walk in the page's storage now. */
const stepsStored = (page: Page) => page.evaluate((key) => (JSON.parse(sessionStorage.getItem(key) ?? '{"steps":[]}') as { steps: unknown[] }).steps.length, WALK);

test("the record CLI reads the walk as it was when the browser stepped back to the provider, though the page's app goes on with it", async ({ page, baseURL }) => {
  // The recorder switched on for the tab before its first page, as the CLI does.
  await page.addInitScript((key) => sessionStorage.getItem(key) ?? sessionStorage.setItem(key, 'new'), config.recorder.switchKey);
  await page.goto('/auth/login');
  await expect(page.getByRole('heading', { name: 'Log in to proceed' })).toBeVisible();
  await expect.poll(() => page.evaluate((key) => (JSON.parse(sessionStorage.getItem(key) ?? 'null') as { open?: { route?: string } } | null)?.open?.route, WALK)).toBe('login');
  const stepsBefore = await stepsStored(page);

  await page.goto('about:blank');
  await copyWalkOnOpen(page, new URL(baseURL ?? '').origin);
  await page.goBack({ waitUntil: 'commit' });
  // The page's recorder records the arrival: in storage, the login screen is a finished step now.
  await expect.poll(() => stepsStored(page)).toBeGreaterThan(stepsBefore);
  const kept = JSON.parse((await keptWalkOf(page)) ?? 'null') as { steps: unknown[]; open: { route?: string } } | null;
  expect(kept?.steps).toHaveLength(stepsBefore);
  expect(kept?.open.route).toBe('login');
});
