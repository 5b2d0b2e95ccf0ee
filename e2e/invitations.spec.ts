import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { outboxMatch } from './support/dev-outbox.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'Invited-Passw0rd!';

/** Runs the admin CLI against the e2e server (its data dir is exported by playwright.config.ts). */
function sso(...args: string[]): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: playwright.config.ts exports it');
  return execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/sso.ts', ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, stdio: 'pipe' }).toString();
}

/** The invitation link a mail carries. */
const INVITATION_LINK = /(https?:\/\/\S+invitation=[A-Za-z0-9_-]+)/;

const unique = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/** Analytics events the page pushed (the data layer exists from the first script on). */
async function trackedEvents(page: Page): Promise<string[]> {
  return page.evaluate(() => ((window as { dataLayer?: Array<{ event: string }> }).dataLayer ?? []).map((entry) => entry.event));
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    (window as { dataLayer?: unknown[] }).dataLayer = [];
  });
});

/** Fills the invitation's password step: the names the account lacks, the password and the terms. */
async function acceptInvitation(page: Page): Promise<void> {
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');
  await page.getByLabel('New password').fill(PASSWORD);
  await page.getByLabel('I accept the Terms and Conditions').check();
  await page.getByRole('button', { name: 'Accept invitation' }).click();
}

test('an invited user gives the names, accepts the terms, sets a password and lands in the demo client with the names and the company claim', async ({ page, request }) => {
  const company = unique('Invited Co');
  const email = `${unique('invitee')}@example.com`;
  sso('company', 'add', company);
  expect(sso('invite', '--email', email, '--company', company)).toContain(`invitation sent to ${email}`);

  await page.goto(await outboxMatch(request, email, INVITATION_LINK));
  // The mail's link has no app of its own: it goes through the client app and back, two loads of the web app before
  // this step shows. On a loaded 2-core machine that outran the 10 s a single screen gets (the app's script alone took
  // 5.8 s to start), so this first wait gets the time of the whole journey.
  await expect(page).toHaveTitle('Create New Password', { timeout: 30_000 });
  await expect(page).toHaveURL(/\/auth\/new-password\/invitation\?/);
  await expect(page.getByText(`You have been invited as ${email}.`)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Read the Terms and Conditions' })).toHaveAttribute('target', '_blank');
  // Without names and the terms the form says what is missing, as registration does.
  await page.getByLabel('New password').fill(PASSWORD);
  await expect(page.getByText('Your password is strong')).toBeVisible();
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(page.getByText('Please accept the Terms and Conditions')).toBeVisible();
  await expect(page).toHaveTitle('Create New Password');

  await acceptInvitation(page);
  await expect(page).toHaveURL(/\/demo\/$/);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  await expect(page.getByRole('row', { name: /company/ })).toContainText(company);
  await expect(page.getByRole('row', { name: /given_name/ })).toContainText('Grace');
  await expect(page.getByRole('row', { name: /family_name/ })).toContainText('Hopper');
  await expect(page.getByRole('row', { name: /^name/ })).toContainText('Grace Hopper');
});

test('a used invitation says it was accepted, tracks it, and offers to log in rather than a new invitation', async ({ page, request }) => {
  const company = unique('Used Co');
  const email = `${unique('used')}@example.com`;
  sso('company', 'add', company);
  sso('invite', '--email', email, '--company', company);
  const link = await outboxMatch(request, email, INVITATION_LINK);
  await page.goto(link);
  await acceptInvitation(page);
  await expect(page).toHaveURL(/\/demo\/$/);

  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'This invitation has already been accepted' })).toBeVisible();
  await expect(page).toHaveTitle('Error');
  expect(await trackedEvents(page)).toContain('invitation_login_used');
  await expect(page.getByRole('button', { name: 'Email me a new invitation' })).toHaveCount(0);
  // "Log in" leaves the dead token behind, so it leads to the login screen, not back here.
  const logIn = page.getByRole('link', { name: 'Log in', exact: true });
  await expect(logIn).toHaveAttribute('href', '/auth/login');
  // In a browser without the session the acceptance left (the invited person on another day).
  await page.context().clearCookies();
  await page.goto('/auth/login');
  await expect(page.getByRole('heading', { name: 'Log in to proceed' })).toBeVisible();
});

test('an expired or unknown invitation link offers to email a new one', async ({ page }) => {
  await page.goto('/auth/login?invitation=no-such-invitation-token');
  await expect(page.getByRole('heading', { name: 'This invitation can no longer be used' })).toBeVisible();
  expect(await trackedEvents(page)).toContain('invitation_login_expired');
  await page.getByRole('button', { name: 'Email me a new invitation' }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
});
