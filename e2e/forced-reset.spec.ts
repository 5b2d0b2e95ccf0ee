/**
 * A password reset the person did not ask for (an operator's `sso user require-reset`, or their own "This wasn't me"):
 * the reset screen says why, instead of asking "Forgot your password?".
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'Old-Passw0rd!';

function sso(...args: string[]): void {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: playwright.config.ts exports it');
  execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/sso.ts', ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, stdio: 'pipe' });
}

test('a forced reset says why the password must change, in English and German', async ({ page }) => {
  const email = `forced-why-${Date.now()}@example.com`;
  sso('user', 'add', '--email', email, '--password', PASSWORD);
  sso('user', 'require-reset', email);
  await page.goto('/demo/');
  await page.getByRole('link', { name: /Account Area/ }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();

  await expect(page).toHaveTitle('Forgot Password');
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await expect(page.getByText('To keep your account safe, your password must be changed before you can sign in', { exact: false })).toBeVisible();
  await expect(page.getByText('Forgot your password?')).toHaveCount(0);
  await expect(page.getByLabel('Email')).toHaveValue(email);

  await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
  await expect(page.getByRole('heading', { name: 'Wählen Sie ein neues Passwort' })).toBeVisible();
});
