/**
 * Issue 27, item 14: someone who sets up their first second factor while signing in (an existing account on a server
 * that requires one) is offered recovery codes right then, as the help page says, not only on the account page.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { appCode, shownSecret } from './support/authenticator-app.ts';
import { MFA_USER_PASSWORD, newMfaServerUser } from './support/mfa-server-users.ts';
import { SAVE_RECOVERY_CODES_TITLE, saveNewRecoveryCodes } from './support/recovery-codes.ts';

test.use({ baseURL: `http://localhost:${process.env.E2E_MFA_PORT}` });

/** Starts at the demo client and signs in with the password, up to the second factor. */
async function logIn(page: Page, email: string): Promise<void> {
  await page.goto('/demo/');
  await page.getByRole('link', { name: /Account Area/ }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(MFA_USER_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
}

/** Chooses the authenticator app, enters its first code, and waits for the new recovery codes. */
async function setUpAuthenticatorApp(page: Page): Promise<void> {
  await page.getByRole('radio', { name: /Authenticator app/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('textbox', { name: 'Code' }).fill(appCode(await shownSecret(page)));
  await page.getByRole('button', { name: 'Verify and finish' }).click();
  await expect(page.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem')).toHaveCount(10);
}

test('an existing user who sets up an authenticator app at sign-in is shown recovery codes once, lands in the app, and can sign in with one', async ({ page, browser }) => {
  const email = newMfaServerUser('first-codes');
  await logIn(page, email);
  await expect(page).toHaveTitle('Authenticate | Add Alternative Authentication Method');
  await page.getByRole('radio', { name: /Authenticator app/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveTitle('Authenticate | Set Up Authenticator App MFA');
  await page.getByRole('textbox', { name: 'Code' }).fill(appCode(await shownSecret(page)));
  await page.getByRole('button', { name: 'Verify and finish' }).click();

  await expect(page).toHaveTitle(SAVE_RECOVERY_CODES_TITLE);
  await expect(page).toHaveURL(/\/auth\/mfa\/recovery-codes\?/);
  await expect(page.getByRole('heading', { name: 'Save your recovery codes' })).toBeVisible();
  await expect(page.getByText('Your new sign-in method is set up.', { exact: true })).toBeVisible();
  const items = page.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem');
  await expect(items).toHaveCount(10);
  await expect(items.first()).toHaveText(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
  await expect(page.getByRole('button', { name: 'Copy codes' })).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  const codes = await saveNewRecoveryCodes(page);
  await expect(page).toHaveURL(/\/demo\/$/);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();

  const later = await (await browser.newContext()).newPage();
  await logIn(later, email);
  await expect(later).toHaveTitle('Authenticate | Verify Using Authenticator App MFA');
  await later.getByRole('link', { name: 'Use a recovery code' }).click();
  await later.getByLabel('Recovery code', { exact: true }).fill(codes[3]!.toLowerCase());
  await later.getByRole('button', { name: 'Verify' }).click();
  await expect(later.getByRole('heading', { name: 'You signed in with a recovery code' })).toBeVisible();
  await expect(later.getByText(/you have 9 recovery codes left/)).toBeVisible();
});

test('the recovery codes are not shown again on a reload: the screen says they were shown once and still goes on', async ({ page }) => {
  const email = newMfaServerUser('codes-reload');
  await logIn(page, email);
  await setUpAuthenticatorApp(page);
  await page.reload();
  await expect(page).toHaveTitle(SAVE_RECOVERY_CODES_TITLE);
  await expect(page.getByText(/Your recovery codes were shown once/)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Your recovery codes' })).toHaveCount(0);
  await page.getByRole('button', { name: "I've saved my codes, continue" }).click();
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
});

test('the recovery codes screen offers no Back, and the browser Back from it shows where the sign-in stands, never an error', async ({ page }) => {
  const email = newMfaServerUser('codes-back');
  await logIn(page, email);
  await setUpAuthenticatorApp(page);
  await expect(page.getByRole('button', { name: /Back/ })).toHaveCount(0);
  await page.goBack();
  await expect(page).toHaveTitle(SAVE_RECOVERY_CODES_TITLE);
  await expect(page.getByText(/Your recovery codes were shown once/)).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Back/ })).toHaveCount(0);
  await page.getByRole('button', { name: "I've saved my codes, continue" }).click();
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
});
