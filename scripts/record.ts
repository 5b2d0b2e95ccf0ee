/**
 * npm run record -- <walk-script> [--out path] [--headed]
 *
 * Records a fixture: starts the server (fresh data, a free port), creates the script's user,
 * opens the script's start in Chromium with the fixture recorder on, follows the script (fill,
 * click, readCode), and writes what the recorder saw. The values the script types are named to
 * the recorder, so the fixture says {{wrongPassword}} where a wrong password was typed.
 */
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from '@playwright/test';
import { config } from '../src/config.ts';
import { createScrubber } from '../src/recorder/placeholders.ts';
import { toFixture, type RecordingState } from '../src/recorder/recording.ts';
import { pageMessages } from './fixtures/browser-driver.ts';
import { fixtureProblems, ROOT, writeFixture } from './fixtures/fixture-files.ts';
import { uniqueEmail } from './fixtures/live-server.ts';
import { createFixtureUser, liveValues } from './fixtures/live-values.ts';
import { fillDeep, lookupIn, placeholderNames } from './fixtures/placeholder-values.ts';
import { trackRequests, waitForQuiet } from './fixtures/quiet.ts';
import { defaultFixturePath, loadWalk, type WalkScript } from './fixtures/walk-script.ts';
import { runScript, withLiveBrowser } from './fixtures/live-session.ts';

const USAGE = 'usage: npm run record -- <walk-script.json> [--out fixture.json] [--headed]';

/** Follows `walk` in `page`, naming every value it types to the recorder; returns the names given. */
async function follow(page: Page, walk: WalkScript, value: (name: string) => Promise<string>): Promise<Record<string, string>> {
  const hints: Record<string, string> = {};
  trackRequests(page);
  const name = async (names: readonly string[]) => {
    for (const placeholder of names) hints[placeholder] = await value(placeholder);
    const script = `window.ssoRecorderHints = Object.assign(window.ssoRecorderHints || {}, ${JSON.stringify(hints)});`;
    await page.addInitScript({ content: script });
    await page.evaluate(script).catch(() => undefined);
  };
  await name(['email', 'password', 'newPassword', 'wrongPassword']);
  // The recorder names the origin itself; it is no hint, since every page has it.
  const start = fillDeep(walk.start, lookupIn({ ...hints, origin: await value('origin') }));
  const query = new URLSearchParams({ ...start.query, [config.recorder.query]: '1' });
  await page.goto(`${start.path}?${query}`, { waitUntil: 'commit' });
  await waitForQuiet(page);
  for (const step of walk.steps) {
    if ('readCode' in step) await name(['code', 'wrongCode']);
    if ('fill' in step) {
      await name(placeholderNames(step.fill));
      for (const [field, template] of Object.entries(fillDeep(step.fill, lookupIn(hints)))) await page.locator(`form [name="${field}"]`).fill(template);
    }
    if ('click' in step) {
      const exact = { name: step.click, exact: true };
      await page.getByRole('button', exact).or(page.getByRole('link', exact)).click();
      await waitForQuiet(page);
    }
  }
  await waitForQuiet(page);
  return hints;
}

async function main(argv: string[]): Promise<number> {
  const { values: options, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { out: { type: 'string' }, headed: { type: 'boolean' } } });
  const [walkPath] = positionals;
  const out = options.out ?? (walkPath ? defaultFixturePath(walkPath) : undefined);
  if (!walkPath || !out) {
    process.stderr.write(`${USAGE}\n(--out is needed for a script outside tests/fixtures/walks)\n`);
    return 2;
  }
  const walk = loadWalk(walkPath);
  // The recorded walks go through flows without a second factor, as the e2e server that replays them does.
  return withLiveBrowser({ ...options, env: { MFA_REQUIRED: 'false' } }, async (server, browser) => {
    const email = uniqueEmail('recorded');
    await createFixtureUser(server.dataDir, walk, email);
    const page = await (await browser.newContext({ baseURL: server.origin })).newPage();
    const hints = await follow(page, walk, liveValues({ origin: server.origin, email, codes: walk.codes }));
    const path = new URL(page.url()).pathname;
    const left = !path.startsWith(`${config.basePath}/`);
    const saved = await page.evaluate((key) => sessionStorage.getItem(key), config.recorder.walkKey);
    if (!saved) throw new Error('the recorder kept no walk: is dist/web built from this source?');
    const scrubber = createScrubber({ origin: server.origin, hints: () => hints });
    const messages = left ? [] : scrubber.scrub(await pageMessages(page));
    const { $schema, description, start, steps } = toFixture(JSON.parse(saved) as RecordingState, { messages, left }, walk.description);
    const { user, codes, realServer, reason } = walk;
    const fixture = { $schema, description, start, user, codes, realServer, reason, ...(left ? { end: { path } } : {}), steps };
    const problems = fixtureProblems(fixture);
    if (problems.length > 0) throw new Error(`the recording is not a valid fixture:\n  ${problems.join('\n  ')}`);
    writeFixture(out, fixture);
    process.stdout.write(`recorded ${fixture.steps.length} steps to ${relative(ROOT, out)}\n`);
    for (const [index, step] of fixture.steps.entries()) process.stdout.write(`  ${index + 1} ${step.route} ${JSON.stringify(step.title)}${step.action ? ` → ${step.action.type}` : ''}\n`);
    return 0;
  });
}

runScript('record', () => main(process.argv.slice(2)));
