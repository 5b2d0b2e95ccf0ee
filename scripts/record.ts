/**
 * npm run record -- <walk-script>... [--out fixture.json | --out-dir dir] [--headed]
 *
 * Records fixtures: starts the server (fresh data, a free port, the product's default of MFA required), and for each
 * walk script creates its user, opens its start in Chromium with the fixture recorder switched on for the tab (so it
 * keeps recording through the server's and the provider's redirects), follows the script (fill, click, readCode), and
 * writes what the recorder saw. The values the script types are named to the recorder, so the fixture says
 * {{wrongPassword}} where a wrong password was typed.
 */
import { basename, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from '@playwright/test';
import { config } from '../src/config.ts';
import { createScrubber } from '../src/recorder/placeholders.ts';
import { toFixture, type RecordingState } from '../src/recorder/recording.ts';
import { enterValue, pageHeadline, pageMessages } from './fixtures/browser-driver.ts';
import { watchDeparture } from './fixtures/departure.ts';
import { copyWalkOnOpen, keptWalkOf } from './fixtures/kept-walk.ts';
import { fixtureName, fixtureProblems, ROOT, writeFixture } from './fixtures/fixture-files.ts';
import { companyPlaceholders, createFixtureClient, createFixtureUser, fixtureEmail, liveValues } from './fixtures/live-values.ts';
import { personsDevices } from './fixtures/page-secrets.ts';
import { fillDeep, lookupIn, placeholderNames } from './fixtures/placeholder-values.ts';
import { trackRequests, waitForQuiet } from './fixtures/quiet.ts';
import { defaultFixturePath, loadWalk, WALKS_DIR, type WalkScript } from './fixtures/walk-script.ts';
import { runScript, withLiveServers, type ServerFor } from './fixtures/live-session.ts';

const USAGE = 'usage: npm run record -- <walk-script.json>... [--out fixture.json | --out-dir dir] [--headed]';
const STEP_TIMEOUT_MS = 10_000;

/** Switches the recorder on for the tab before its first page loads, as Ctrl+Alt+R would; later pages go on with it. */
const SWITCH_ON = `try {
  if (!sessionStorage.getItem(${JSON.stringify(config.recorder.switchKey)})) sessionStorage.setItem(${JSON.stringify(config.recorder.switchKey)}, 'new');
} catch {}`;

/** The values the script writes itself, with no placeholder in them (a made-up token in its start): never named. */
function literalsOf(walk: WalkScript): string[] {
  return Object.values(walk.start.query).filter((value) => placeholderNames(value).length === 0);
}

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
  await name(['email', 'password', 'newPassword', 'wrongPassword', ...companyPlaceholders(walk.user), ...placeholderNames(walk.start).filter((placeholder) => placeholder !== 'origin')]);
  await page.addInitScript({ content: SWITCH_ON });
  await page.addInitScript({ content: `window.ssoRecorderLiterals = ${JSON.stringify(literalsOf(walk))};` });
  // The recorder names the origin itself; it is no hint, since every page has it.
  const start = fillDeep(walk.start, lookupIn({ ...hints, origin: await value('origin') }));
  const query = new URLSearchParams(start.query).toString();
  await page.goto(`${start.path}${query ? `?${query}` : ''}`, { waitUntil: 'commit' });
  await waitForQuiet(page);
  for (const step of walk.steps) {
    if ('readCode' in step) await name(['code', 'wrongCode']);
    if ('fill' in step) {
      await name(placeholderNames(step.fill));
      for (const [field, filled] of Object.entries(fillDeep(step.fill, lookupIn(hints)))) await enterValue(page, field, filled, STEP_TIMEOUT_MS);
    }
    if ('click' in step) {
      const exact = { name: step.click, exact: true };
      await page.getByRole('button', exact).or(page.getByRole('link', exact)).click({ timeout: STEP_TIMEOUT_MS });
      await waitForQuiet(page);
    }
  }
  await waitForQuiet(page);
  return hints;
}

/** The walk the recorder kept in this tab's storage for the provider's origin (scripts/fixtures/kept-walk.ts). */
async function keptWalk(page: Page, origin: string, shown: (key: string) => boolean): Promise<string | null> {
  if (new URL(page.url()).origin !== origin) {
    await copyWalkOnOpen(page, origin);
    await page.goBack({ waitUntil: 'commit' });
  } else {
    await page.waitForFunction(shown, config.recorder.walkKey, { timeout: STEP_TIMEOUT_MS }).catch(() => undefined);
  }
  return keptWalkOf(page);
}

/** Records one walk script into `out`, in a fresh browser context on the server with the walk's flags. */
async function record(serverFor: ServerFor, browser: Browser, walkPath: string, out: string): Promise<void> {
  const walk = loadWalk(walkPath);
  const server = await serverFor(walk.flags);
  const email = fixtureEmail(fixtureName(out));
  await createFixtureUser(server.dataDir, walk, email);
  await createFixtureClient(server.dataDir, server.origin, walk);
  const context = await browser.newContext({ baseURL: server.origin });
  try {
    const page = await context.newPage();
    const totpSecret = await personsDevices(page);
    const departure = watchDeparture(page);
    const hints = await follow(page, walk, liveValues({ origin: server.origin, email, codes: walk.codes, totpSecret, dataDir: server.dataDir, user: walk.user }));
    const away = departure();
    const left = away !== undefined;
    // On a loaded machine the network can fall quiet before the app has shown its first screen: wait for one.
    const shown = (key: string) => {
      const walk = JSON.parse(sessionStorage.getItem(key) ?? 'null') as RecordingState | null;
      return walk !== null && (walk.steps.length > 0 || walk.open.route !== undefined);
    };
    const saved = await keptWalk(page, server.origin, shown);
    if (!saved) throw new Error(`${relative(ROOT, walkPath)}: the recorder kept no walk: is dist/web built from this source?`);
    const state = JSON.parse(saved) as RecordingState;
    const scrubber = createScrubber({ origin: server.origin, hints: () => hints, literals: () => literalsOf(walk), addresses: state.addresses });
    const ending = left ? { messages: [], left } : { messages: scrubber.scrub(await pageMessages(page)), headline: scrubber.scrub(await pageHeadline(page)), left };
    const { $schema, description, start: landed, steps } = toFixture(state, ending, walk.description);
    // A forwarded start is the script's link itself: the provider's way back drops some of its query (PKCE's challenge).
    const start = steps[0]?.arrive ? walk.start : landed;
    const { user, client, codes, flags, realServer, engine, reason } = walk;
    const fixture = { $schema, description, start, user, client, codes, flags, realServer, engine, reason, ...(away ? { end: away } : {}), steps };
    const problems = fixtureProblems(fixture);
    if (problems.length > 0) throw new Error(`${relative(ROOT, walkPath)}: the recording is not a valid fixture:\n  ${problems.join('\n  ')}`);
    writeFixture(out, fixture);
    process.stdout.write(`recorded ${fixture.steps.length} steps to ${relative(ROOT, out)}\n`);
    for (const [index, step] of fixture.steps.entries()) process.stdout.write(`  ${index + 1} ${step.route} ${JSON.stringify(step.title)}${step.action ? ` → ${step.action.type}` : ''}\n`);
  } finally {
    await context.close();
  }
}

/** Where a walk script's fixture goes: --out, else under --out-dir or tests/fixtures/flows by the script's own name. */
function outputOf(walkPath: string, options: { out?: string; 'out-dir'?: string }): string | undefined {
  if (options.out) return options.out;
  const own = defaultFixturePath(walkPath);
  if (!options['out-dir']) return own;
  return join(options['out-dir'], own ? relative(join(ROOT, 'tests', 'fixtures', 'flows'), own) : basename(walkPath));
}

async function main(argv: string[]): Promise<number> {
  const { values: options, positionals: walks } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { out: { type: 'string' }, 'out-dir': { type: 'string' }, headed: { type: 'boolean' } },
  });
  const outputs = walks.map((walkPath) => ({ walkPath, out: outputOf(walkPath, options) }));
  if (walks.length === 0 || (options.out && walks.length > 1) || outputs.some(({ out }) => !out)) {
    process.stderr.write(`${USAGE}\n(--out takes one script; a script outside ${relative(ROOT, WALKS_DIR)} needs --out or --out-dir)\n`);
    return 2;
  }
  return withLiveServers(options, async (serverFor, browser) => {
    for (const { walkPath, out } of outputs) if (out) await record(serverFor, browser, walkPath, out);
    return 0;
  });
}

runScript('record', () => main(process.argv.slice(2)));
