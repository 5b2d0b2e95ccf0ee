/**
 * The consent screen: a client app that is not first-party asks, once, to see what its scopes release; the person may
 * untick any, allows, and lands back in the app. Signed in already, prompt=consent shows the screen again without the
 * password; the account page lists the app under "Apps with access" and removes it.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { authorizationQuery } from './support/authorization-query.ts';
import { demoUrl } from './support/demo-origin.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'Meadow-Lantern-58!';

/** Runs the admin CLI against the default e2e server (through its admin API). */
function sso(...args: string[]): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: playwright.config.ts exports it');
  return execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/sso.ts', ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, stdio: 'pipe' }).toString();
}

/** The partner app's authorization request, straight to the provider as any OIDC library sends it. */
function authorization(baseURL: string, clientId: string, redirectUri: string, extra: Record<string, string> = {}): string {
  const url = new URL('/oidc/auth', baseURL);
  url.search = authorizationQuery(clientId, redirectUri, { scope: 'openid email profile', ...extra }).toString();
  return url.href;
}

/**
 * Waits for the browser to arrive at the app's callback; answers the URL it arrived at. It waits for the page to be
 * there, not only asked for: the next step's own navigation must not race this one's last redirect.
 */
async function landsAt(page: Page, redirectUri: string, act: () => Promise<void>): Promise<URL> {
  const arrival = page.waitForURL((url) => url.href.startsWith(redirectUri), { waitUntil: 'commit' });
  await act();
  await arrival;
  return new URL(page.url());
}

test('a partner app asks once what it may see, remembers it, asks again with prompt=consent without the password, and the account page removes it', async ({ page, baseURL }) => {
  const base = baseURL ?? '';
  const clientId = `partner-${Date.now()}`;
  const redirectUri = demoUrl(base, `/demo/${clientId}/callback`);
  sso('client', 'add', '--client-id', clientId, '--name', 'Partner Budgeting', '--redirect-uri', redirectUri, '--public');
  const email = `consent-${Date.now()}@example.com`;
  sso('user', 'add', '--email', email, '--password', PASSWORD);

  await page.goto(authorization(base, clientId, redirectUri));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();

  await expect(page).toHaveTitle('Authenticate | Allow Access');
  await expect(page.getByRole('heading', { name: 'Allow Partner Budgeting to access your account?' })).toBeVisible();
  await expect(page.getByLabel('See your email address')).toBeChecked();
  await expect(page.getByLabel('See your name')).toBeChecked();
  // Only what the app asks for is offered.
  await expect(page.getByLabel('See the company you act for')).toHaveCount(0);
  await page.getByLabel('See your name').uncheck();
  const first = await landsAt(page, redirectUri, () => page.getByRole('button', { name: 'Allow', exact: true }).click());
  expect(first.searchParams.get('code')).toBeTruthy();

  // Remembered: the same request goes straight back to the app.
  const silent = await landsAt(page, redirectUri, async () => {
    await page.goto(authorization(base, clientId, redirectUri, { scope: 'openid email' }));
  });
  expect(silent.searchParams.get('code')).toBeTruthy();

  // prompt=consent: the screen again, no password.
  await page.goto(authorization(base, clientId, redirectUri, { prompt: 'consent' }));
  await expect(page).toHaveTitle('Authenticate | Allow Access');
  await expect(page.getByLabel('Password', { exact: true })).toHaveCount(0);
  const declined = await landsAt(page, redirectUri, () => page.getByRole('button', { name: "Don't allow" }).click());
  expect(declined.searchParams.get('error')).toBe('access_denied');

  await page.goto(new URL('/auth/account', base).href);
  const apps = page.locator('#apps');
  await expect(apps.getByRole('heading', { name: 'Apps with access' })).toBeVisible();
  await expect(apps.getByText('Partner Budgeting')).toBeVisible();
  await expect(apps.getByText('Your email address')).toBeVisible();
  await apps.getByRole('button', { name: 'Remove access for Partner Budgeting' }).click();
  await expect(apps.getByText('No apps have access. An app asks you before it gets any.')).toBeVisible();
});
