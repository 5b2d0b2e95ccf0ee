/**
 * Client apps live on other origins than the provider. The demo runs on its own (playwright.config.ts starts each
 * server with DEMO_URL unset: the other loopback name, the next port), so a browser really crosses origins when it
 * signs in, signs out and gets a form_post answer; and the provider's page policy must let it.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { authorizationQuery } from './support/authorization-query.ts';
import { demoUrl } from './support/demo-origin.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'Harbour-Compass-73!';

/** Runs the admin CLI against the default e2e server (through its admin API); answers what it printed. */
function sso(...args: string[]): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: playwright.config.ts exports it');
  return execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/sso.ts', ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, stdio: 'pipe' }).toString();
}

function newUser(label: string): string {
  const email = `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  sso('user', 'add', '--email', email, '--password', PASSWORD);
  return email;
}

/** Every Content-Security-Policy report the page's console shows; a refused form or redirect lands here. */
function policyViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|form-action/i.test(message.text())) seen.push(message.text());
  });
  return seen;
}

async function logIn(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
}

test('after "Yes, sign me out" the browser is back in the app on its own origin, with the app\'s state', async ({ page, baseURL }) => {
  const demo = new URL(demoUrl(baseURL ?? ''));
  expect(demo.origin).not.toBe(new URL(baseURL ?? '').origin);
  const violations = policyViolations(page);
  const email = newUser('cross-origin-signout');
  await page.goto(demo.href);
  await page.getByRole('link', { name: /Sign in to Dashboard/ }).click();
  await logIn(page, email);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  expect(new URL(page.url()).origin).toBe(demo.origin);

  await page.getByRole('link', { name: 'Sign out' }).click();
  await expect(page).toHaveTitle('Sign out');
  expect(new URL(page.url()).origin).toBe(new URL(baseURL ?? '').origin);
  const backInApp = page.waitForRequest((request) => request.url().startsWith(demo.href) && request.method() === 'GET');
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  expect(new URL((await backInApp).url()).origin).toBe(demo.origin);
  await expect(page).toHaveURL(demo.href);
  await expect(page.getByText('You are not signed in.')).toBeVisible();
  expect(violations).toEqual([]);
});

test('a form_post sign-in delivers the code and state to the app on its own origin', async ({ page, baseURL }) => {
  const callback = demoUrl(baseURL ?? '', `/demo/form-post-${Date.now()}`);
  const clientId = `form-post-${Date.now()}`;
  sso('client', 'add', '--client-id', clientId, '--name', 'Form Post App', '--redirect-uri', callback, '--public');
  const violations = policyViolations(page);
  const email = newUser('cross-origin-form-post');
  const query = authorizationQuery(clientId, callback, { response_mode: 'form_post' });
  const state = query.get('state');
  const authorization = new URL('/oidc/auth', baseURL);
  authorization.search = query.toString();
  await page.goto(authorization.href);
  await expect(page).toHaveTitle('Log In');
  await logIn(page, email);

  // The provider's page hands the answer on by a form; the browser must be allowed to post it to the app's origin.
  const posted = page.waitForRequest((request) => request.url() === callback && request.method() === 'POST');
  await page.getByRole('button', { name: 'Continue' }).click();
  const answer = new URLSearchParams((await posted).postData() ?? '');
  expect(answer.get('state')).toBe(state);
  expect(answer.get('code')).toBeTruthy();
  expect(answer.get('iss')).toBe(new URL(baseURL ?? '').origin);
  await expect(page).toHaveURL(callback);
  expect(violations).toEqual([]);
});

test('an app\'s ui_locales=de shows the login screen in German', async ({ page, baseURL }) => {
  const authorization = new URL('/oidc/auth', baseURL);
  authorization.search = authorizationQuery('sso-account', demoUrl(baseURL ?? '', '/demo/user-management/auth/callback'), { ui_locales: 'de en' }).toString();
  await page.goto(authorization.href);
  await expect(page.getByRole('button', { name: 'Anmelden' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
});
