import { expect, test } from '@playwright/test';
import { firstSignIn, newUser, signInElsewhere, stepUpWithApp } from './support/account-page.ts';
import { outboxCode, outboxMatch } from './support/dev-outbox.ts';

/** The e2e server that keeps the product's default: MFA required (playwright.config.ts). */
test.use({ baseURL: `http://localhost:${process.env.E2E_MFA_PORT}` });

const UNDO_LINK = /undo this change: (http\S+)/;

test('an email change asks for a fresh factor, shows while it waits and can be cancelled; the old address undoes it from the mail', async ({ page, request }) => {
  test.setTimeout(120_000);
  const email = newUser('moving');
  const secret = await firstSignIn(page, email);
  const profile = page.getByRole('region', { name: 'Profile' });
  const moved = email.replace('moving-', 'moved-');

  await profile.getByLabel('New email address').fill(moved);
  await profile.getByRole('button', { name: 'Send code to the new address' }).click();
  await stepUpWithApp(page, secret, 1);
  await expect(profile.getByText(`We sent a code to ${moved}.`, { exact: false })).toBeVisible();
  const cancelledCode = await outboxCode(request, moved);

  // The change waits on the server: a reload still shows it, and it can be cancelled there.
  await page.reload();
  await expect(profile.getByText(`We sent a code to ${moved}.`, { exact: false })).toBeVisible();
  await profile.getByRole('button', { name: 'Cancel this change' }).click();
  await expect(profile.getByText('The email change was cancelled. Your address stays as it is.')).toBeVisible();
  await expect(profile.getByLabel('New email address')).toBeVisible();

  await profile.getByLabel('New email address').fill(moved);
  await profile.getByRole('button', { name: 'Send code to the new address' }).click();
  // The second change's own code: the cancelled one's mail is still in the mailbox, and may be the newest for a moment.
  await profile.getByLabel('Verification code').fill(await outboxCode(request, moved, [cancelledCode]));
  await profile.getByRole('button', { name: 'Confirm new address' }).click();
  await expect(profile.getByText('Your email address was changed. We told your old address, which can undo the change for 14 days.')).toBeVisible();
  await expect(profile.getByText(`Email: ${moved}`)).toBeVisible();

  // The old mailbox undoes it: the address comes back, every session ends, and the reset code goes to the old address.
  const undo = await outboxMatch(request, email, UNDO_LINK);
  const owner = await (await page.context().browser()!.newContext()).newPage();
  await owner.goto(undo);
  await owner.getByRole('button', { name: 'Sign out everywhere and secure my account' }).click();
  await expect(owner.getByRole('heading', { name: 'Your account is secured' })).toBeVisible();
  await page.reload();
  await expect(page).toHaveURL(/\/auth\/login\?client_id=sso-account-page/);
  await owner.getByRole('link', { name: 'Choose a new password' }).click();
  await owner.getByLabel('Email').fill(email);
  await owner.getByRole('button', { name: 'Send code' }).click();
  expect(await outboxCode(request, email)).toMatch(/^\d{6}$/);
});

test('the account page speaks like the sign-in: field errors in the spec\'s words, the live checklist, Show password, and no stale message', async ({ page }) => {
  const email = newUser('words');
  await firstSignIn(page, email);
  const password = page.getByRole('region', { name: 'Password' });
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');
  await expect(password.getByText('Please enter your password')).toBeVisible();
  await expect(password.getByText('Please enter your new password')).toBeVisible();

  await password.getByLabel('New password').fill('short');
  await expect(password.getByText('Your password must contain:')).toBeVisible();
  await expect(password.locator('.password-rule-met')).not.toHaveCount(5);
  await password.getByRole('button', { name: 'Show password' }).nth(1).click();
  await expect(password.getByLabel('New password')).toHaveAttribute('type', 'text');
  await password.getByLabel('Current password').fill('Anything-1!');
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByLabel('New password')).toHaveAttribute('aria-invalid', 'true');
  await expect(password.getByText('The request is not valid.')).toHaveCount(0);

  const profile = page.getByRole('region', { name: 'Profile' });
  await profile.getByLabel('First name').fill(' ');
  await profile.getByLabel('Last name').fill('Lovelace');
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(profile.getByText('Please enter your name')).toBeVisible();
  await expect(profile.getByLabel('First name')).toHaveAttribute('aria-invalid', 'true');
  await expect(profile.getByLabel('Last name')).not.toHaveAttribute('aria-invalid', 'true');
  await profile.getByLabel('First name').fill('Ada');
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(profile.getByText('Your name was saved.')).toBeVisible();
  await expect(profile.getByText('Please enter your name')).toHaveCount(0);
});

test('a sign-in just made counts as the step-up; signing out the other sessions drops them at once and says trusted browsers were revoked', async ({ browser }) => {
  test.setTimeout(120_000);
  const email = newUser('sessions');
  const first = await browser.newPage();
  const secret = await firstSignIn(first, email);

  const second = await signInElsewhere(browser, email, secret, 1);
  const sessions = second.getByRole('region', { name: 'Sessions' });
  await expect(sessions.getByRole('listitem')).toHaveCount(2);

  // The app's code was proven seconds ago at sign-in: no second ask for it.
  await sessions.getByRole('button', { name: 'Sign out all other sessions' }).click();
  await expect(sessions.getByText('Sessions signed out: 1. Trusted browsers revoked: 0; they will ask for a code again.')).toBeVisible();
  await expect(second.getByRole('heading', { name: 'Confirm it is you' })).toHaveCount(0);
  await expect(sessions.getByRole('listitem')).toHaveCount(1);
});

test('the account page words its errors and notices again when the language switches, as the sign-in screens do', async ({ browser }) => {
  test.setTimeout(120_000);
  const email = newUser('deutsch');
  const secret = await firstSignIn(await browser.newPage(), email);
  const page = await signInElsewhere(browser, email, secret, 1);

  const password = page.getByRole('region', { name: 'Password' });
  await password.getByRole('button', { name: 'Change password' }).click();
  await expect(password.getByText('Please enter your new password')).toBeVisible();
  const profile = page.getByRole('region', { name: 'Profile' });
  await profile.getByRole('button', { name: 'Send code to the new address' }).click();
  await expect(profile.getByText(/^Please enter your email address/)).toBeVisible();
  // The sign-in just made counts as the step-up.
  const sessions = page.getByRole('region', { name: 'Sessions' });
  await sessions.getByRole('button', { name: 'Sign out all other sessions' }).click();
  await expect(sessions.getByText(/^Sessions signed out: 1\./)).toBeVisible();

  await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
  await expect(page.getByText('Bitte geben Sie Ihr Passwort ein')).toBeVisible();
  await expect(page.getByText('Bitte geben Sie Ihr neues Passwort ein')).toBeVisible();
  await expect(page.getByText(/^Bitte geben Sie Ihre E-Mail-Adresse ein/)).toBeVisible();
  await expect(page.getByText(/^Abgemeldete Sitzungen: 1\./)).toBeVisible();
  await expect(page.getByText(/^Please enter|^Sessions signed out/)).toHaveCount(0);
});
