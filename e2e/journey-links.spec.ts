/**
 * Links that name a client app but carry no sign-in request of their own (a registration link in a mail or on a web
 * page): they go to the app's own sign-in start (OpenID Connect third-party-initiated login), so the app starts a
 * proper request with its state and PKCE; an app with none gets plain words and a way on. Issue 27, item 2.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { demoUrl } from './support/demo-origin.ts';
import { fillSignUp } from './support/sign-up.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'Lantern-Harbour-58!';

/** Runs the admin CLI against the default e2e server. */
function sso(...args: string[]): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: playwright.config.ts exports it');
  return execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/sso.ts', ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, stdio: 'pipe' }).toString();
}

const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** Fills the register screen, the job details and the mailed code, up to "Congratulations". */
async function registerOnScreen(page: Page, email: string): Promise<void> {
  await fillSignUp(page, email, PASSWORD);
  await expect(page.getByRole('heading', { name: 'Congratulations' })).toBeVisible();
}

test('a plain registration link naming an app goes through the app, opens the register screen and ends signed in to the app', async ({ page, baseURL }) => {
  const email = uniqueEmail('plain-register');
  await page.goto('/auth/register?client_id=sso-dashboard');
  // The demo's initiate_login_uri started a request of its own (state, PKCE) and sent the browser back to register.
  await expect(page).toHaveURL(/\/auth\/register\?/);
  await expect(page.getByText('Creating an account for Dashboard')).toBeVisible();
  await expect(page.getByText(/return address|PKCE/)).toHaveCount(0);
  await registerOnScreen(page, email);
  await page.getByRole('link', { name: 'Continue to the app' }).click();
  await expect(page).toHaveURL(demoUrl(String(baseURL)));
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
});

test('a plain login link naming an app, with an email, opens the login screen from the app with the email filled in', async ({ page }) => {
  await page.goto('/auth/login?client_id=sso-account&username=ada%40example.com');
  await expect(page).toHaveURL(/\/auth\/login\?/);
  await expect(page.getByText('Signing in to Account Area')).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue('ada@example.com');
  // The app's own request: it carries the PKCE challenge the app made.
  expect(new URL(page.url()).searchParams.has('interaction')).toBe(true);
});

test('a plain link to an app with no sign-in start says in plain words to open the app, with links to it and to the account page', async ({ page }) => {
  const clientId = `no-start-${Date.now()}`;
  sso('client', 'add', '--client-id', clientId, '--name', 'Ledger', '--redirect-uri', 'https://ledger.example/callback', '--public');
  await page.goto(`/auth/register?client_id=${clientId}`);
  await expect(page.getByRole('heading', { name: 'Open Ledger first' })).toBeVisible();
  await expect(page.getByText('This link cannot start a sign-in to Ledger by itself.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open the app' })).toHaveAttribute('href', 'https://ledger.example/');
  await page.getByRole('link', { name: 'Go to your account page' }).click();
  await expect(page.getByText('Signing in to My Account')).toBeVisible();
});

test('a direct sign-up link to a confidential app, not started by the app, still ends signed in to the app', async ({ page, baseURL }) => {
  const email = uniqueEmail('direct-register');
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    client_id: 'sso-dashboard',
    redirect_uri: demoUrl(String(baseURL), '/demo/auth/callback'),
    response_type: 'code',
    scope: 'openid email profile',
    state: randomBytes(16).toString('base64url'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  await page.goto(`/auth/register?${query}`);
  await registerOnScreen(page, email);
  await page.getByRole('link', { name: 'Continue to the app' }).click();
  await expect(page).toHaveURL(demoUrl(String(baseURL)));
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  await expect(page.getByText('session_expired')).toHaveCount(0);
});

test.describe('the provider\'s sign-out page (issue 27, item 15)', () => {
  function newUser(label: string): string {
    const email = uniqueEmail(label);
    sso('user', 'add', '--email', email, '--password', PASSWORD);
    return email;
  }

  test('speaks the language chosen on the login screen, names the app, and leads back to the app on its own origin', async ({ page, baseURL }) => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|form-action/i.test(message.text())) violations.push(message.text());
    });
    const email = newUser('signout-de');
    await page.goto(demoUrl(String(baseURL)));
    await page.getByRole('link', { name: /Sign in to Dashboard/ }).click();
    await page.getByLabel('Language').selectOption('de');
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('Passwort', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();

    await page.getByRole('link', { name: 'Sign out' }).click();
    await expect(page).toHaveTitle('Abmelden');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('heading', { name: 'Abmelden?' })).toBeVisible();
    await expect(page.getByText('Sie melden sich von Dashboard ab.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Nur von Dashboard abmelden' })).toBeVisible();
    await page.getByRole('button', { name: 'Ja, abmelden' }).click();
    await expect(page).toHaveURL(demoUrl(String(baseURL)));
    await expect(page.getByText('You are not signed in.')).toBeVisible();
    expect(violations).toEqual([]);
  });

  test('on the account page asks only whether to sign out, with no "this app only"', async ({ page }) => {
    const email = newUser('signout-account');
    await page.goto('/auth/');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(page).toHaveTitle('Sign out');
    await expect(page.getByRole('button', { name: 'Yes, sign me out' })).toBeVisible();
    await expect(page.getByRole('button', { name: /only/ })).toHaveCount(0);
  });
});
