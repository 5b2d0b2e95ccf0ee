/**
 * One press of Back, one screen back (issue 27.9): from the method choice to the login screen, from the texted code
 * to the phone number (and "Wrong number? Change it" there), and out of a finished sign-in in one press, with the
 * browser's Back and the page's own "← Back" alike.
 */
import { expect, test, type Page } from '@playwright/test';
import { outboxCode } from './support/dev-outbox.ts';
import { MFA_USER_PASSWORD, newMfaServerUser } from './support/mfa-server-users.ts';
import { saveNewRecoveryCodes } from './support/recovery-codes.ts';

/** The e2e server that keeps the product's default: MFA required (playwright.config.ts). */
test.use({ baseURL: `http://localhost:${process.env.E2E_MFA_PORT}` });
// Each walks a whole sign-in with a second factor, some twice.
test.describe.configure({ timeout: 150_000 });

/** The two ways of going back: the browser's button and the page's own. */
const BACKS = {
  browser: (page: Page) => page.goBack(),
  'in-page': (page: Page) => page.getByRole('button', { name: /Back/ }).click(),
} as const;

async function openLogin(page: Page): Promise<void> {
  await page.goto('/demo/');
  await page.getByRole('link', { name: /Account Area/ }).click();
  await expect(page).toHaveTitle('Log In');
}

async function submitPassword(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(MFA_USER_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
}

async function choose(page: Page, method: RegExp): Promise<void> {
  await page.getByRole('radio', { name: method }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
}

for (const [way, back] of Object.entries(BACKS)) {
  test(`${way} Back from the method choice shows the login screen, which takes the password again`, async ({ page }) => {
    const email = newMfaServerUser('back-login');
    await openLogin(page);
    await submitPassword(page, email);
    await expect(page).toHaveTitle('Authenticate | Add Alternative Authentication Method');
    await back(page);
    await expect(page).toHaveTitle('Log In');
    await expect(page).toHaveURL(/\/auth\/login\?/);
    // It stays there: no bounce back to the method choice.
    await page.waitForTimeout(1000);
    await expect(page).toHaveTitle('Log In');
    await submitPassword(page, email);
    await expect(page).toHaveTitle('Authenticate | Add Alternative Authentication Method');
    await choose(page, /^Email, to /);
    await page.getByLabel('Code', { exact: true }).fill(await outboxCode(page.request, email));
    await page.getByRole('button', { name: 'Verify' }).click();
    await saveNewRecoveryCodes(page);
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  });

  test(`${way} Back from the texted code shows the phone number typed, and a corrected number gets the code`, async ({ page }) => {
    const email = newMfaServerUser('back-phone');
    await openLogin(page);
    await submitPassword(page, email);
    await choose(page, /Text message \(SMS\)/);
    await page.getByLabel('Mobile number').fill('+44 7700 900111');
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(page).toHaveTitle('Authenticate | Set Up SMS MFA');
    await back(page);
    await expect(page).toHaveTitle('Authenticate | Set Up Phone Number');
    await page.waitForTimeout(1000);
    await expect(page).toHaveTitle('Authenticate | Set Up Phone Number');
    await expect(page.getByLabel('Mobile number')).toHaveValue('+44 7700 900111');
    await page.getByLabel('Mobile number').fill('+44 7700 900222');
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(page.getByText(/^We sent a 6-digit code to \+44 7700 900222 at /)).toBeVisible();
    await page.getByLabel('Code', { exact: true }).fill(await outboxCode(page.request, '+447700900222'));
    await page.getByRole('button', { name: 'Verify' }).click();
    await saveNewRecoveryCodes(page);
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  });
}

test('"Wrong number? Change it" on the texted code goes to the number, and the code goes to the new one', async ({ page }) => {
  const email = newMfaServerUser('change-phone');
  await openLogin(page);
  await submitPassword(page, email);
  await choose(page, /Text message \(SMS\)/);
  await page.getByLabel('Mobile number').fill('+44 7700 900333');
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page).toHaveTitle('Authenticate | Set Up SMS MFA');
  await page.getByRole('link', { name: 'Wrong number? Change it' }).click();
  await expect(page).toHaveTitle('Authenticate | Set Up Phone Number');
  await expect(page.getByLabel('Mobile number')).toHaveValue('+44 7700 900333');
  await page.getByLabel('Mobile number').fill('+44 7700 900444');
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText(/^We sent a 6-digit code to \+44 7700 900444 at /)).toBeVisible();
  await page.getByLabel('Code', { exact: true }).fill(await outboxCode(page.request, '+447700900444'));
  await page.getByRole('button', { name: 'Verify' }).click();
  await saveNewRecoveryCodes(page);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
});

test('one Back from the app after a four-screen sign-in shows "You\'re signed in", and the next leaves it', async ({ page }) => {
  const email = newMfaServerUser('back-finished');
  await openLogin(page);
  await submitPassword(page, email);
  await choose(page, /^Email, to /);
  await page.getByLabel('Code', { exact: true }).fill(await outboxCode(page.request, email));
  await page.getByRole('button', { name: 'Verify' }).click();
  await saveNewRecoveryCodes(page);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('heading', { name: /^You're signed in to / })).toBeVisible();
  await page.waitForTimeout(1000);
  await expect(page.getByRole('heading', { name: /^You're signed in to / })).toBeVisible();
  await page.goBack();
  // The app's page before the sign-in began.
  await expect(page).toHaveURL(/\/demo\/$/);
  await expect(page.getByRole('heading', { name: /^You're signed in to / })).toHaveCount(0);
  // Forward passes the ended sign-in's screens in one press too, back to the app.
  await page.goForward();
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  await expect(page).toHaveURL(/\/demo\/$/);
});
