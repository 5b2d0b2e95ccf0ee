import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { outboxMatch } from './support/dev-outbox.ts';
import { setUpFirstAuthenticatorApp } from './support/recovery-codes.ts';

/** The e2e server that keeps the product's default: MFA required (playwright.config.ts). */
test.use({ baseURL: `http://localhost:${process.env.E2E_MFA_PORT}` });

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'Harbour-Compass-73!';
const WRONG_PASSWORD_ANSWER = 'Incorrect email or password.';

/** Runs the admin CLI against the MFA server (through its admin API, since it holds the database); answers what it printed. */
function sso(...args: string[]): string {
  const dataDir = process.env.E2E_MFA_DATA_DIR;
  if (!dataDir) throw new Error('E2E_MFA_DATA_DIR is not set: playwright.config.ts exports it');
  return execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/sso.ts', ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, stdio: 'pipe' }).toString();
}

function newUser(label: string): string {
  const email = `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  sso('user', 'add', '--email', email, '--password', PASSWORD);
  return email;
}

async function logIn(page: Page, email: string): Promise<void> {
  await page.goto('/demo/');
  await page.getByRole('link', { name: /Account Area/ }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
}

/** Signs a new user in and sets up an authenticator app; answers its secret. */
async function signInSettingUpApp(page: Page, email: string): Promise<string> {
  await logIn(page, email);
  await expect(page).toHaveURL(/\/auth\/mfa\/select-mfa/);
  const secret = await setUpFirstAuthenticatorApp(page);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  return secret;
}

test('the demo app signs out at the provider, on our own confirmation screen, and the next sign-in asks for the password again', async ({ page }) => {
  const email = newUser('signout');
  await signInSettingUpApp(page, email);
  await page.getByRole('link', { name: 'Sign out' }).click();
  await expect(page).toHaveTitle('Sign out');
  await expect(page.getByText('You are signing out of Account Area.')).toBeVisible();
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(/\/demo\/$/);
  await expect(page.getByText('You are not signed in.')).toBeVisible();

  await page.getByRole('link', { name: /Sign in to Account Area/ }).click();
  await expect(page).toHaveTitle('Log In');
  await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
});

test('after the operator resets MFA, the next sign-in sets up a factor again', async ({ page, browser }) => {
  const email = newUser('reset-mfa');
  await signInSettingUpApp(page, email);
  expect(sso('user', 'reset-mfa', email)).toBe(`${email}: removed totp, ended 1 session(s), mailed the user; the next sign-in sets up a factor\n`);
  // The demo was told through the back channel: its session is gone too.
  await page.goto('/demo/');
  await expect(page.getByText('You are not signed in.')).toBeVisible();

  const next = await browser.newPage();
  await logIn(next, email);
  await expect(next).toHaveURL(/\/auth\/mfa\/select-mfa/);
  await expect(next).toHaveTitle('Authenticate | Add Alternative Authentication Method');
});

test('a disabled user is signed out everywhere and refused with the wrong-password answer', async ({ page, browser }) => {
  const email = newUser('disabled');
  await signInSettingUpApp(page, email);
  expect(sso('user', 'disable', email)).toBe(`${email} disabled; ended 1 session(s); sign-in is refused\n`);
  await page.goto('/demo/');
  await expect(page.getByText('You are not signed in.')).toBeVisible();

  const again = await browser.newPage();
  await logIn(again, email);
  await expect(again.getByText(WRONG_PASSWORD_ANSWER)).toBeVisible();
  await expect(again).toHaveTitle('Log In');
});

test('"This wasn\'t me" shows its step on opening the link and acts only when confirmed', async ({ page, browser }) => {
  const email = newUser('not-me');
  await signInSettingUpApp(page, email);
  const link = await outboxMatch(page.request, email, /This wasn't me: (\S+)/);
  const reporter = await browser.newPage();
  await reporter.goto(link);
  await expect(reporter).toHaveTitle('Secure Your Account');
  await expect(reporter.getByRole('heading', { name: "Wasn't you? Secure your account" })).toBeVisible();
  // Opening the link changed nothing: the demo session is still there.
  await page.goto('/demo/');
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();

  await reporter.getByRole('button', { name: 'Sign out everywhere and secure my account' }).click();
  await expect(reporter).toHaveTitle('Secure Your Account | Done');
  await page.goto('/demo/');
  await expect(page.getByText('You are not signed in.')).toBeVisible();
  expect(sso('audit', '--user', email, '--limit', '5')).toContain(`${email} not_me_reported {"notice":"factor_added"}`);
});
