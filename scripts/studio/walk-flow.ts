/**
 * "Walk this flow": a fresh real server (scripts/fixtures/live-server.ts, MFA required) serving the flows the studio
 * shows, as edited (web-from-copy.ts), and Chromium go through the flow as its walk script says, filling the step's example inputs where the step declares them, and keep a screenshot
 * of every screen reached.
 */
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { StudioScreen, StudioWalk } from '../../src/studio/studio-types.ts';
import { enterValue, pageHeadline } from '../fixtures/browser-driver.ts';
import { createFixtureClient, createFixtureUser, fixtureEmail, liveValues } from '../fixtures/live-values.ts';
import { withLiveBrowser } from '../fixtures/live-session.ts';
import { personsDevices } from '../fixtures/page-secrets.ts';
import { fillDeep, lookupIn, placeholderNames } from '../fixtures/placeholder-values.ts';
import { trackRequests, waitForQuiet } from '../fixtures/quiet.ts';
import { loadWalk, WALKS_DIR } from '../fixtures/walk-script.ts';
import type { StudioRoots } from './studio-state.ts';
import { webFromCopy } from './web-from-copy.ts';

/** How long one action of the walk may take. */
const STEP_TIMEOUT_MS = 10_000;

/** A step's example inputs by route, for the fields a walk fills on that screen. */
export type ExamplesByRoute = (path: string) => Readonly<Record<string, unknown>> | undefined;

/** The screen `page` shows now, with what the walk did on it. */
async function screenOf(page: Page, did: string): Promise<StudioScreen> {
  const image = await page.screenshot({ fullPage: true });
  return { url: new URL(page.url()).pathname, title: await page.title(), headline: (await pageHeadline(page)) ?? '', did, image: `data:image/png;base64,${image.toString('base64')}` };
}

/** The value to type in `field`: the step's example where it gives one (never over a placeholder the server checks), else the script's. */
function chosenValue(field: string, scripted: string, examples: Readonly<Record<string, unknown>> | undefined): string {
  const example = examples?.[field];
  if (example === undefined || placeholderNames(scripted).some((name) => name !== 'newPassword')) return scripted;
  return String(example);
}

/** Walks `flow` by its walk script `walkName`; the screens reached, or where it stopped. */
export async function walkFlow(roots: StudioRoots, flow: string, walkName: string, examplesAt: ExamplesByRoute): Promise<StudioWalk> {
  const walk = loadWalk(join(WALKS_DIR, flow, `${walkName}.json`));
  const screens: StudioScreen[] = [];
  try {
    const copy = await webFromCopy(roots);
    await withLiveBrowser({ flags: walk.flags, copy }, async (server, browser) => {
      const email = fixtureEmail(`${flow}/${walkName}`);
      await createFixtureUser(server.dataDir, walk, email);
      await createFixtureClient(server.dataDir, server.origin, walk);
      const context = await browser.newContext({ baseURL: server.origin });
      try {
        const page = await context.newPage();
        trackRequests(page);
        const value = liveValues({ origin: server.origin, email, codes: walk.codes, totpSecret: await personsDevices(page), dataDir: server.dataDir, user: walk.user });
        const known: Record<string, string> = {};
        const learn = async (names: readonly string[]) => {
          for (const name of names) known[name] = await value(name);
        };
        await learn(placeholderNames(walk.start));
        const start = fillDeep(walk.start, lookupIn(known));
        const query = new URLSearchParams(start.query).toString();
        await page.goto(`${start.path}${query ? `?${query}` : ''}`, { waitUntil: 'commit' });
        await waitForQuiet(page);
        let did: string[] = [];
        for (const step of walk.steps) {
          if ('readCode' in step) await learn(['code', 'wrongCode']);
          if ('fill' in step) {
            await learn(placeholderNames(step.fill));
            const examples = examplesAt(new URL(page.url()).pathname);
            for (const [field, scripted] of Object.entries(step.fill)) {
              const typed = fillDeep(chosenValue(field, scripted, examples), lookupIn(known));
              await enterValue(page, field, typed, STEP_TIMEOUT_MS);
              did.push(`${field}: ${scripted.startsWith('{{') ? scripted : JSON.stringify(typed)}`);
            }
          }
          if ('click' in step) {
            did.push(`pressed "${step.click}"`);
            screens.push(await screenOf(page, did.join(', ')));
            did = [];
            const exact = { name: step.click, exact: true };
            await page.getByRole('button', exact).or(page.getByRole('link', exact)).click({ timeout: STEP_TIMEOUT_MS });
            await waitForQuiet(page);
          }
        }
        screens.push(await screenOf(page, 'the walk ends here'));
      } finally {
        await context.close();
      }
    });
    return { flow, walk: walkName, screens };
  } catch (error) {
    return { flow, walk: walkName, screens, error: error instanceof Error ? error.message : String(error) };
  }
}
