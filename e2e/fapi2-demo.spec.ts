/**
 * The demo's app for money, on the demo's own origin, follows the fapi2 profile: it pushes its request (PAR),
 * authenticates with private_key_jwt and holds DPoP-bound tokens; after the sign-in the demo page shows the token is
 * DPoP-bound and the userinfo it read with a proof, and a refresh keeps it bound.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { demoUrl } from './support/demo-origin.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'Ledger-Harbour-64!';

function sso(...args: string[]): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: playwright.config.ts exports it');
  return execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/sso.ts', ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, stdio: 'pipe' }).toString();
}

test('signing in through the fapi2 demo app (PAR, private_key_jwt, DPoP) shows a DPoP-bound token and the userinfo', async ({ page, baseURL }) => {
  const demo = new URL(demoUrl(baseURL ?? ''));
  const email = `fapi2-demo-${Date.now()}@example.com`;
  sso('user', 'add', '--email', email, '--password', PASSWORD);
  expect(sso('client', 'show', 'sso-payments')).toContain('profile: fapi2');

  await page.goto(demo.href);
  const pushed = page.waitForRequest((request) => request.url().startsWith(new URL('/oidc/auth?', baseURL).href));
  await page.getByRole('link', { name: 'Sign in to Payments (FAPI 2.0)' }).click();
  // Only the pushed request's handle travels through the browser.
  const authorization = new URL((await pushed).url());
  expect([...authorization.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);

  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();

  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  expect(new URL(page.url()).origin).toBe(demo.origin);
  await expect(page.getByText('through sso-payments')).toBeVisible();
  await expect(page.getByTestId('token-type')).toHaveText(/^dpop$/i);
  const userinfo = page.getByTestId('userinfo');
  await expect(userinfo.getByRole('row', { name: new RegExp(`email ${email.replace(/[.]/g, '\\.')}`) })).toBeVisible();

  const before = await page.getByTestId('access-token').textContent();
  await page.getByRole('button', { name: 'Refresh my session' }).click();
  await expect(page.getByText('refreshed 1 time')).toBeVisible();
  await expect(page.getByTestId('access-token')).not.toHaveText(before ?? '');
  await expect(page.getByTestId('token-type')).toHaveText(/^dpop$/i);
});
