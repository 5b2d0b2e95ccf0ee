/**
 * npm run screenshots
 *
 * The screen gallery: starts the server (fresh data, a free port), walks a real browser through
 * every screen of the current flows at desktop (1280×800) and phone (360×740) widths, and saves
 * full-page PNGs as docs/screenshots/<screen>-<desktop|phone>.png, plus the table of them in
 * docs/screens.md. Needs a built app (npm run build). `npm run screenshots -- only=help,login` retakes only the
 * named screens (the walks still run, to reach them; the table is still written whole).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { SAMPLE_VALUES } from './fixtures/placeholder-values.ts';
import { ROOT } from './fixtures/fixture-files.ts';
import { adminCli, latestCode, latestMatch, type LiveServer } from './fixtures/live-server.ts';
import { trackRequests, waitForQuiet } from './fixtures/quiet.ts';
import { runScript, withLiveBrowser } from './fixtures/live-session.ts';
import { INVITATION_SCREENS, walkInvitationScreens } from './fixtures/invitation-screens.ts';
import { MFA_SCREENS, walkMfaScreens } from './fixtures/mfa-screens.ts';
import { ACCOUNT_SCREENS, walkAccountScreens } from './fixtures/account-screens.ts';
import { PASSKEY_SCREENS, walkPasskeyScreens } from './fixtures/passkey-screens.ts';
import { openLogin, REGISTRATION_SCREENS, walkRegistration } from './fixtures/registration-screens.ts';
import { EDGE_SCREENS, walkEdgeScreens } from './fixtures/edge-screens.ts';

const OUT = join(ROOT, 'docs', 'screenshots');
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 360, height: 740 } } as const;
const DEMO = { email: 'demo@example.com', password: 'Demo-Passw0rd!' };

/** Every screen, in gallery order, with what it shows. */
const SCREENS = {
  login: 'Log in, reached from a client app (its name above the form)',
  'login-validation-errors': 'Log in submitted empty: the field messages',
  'login-server-error': "Log in with a wrong password: the server's message",
  'login-throttled': 'After 8 wrong passwords: "Too many attempts. Try again in a few seconds, or reset your password." (the real wait; minutes once it is a minute or more), for any address',
  'forgot-password': 'Forgot password, the email carried over from log in',
  'forgot-password-sent': 'Where the code went',
  'change-password': 'The code and a new password, with the live checklist',
  'reset-password-success': 'Password reset',
  'new-password': 'A temporary password must be replaced',
  ...INVITATION_SCREENS,
  ...REGISTRATION_SCREENS,
  ...MFA_SCREENS,
  redirect: 'On the way back to the client app',
  'sign-in-finished': 'Back into a finished sign-in: "You\'re signed in to <app>", with the way back to it and no blame',
  'sign-in-ended': 'A sign-in that is no longer open (here opened with no app named): "This sign-in has ended", and no blame',
  help: 'The built-in help page behind "Can\'t Log In or Register?": lost phone, locked account, no code, changed email',
  error: 'An app that is not registered',
  'not-found': 'A path no screen owns',
  'not-available': 'A step that is not built yet',
  'demo-signed-in': 'The demo client app, signed in',
  'logout-confirmation': "Signing out of a client app: the provider's own confirmation, under its page policy",
  'not-me': 'A security notice\'s "This wasn\'t me" link: the step shows, nothing happens until confirmed',
  'not-me-done': 'Every session ended; choosing a new password comes next',
  ...EDGE_SCREENS,
  ...ACCOUNT_SCREENS,
  ...PASSKEY_SCREENS,
} as const;

type ScreenName = keyof typeof SCREENS;

/** Opens fresh pages at one size against `server` (each in a context of its own); `close` closes them all. */
function pageOpener(browser: Browser, server: LiveServer, size: keyof typeof SIZES) {
  const contexts: BrowserContext[] = [];
  return {
    async fresh(): Promise<Page> {
      const context = await browser.newContext({ baseURL: server.origin, viewport: SIZES[size] });
      contexts.push(context);
      const page = await context.newPage();
      trackRequests(page);
      return page;
    },
    async close(): Promise<void> {
      for (const context of contexts) await context.close();
    },
  };
}

/** How many wrong passwords start the throttle's message (issue 15: "after 8 wrong passwords"). */
const WRONG_PASSWORDS_TO_THROTTLE = 8;

/**
 * A login being throttled: wrong passwords for `email` until the throttle holds. From the fifth on, each answers with
 * the wait it starts ("Too many attempts. Try again in a few seconds, or reset your password."), so the picture needs
 * no race against the wait, however slow the machine.
 */
async function showThrottled(page: Page, server: LiveServer, email: string, shot: (page: Page, name: ScreenName) => Promise<void>): Promise<void> {
  await adminCli(server.dataDir, ['user', 'add', '--email', email, '--password', SAMPLE_VALUES.password]);
  await openLogin(page, server);
  await page.getByLabel('Email').fill(email);
  for (let attempt = 1; attempt <= WRONG_PASSWORDS_TO_THROTTLE; attempt += 1) {
    await page.getByLabel('Password', { exact: true }).fill(SAMPLE_VALUES.wrongPassword);
    const answered = page.waitForResponse((response) => response.url().includes('/auth/login') && response.request().method() === 'POST');
    await page.getByRole('button', { name: 'Log In' }).click();
    await answered;
  }
  await page.getByRole('alert').filter({ hasText: 'Too many attempts' }).waitFor();
  await shot(page, 'login-throttled');
}

/** Walks every screen at one size, calling `shot` on each. */
async function walkScreens(browser: Browser, server: LiveServer, size: keyof typeof SIZES, shot: (page: Page, name: ScreenName) => Promise<void>) {
  const { fresh, close } = pageOpener(browser, server, size);
  // The server's data is fresh for every run, so plain addresses look real and never collide.
  const recovering = `ada.${size}@example.com`;
  const temporary = `grace.${size}@example.com`;
  await adminCli(server.dataDir, ['user', 'add', '--email', recovering, '--password', SAMPLE_VALUES.password]);
  await adminCli(server.dataDir, ['user', 'add', '--email', temporary, '--password', SAMPLE_VALUES.password, '--temporary']);

  const page = await fresh();
  await openLogin(page, server);
  await shot(page, 'login');
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.getByText('Please enter your password').waitFor();
  await shot(page, 'login-validation-errors');
  await page.getByLabel('Email').fill(DEMO.email);
  await page.getByLabel('Password', { exact: true }).fill(SAMPLE_VALUES.wrongPassword);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.getByRole('alert').waitFor();
  await shot(page, 'login-server-error');
  await showThrottled(await fresh(), server, `blocked.${size}@example.com`, shot);
  await page.getByLabel('Email').fill(recovering);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await shot(page, 'forgot-password');
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByRole('link', { name: 'Enter the code' }).waitFor();
  await shot(page, 'forgot-password-sent');
  await page.getByRole('link', { name: 'Enter the code' }).click();
  // A fixed code on the picture keeps it the same from run to run; the mailed one is entered after.
  await page.getByLabel('Verification code').fill(SAMPLE_VALUES.code);
  await page.getByLabel('New password', { exact: true }).fill('fresh-passw0rd');
  await shot(page, 'change-password');
  await page.getByLabel('Verification code').fill(await latestCode(server.origin, recovering));
  await page.getByLabel('New password', { exact: true }).fill(SAMPLE_VALUES.newPassword);
  await page.getByRole('button', { name: 'Reset password' }).click();
  await page.getByRole('link', { name: 'Back to log in' }).waitFor();
  await shot(page, 'reset-password-success');

  const temporaryPage = await fresh();
  await openLogin(temporaryPage, server);
  await temporaryPage.getByLabel('Email').fill(temporary);
  await temporaryPage.getByLabel('Password', { exact: true }).fill(SAMPLE_VALUES.password);
  await temporaryPage.getByRole('button', { name: 'Log In' }).click();
  await temporaryPage.getByRole('button', { name: 'Save password' }).waitFor();
  await shot(temporaryPage, 'new-password');
  await walkInvitationScreens(fresh, server, size, shot);

  await walkRegistration(fresh, server, size, shot);

  const leaving = await fresh();
  await openLogin(leaving, server);
  // The provider answers 204 here, so the browser stays on the screen that is normally gone at once.
  await leaving.route(/\/oidc\/auth\/[^/?]+$/, (route) => route.fulfill({ status: 204 }));
  await leaving.getByLabel('Email').fill(DEMO.email);
  await leaving.getByLabel('Password', { exact: true }).fill(DEMO.password);
  await leaving.getByRole('button', { name: 'Log In' }).click();
  await leaving.waitForURL(/\/auth\/redirect/);
  await shot(leaving, 'redirect');

  const direct = await fresh();
  for (const [name, path] of [['error', '/auth/login?client_id=unknown-app&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&state=x'], ['not-found', '/auth/no/such/page'], ['not-available', '/auth/unavailable']] as const) {
    await direct.goto(path);
    await direct.locator('main h1').waitFor();
    await waitForQuiet(direct);
    await shot(direct, name);
  }
  await direct.goto('/auth/sign-in/ended');
  await direct.getByRole('heading', { name: 'This sign-in has ended' }).waitFor();
  await shot(direct, 'sign-in-ended');
  await direct.goto('/auth/help');
  await direct.getByRole('heading', { level: 2, name: 'My code does not arrive' }).waitFor();
  await shot(direct, 'help');

  const demo = await fresh();
  await demo.goto('/demo/');
  await demo.getByRole('link', { name: /Dashboard/ }).click();
  await demo.getByLabel('Email').fill(DEMO.email);
  await demo.getByLabel('Password', { exact: true }).fill(DEMO.password);
  await demo.getByRole('button', { name: 'Log In' }).click();
  await demo.getByText(`Signed in as ${DEMO.email}`).waitFor();
  await shot(demo, 'demo-signed-in');
  // Back from the client app lands on the finished sign-in's own screen.
  await demo.goBack();
  await demo.getByRole('heading', { name: /^You're signed in to / }).waitFor();
  await shot(demo, 'sign-in-finished');
  await demo.goForward();
  await demo.getByText(`Signed in as ${DEMO.email}`).waitFor();
  await demo.getByRole('link', { name: 'Sign out' }).click();
  await demo.getByRole('button', { name: 'Yes, sign me out' }).waitFor();
  await shot(demo, 'logout-confirmation');
  await demo.getByRole('button', { name: 'Yes, sign me out' }).click();
  await demo.getByText('You are not signed in.').waitFor();

  // The reset above mailed its owner a notice; its "This wasn't me" link opens the step.
  const reporting = await fresh();
  await reporting.goto(await latestMatch(server.origin, recovering, /This wasn't me: (\S+)/));
  await reporting.getByRole('button', { name: 'Sign out everywhere and secure my account' }).waitFor();
  await shot(reporting, 'not-me');
  await reporting.getByRole('button', { name: 'Sign out everywhere and secure my account' }).click();
  await reporting.getByRole('link', { name: 'Choose a new password' }).waitFor();
  await shot(reporting, 'not-me-done');
  await walkEdgeScreens(server, size, fresh, shot);
  await close();
}

/** The gallery's page, and the markers between which the script rewrites its table on every run. */
const GALLERY_FILE = join('docs', 'screens.md');
const GALLERY_START = '<!-- screens:start (written by npm run screenshots) -->';
const GALLERY_END = '<!-- screens:end -->';

function gallery(): string {
  const rows = (Object.entries(SCREENS) as Array<[ScreenName, string]>).map(
    ([name, what]) =>
      `| \`${name}\` — ${what} | ![${name}, desktop](screenshots/${name}-desktop.png) | ![${name}, phone](screenshots/${name}-phone.png) |`,
  );
  return [GALLERY_START, '| screen | desktop | phone |', '|---|---|---|', ...rows, GALLERY_END].join('\n');
}

/** Replaces the gallery in docs/screens.md, which must hold both markers. */
function writeGallery(): void {
  const file = join(ROOT, GALLERY_FILE);
  const page = readFileSync(file, 'utf8');
  const start = page.indexOf(GALLERY_START);
  const end = page.indexOf(GALLERY_END);
  if (start < 0 || end < start) throw new Error(`${GALLERY_FILE} lacks the gallery markers ${GALLERY_START} … ${GALLERY_END}`);
  writeFileSync(file, `${page.slice(0, start)}${gallery()}${page.slice(end + GALLERY_END.length)}`);
}

/** The screens named by `only=a,b` on the command line, or undefined for every screen. */
const ONLY = process.argv
  .find((argument) => argument.startsWith('only='))
  ?.slice('only='.length)
  .split(',')
  .filter(Boolean);

/** Saves one screen at one size (unless `only=` leaves it out). */
async function save(page: Page, name: ScreenName, size: keyof typeof SIZES): Promise<void> {
  if (ONLY && !ONLY.includes(name)) return;
  await waitForQuiet(page);
  const path = join(OUT, `${name}-${size}.png`);
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  process.stdout.write(`${relative(ROOT, path)}\n`);
}

async function main(): Promise<number> {
  mkdirSync(OUT, { recursive: true });
  // `npm run screenshots -- account` (or `-- mfa`, `-- passkeys`) retakes only the account page's (or the second
  // factor's, the passkey and trusted-device) screens; the table is still written whole.
  const onlyAccount = process.argv.includes('account');
  const onlyMfa = process.argv.includes('mfa');
  const onlyPasskeys = process.argv.includes('passkeys');
  // With only=…, a walk runs only when it reaches one of the named screens.
  const wanted = (names: readonly string[]) => ONLY === undefined || ONLY.some((name) => names.includes(name));
  const mfaNames = Object.keys(MFA_SCREENS);
  const accountNames = Object.keys(ACCOUNT_SCREENS);
  const passkeyNames = Object.keys(PASSKEY_SCREENS);
  const flowNames = Object.keys(SCREENS).filter(
    (name) => !mfaNames.includes(name) && !accountNames.includes(name) && !passkeyNames.includes(name),
  );
  if (!onlyAccount && !onlyMfa && !onlyPasskeys && wanted(flowNames)) await walkFlowScreens();
  if (!onlyAccount && !onlyPasskeys && wanted(mfaNames)) await walkSecondFactorScreens();
  if (!onlyMfa && wanted([...accountNames, ...passkeyNames])) await withLiveBrowser({}, async (server, browser) => {
    for (const size of Object.keys(SIZES) as Array<keyof typeof SIZES>) {
      const { fresh, close } = pageOpener(browser, server, size);
      if (!onlyPasskeys && wanted(accountNames)) await walkAccountScreens(server, size, fresh, (page, name) => save(page, name, size));
      if (!onlyAccount && wanted(passkeyNames)) await walkPasskeyScreens(server, size, fresh, (page, name) => save(page, name, size));
      await close();
    }
  });
  writeGallery();
  process.stdout.write(`${GALLERY_FILE} (screens table)\n`);
  return 0;
}

/** The sign-in flows' screens before the second factor. */
async function walkFlowScreens(): Promise<void> {
  // The flows before the second factor, on a server where it is not required (their users have none)...
  await withLiveBrowser({ env: { MFA_REQUIRED: 'false' } }, async (server, browser) => {
    for (const size of Object.keys(SIZES) as Array<keyof typeof SIZES>) await walkScreens(browser, server, size, (page, name) => save(page, name, size));
  });
}

/** The second-factor screens, on a server with the product's default: MFA required. */
async function walkSecondFactorScreens(): Promise<void> {
  await withLiveBrowser({}, async (server, browser) => {
    for (const size of Object.keys(SIZES) as Array<keyof typeof SIZES>) {
      const { fresh, close } = pageOpener(browser, server, size);
      await walkMfaScreens(server, size, fresh, (page, name) => save(page, name, size));
      await close();
    }
  });
}

runScript('screenshots', main);
