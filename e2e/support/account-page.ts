/** The account page as the browser tests reach it: a user made by the operator CLI, signed in at the product's address. */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, type Browser, type Page } from '@playwright/test';
import { appCode } from './authenticator-app.ts';
import { setUpFirstAuthenticatorApp } from './recovery-codes.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The password every user made here signs in with. */
export const PASSWORD = 'Quartz-Lantern-42!';

/** Runs the operator CLI against the MFA e2e server's data (playwright.config.ts exports where it is). */
export function sso(...args: string[]): void {
  const dataDir = process.env.E2E_MFA_DATA_DIR;
  if (!dataDir) throw new Error('E2E_MFA_DATA_DIR is not set: playwright.config.ts exports it');
  execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/sso.ts', ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, stdio: 'pipe' });
}

/** A new user with PASSWORD, named after `label`. */
export function newUser(label: string): string {
  const email = `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  sso('user', 'add', '--email', email, '--password', PASSWORD);
  return email;
}

/** Types the password at the product's own address; the login screen names the account page. */
export async function logInAtProductAddress(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/auth/');
  await expect(page).toHaveURL(/\/auth\/login\?client_id=sso-account-page/);
  await expect(page.getByText('Signing in to My Account')).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

/** A new user's first sign-in: the authenticator app set up at the MFA step; answers its secret. */
export async function firstSignIn(page: Page, email: string): Promise<string> {
  await logInAtProductAddress(page, email);
  const secret = await setUpFirstAuthenticatorApp(page);
  await expect(page).toHaveURL(/\/auth\/account$/);
  await expect(page.getByRole('heading', { name: 'Your account', level: 1 })).toBeVisible();
  // The header shows before the sign-in is finished; the page is the person's once their sign-in methods are listed.
  await expect(page.getByRole('region', { name: 'Sign-in methods' }).getByRole('listitem')).toHaveCount(1);
  return secret;
}

/** The same user signed in to the account page in another browser, with the app's code `stepsAhead` steps on. */
export async function signInElsewhere(browser: Browser, email: string, secret: string, stepsAhead: number): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await logInAtProductAddress(page, email);
  await page.getByRole('textbox', { name: 'Code' }).fill(appCode(secret, stepsAhead));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/auth\/account$/);
  return page;
}

/** Proves the authenticator app again on the account page (step-up). */
export async function stepUpWithApp(page: Page, secret: string, stepsAhead: number): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
  await page.getByLabel('Code from your authenticator app').fill(appCode(secret, stepsAhead));
  await page.getByRole('button', { name: 'Confirm' }).click();
}

/** Waits for the authenticator app's next 30-second step, so a code not yet used can be read. */
export async function nextAppStep(page: Page): Promise<void> {
  await page.waitForTimeout(30_000 - (Date.now() % 30_000) + 250);
}
