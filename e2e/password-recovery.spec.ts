import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { authorizationQuery } from './support/authorization-query.ts';
import { outboxMatch } from './support/dev-outbox.ts';
import { demoUrl } from './support/demo-origin.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OLD_PASSWORD = 'Old-Passw0rd!';
const NEW_PASSWORD = 'Fresh-Passw0rd#2';

/** Runs the admin CLI, which reaches the running e2e server through its data dir (exported by playwright.config.ts). */
function sso(...args: string[]): void {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: playwright.config.ts exports it');
  execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/sso.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: 'pipe',
  });
}

/** Adds a user with the admin CLI; `extra` takes flags such as --temporary. */
function addUser(email: string, password: string, ...extra: string[]): void {
  sso('user', 'add', '--email', email, '--password', password, ...extra);
}

/** A fresh address per test, so tests and reruns never share a user. */
function uniqueEmail(label: string): string {
  return `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** The 6-digit code of the newest mail to `email` that carries one, waiting for it to arrive. */
const latestCode = (request: APIRequestContext, email: string, notIn: readonly string[] = []) => outboxMatch(request, email, /\b(\d{6})\b/, { notIn, timeout: 10_000 });

/** From the demo client to its login screen, as a user starts a sign-in. */
async function startSignIn(page: Page): Promise<string> {
  await page.goto('/demo/');
  await page.getByRole('link', { name: /Account Area/ }).click();
  await expect(page).toHaveURL(/\/auth\/login\?.*interaction=/);
  await expect(page).toHaveTitle('Log In');
  return page.url();
}

/** Login screen -> "Forgot password?" -> "Send code" -> "Enter the code": the code screen is on show. */
async function requestCode(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveTitle('Forgot Password');
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page).toHaveTitle('Forgot Password | Sent');
  await expect(page.getByText(/^If \S+@example\.com belongs to an account, a 6-digit code is on its way/)).toBeVisible();
  await page.getByRole('link', { name: 'Enter the code' }).click();
  await expect(page).toHaveURL(/\/auth\/change-password\/[^/?]+\?/);
  await expect(page).toHaveTitle('Forgot Password');
}

/** Enters a code and the new password on the code screen and submits. */
async function submitCode(page: Page, code: string, password = NEW_PASSWORD): Promise<void> {
  await page.getByLabel('Verification code').fill(code);
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Reset password' }).click();
}

/** Signs in on the login screen on show. */
async function logIn(page: Page, email: string, password: string): Promise<void> {
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

test('a user who forgot the password resets it by email code and signs in to the demo client', async ({ page }) => {
  const email = uniqueEmail('reset');
  addUser(email, OLD_PASSWORD);
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (execute|load|apply)/i.test(message.text())) violations.push(message.text());
  });

  const loginUrl = new URL(await startSignIn(page));
  await requestCode(page, email);
  // The path names only the masked destination.
  expect(decodeURIComponent(new URL(page.url()).pathname)).not.toContain(email);

  const code = await latestCode(page.request, email);
  await page.getByLabel('Verification code').fill(code.replace(/^(\d{3})/, '$1 '));
  await expect(page.getByLabel('Verification code')).toHaveValue(code);
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await expect(page.getByText('Your password is strong')).toBeVisible();
  await page.getByRole('button', { name: 'Reset password' }).click();

  await expect(page).toHaveTitle('Reset Password | Success');
  await expect(page).toHaveURL(/\/auth\/reset-password\/success\?/);
  await page.getByRole('link', { name: 'Back to log in' }).click();

  // The same sign-in: the login screen with the query the demo client started.
  await expect(page).toHaveTitle('Log In');
  const back = new URL(page.url());
  expect(back.pathname).toBe('/auth/login');
  for (const name of ['interaction', 'client_id', 'state']) {
    expect(back.searchParams.get(name), name).toBe(loginUrl.searchParams.get(name));
  }
  await logIn(page, email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/demo\/$/);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  expect(violations).toEqual([]);
});

test("a client's link to forgot-password keeps the client: after the reset the person signs in to that client", async ({ page, baseURL }) => {
  const email = uniqueEmail('client-link');
  addUser(email, OLD_PASSWORD);
  // The link as a client app writes it: a complete authorize request, PKCE (S256) and state included.
  const client = authorizationQuery('sso-account', demoUrl(baseURL ?? '', '/demo/user-management/auth/callback'));
  const state = client.get('state');
  await page.goto(`/auth/forgot-password?${client}`);
  await expect(page).toHaveTitle('Forgot Password');
  await expect(page.getByText('Signing in to Account Area')).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByRole('link', { name: 'Enter the code' }).click();
  await submitCode(page, await latestCode(page.request, email));
  await expect(page).toHaveTitle('Reset Password | Success');
  await page.getByRole('link', { name: 'Back to log in' }).click();

  // The client's sign-in: its login screen, and after the password the browser goes to the client's redirect URI.
  await expect(page).toHaveTitle('Log In');
  await expect(page).toHaveURL(/\/auth\/login\?.*interaction=/);
  const callback = page.waitForRequest((request) => request.url().includes('/demo/user-management/auth/callback'));
  await logIn(page, email, NEW_PASSWORD);
  const answered = new URL((await callback).url());
  expect(answered.searchParams.get('state')).toBe(state);
  expect(answered.searchParams.get('code')).toBeTruthy();
});

test("a wrong code shows the server's message, and after the reset the old password no longer works", async ({ page }) => {
  const email = uniqueEmail('wrong-code');
  addUser(email, OLD_PASSWORD);
  await startSignIn(page);
  await requestCode(page, email);
  const code = await latestCode(page.request, email);
  const wrong = code.replace(/^./, (digit) => String((Number(digit) + 1) % 10));

  await submitCode(page, wrong);
  await expect(page.getByRole('alert')).toHaveText('That code is wrong or has expired. Check it, or ask for a new one.');
  await expect(page).toHaveTitle('Forgot Password');

  await submitCode(page, code);
  await expect(page).toHaveTitle('Reset Password | Success');
  await page.getByRole('link', { name: 'Back to log in' }).click();
  await expect(page).toHaveTitle('Log In');

  await logIn(page, email, OLD_PASSWORD);
  await expect(page.getByRole('alert')).toContainText('Incorrect email or password.');
  await expect(page).toHaveTitle('Log In');

  await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
});

test('a weak new password is refused on the page, naming the first unmet rule', async ({ page }) => {
  const email = uniqueEmail('weak');
  addUser(email, OLD_PASSWORD);
  await startSignIn(page);
  await requestCode(page, email);
  await submitCode(page, '123456', 'alllowercase1!');
  await expect(page.getByText('at least one UPPERCASE letter', { exact: true }).and(page.locator('.field-errors li'))).toBeVisible();
  await expect(page).toHaveTitle('Forgot Password');
});

test('recover-password shows the forgot-password screen', async ({ page }) => {
  await page.goto('/auth/recover-password?username=someone%40example.com');
  await expect(page).toHaveTitle('Forgot Password');
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue('someone@example.com');
});

test('a user signing in with a temporary password chooses a new one and goes on to the demo client', async ({ page }) => {
  const email = uniqueEmail('temporary');
  addUser(email, OLD_PASSWORD, '--temporary');
  await startSignIn(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(OLD_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();

  await expect(page).toHaveTitle('New Password');
  await expect(page.getByRole('heading', { name: 'Create New Password' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await expect(page.getByText('Your password is strong')).toBeVisible();
  await page.getByRole('button', { name: 'Save password' }).click();
  await expect(page).toHaveURL(/\/demo\/$/);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
});

test('a user whose reset an operator forced recovers the password and signs in on the same login screen', async ({ page }) => {
  const email = uniqueEmail('forced');
  addUser(email, OLD_PASSWORD);
  sso('user', 'require-reset', email);
  const loginUrl = new URL(await startSignIn(page));
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(OLD_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();

  await expect(page).toHaveTitle('Forgot Password');
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByRole('link', { name: 'Enter the code' }).click();
  await submitCode(page, await latestCode(page.request, email));
  await expect(page).toHaveTitle('Reset Password | Success');
  await page.getByRole('link', { name: 'Back to log in' }).click();

  await expect(page).toHaveTitle('Log In');
  expect(new URL(page.url()).searchParams.get('interaction')).toBe(loginUrl.searchParams.get('interaction'));
  await logIn(page, email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/demo\/$/);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
});
