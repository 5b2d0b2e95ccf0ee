import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { outboxCode } from './support/dev-outbox.ts';
import { signUpToFactorSetup } from './support/sign-up.ts';
import { appCode, shownSecret } from './support/authenticator-app.ts';
import { saveNewRecoveryCodes } from './support/recovery-codes.ts';

/** The e2e server that keeps the product's default: MFA required (playwright.config.ts). */
test.use({ baseURL: `http://localhost:${process.env.E2E_MFA_PORT}` });

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'Quartz-Lantern-42!';
const PHONE = '+447700900123';

/** Runs the admin CLI against the MFA server's data dir. */
function sso(...args: string[]): void {
  const dataDir = process.env.E2E_MFA_DATA_DIR;
  if (!dataDir) throw new Error('E2E_MFA_DATA_DIR is not set: playwright.config.ts exports it');
  execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/sso.ts', ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, stdio: 'pipe' });
}

/** A new account with no second factor yet. */
function newUser(label: string): string {
  const email = `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  sso('user', 'add', '--email', email, '--password', PASSWORD);
  return email;
}

/** Starts at the demo client and signs in with the password, up to the second factor. */
async function logIn(page: Page, email: string): Promise<void> {
  await page.goto('/demo/');
  await page.getByRole('link', { name: /Account Area/ }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
}

/** Picks a method on the method screen and goes on. */
async function choose(page: Page, method: RegExp, button: string): Promise<void> {
  await page.getByRole('radio', { name: method }).check();
  await page.getByRole('button', { name: button }).click();
}

async function expectSignedIn(page: Page, email: string): Promise<void> {
  await expect(page).toHaveURL(/\/demo\/$/);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
}

test('a new user sets up an authenticator app from the QR screen, then signs in with it and can cancel to the choice', async ({ browser }) => {
  const email = newUser('totp');
  const setup = await browser.newPage();
  await logIn(setup, email);
  await expect(setup).toHaveTitle('Authenticate | Add Alternative Authentication Method');
  await expect(setup).toHaveURL(/\/auth\/mfa\/select-mfa/);
  await choose(setup, /Authenticator app/, 'Continue');
  await expect(setup).toHaveTitle('Authenticate | Set Up Authenticator App MFA');
  await expect(setup).toHaveURL(/\/auth\/mfa\/setup-totp\/[0-9a-f-]{36}\?/);
  await expect(setup.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const shown = (await setup.getByTestId('totp-secret').textContent()) ?? '';
  expect(shown).toMatch(/^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/);
  const secret = shown.replace(/\s/g, '');
  expect(setup.url()).not.toContain(secret);
  const link = await setup.getByRole('link', { name: 'Open in an authenticator app on this device' }).getAttribute('href');
  expect(link).toContain(`issuer=${encodeURIComponent('Payments Network – Account Area')}`);
  expect(link).toContain(`secret=${secret}`);
  await setup.getByRole('textbox', { name: 'Code' }).fill(appCode(secret));
  await setup.getByRole('button', { name: 'Verify and finish' }).click();
  await saveNewRecoveryCodes(setup);
  await expectSignedIn(setup, email);

  const later = await browser.newPage();
  await logIn(later, email);
  await expect(later).toHaveTitle('Authenticate | Verify Using Authenticator App MFA');
  await expect(later).toHaveURL(/\/auth\/mfa\/totp\?/);
  await later.getByRole('link', { name: 'Cancel and choose another method' }).click();
  await expect(later).toHaveTitle('Authenticate');
  await choose(later, /Authenticator app/, 'Continue');
  await expect(later).toHaveTitle('Authenticate | Verify Using Authenticator App MFA');
  await later.getByRole('button', { name: 'Verify' }).click();
  await expect(later.getByText('Please enter 6-digit TOTP code')).toBeVisible();
  // The setup used this time step's code; a replay is refused, so the app's next code signs in.
  await later.getByLabel('Code', { exact: true }).fill(appCode(secret, 1));
  await later.getByRole('button', { name: 'Verify' }).click();
  await expectSignedIn(later, email);
});

test('a new user sets up email codes, pasting the code with a space, and signs in with the next one', async ({ browser }) => {
  const email = newUser('mail');
  const setup = await browser.newPage();
  await logIn(setup, email);
  await choose(setup, /^Email, to m•••@example\.com$/, 'Continue');
  await expect(setup).toHaveTitle('Authenticate | Verify Using Email');
  await expect(setup).toHaveURL(/\/auth\/mfa\/verify-email\/setup\?/);
  await expect(setup.getByText(/^We sent a 6-digit code to m•••@example\.com at \d{2}:\d{2}\./)).toBeVisible();
  await expect(setup.getByRole('button', { name: /Send a new code \(in \d+ s\)/ })).toBeDisabled();
  const code = await outboxCode(setup.request, email);
  const input = setup.getByLabel('Code', { exact: true });
  await expect(input).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(input).toHaveAttribute('inputmode', 'numeric');
  await input.fill(`${code.slice(0, 3)} ${code.slice(3)}`);
  await expect(input).toHaveValue(code);
  await setup.getByRole('button', { name: 'Verify' }).click();
  await saveNewRecoveryCodes(setup);
  await expectSignedIn(setup, email);

  const later = await browser.newPage();
  await logIn(later, email);
  await expect(later).toHaveTitle('Authenticate | Verify Using Email');
  await expect(later).toHaveURL(/\/auth\/mfa\/verify-email\?/);
  await later.getByLabel('Code', { exact: true }).fill(await outboxCode(later.request, email, [code]));
  await later.getByRole('button', { name: 'Verify' }).click();
  await expectSignedIn(later, email);
});

test('a new user verifies a phone by SMS, signs in by text, and resends after the countdown', async ({ browser }) => {
  test.setTimeout(150_000);
  const email = newUser('sms');
  const setup = await browser.newPage();
  await logIn(setup, email);
  await choose(setup, /Text message \(SMS\)/, 'Continue');
  await expect(setup).toHaveTitle('Authenticate | Set Up Phone Number');
  await setup.getByRole('button', { name: 'Send code' }).click();
  await expect(setup.getByText("Please enter your mobile number with its country code, e.g. '+44 7700 900123'")).toBeVisible();
  await setup.getByLabel('Mobile number').fill('+44 7700 900123');
  await setup.getByRole('button', { name: 'Send code' }).click();
  await expect(setup).toHaveTitle('Authenticate | Set Up SMS MFA');
  // The number just typed, in full on the screen, and no number in the address.
  await expect(setup).toHaveURL(/\/auth\/mfa\/otp\/sms\?/);
  await expect(setup.getByText(/^We sent a 6-digit code to \+44 7700 900123 at \d{2}:\d{2}\./)).toBeVisible();
  const setupCode = await outboxCode(setup.request, PHONE);
  await setup.getByLabel('Code', { exact: true }).fill(setupCode);
  await setup.getByRole('button', { name: 'Verify' }).click();
  await saveNewRecoveryCodes(setup);
  await expectSignedIn(setup, email);

  const later = await browser.newPage();
  await logIn(later, email);
  await expect(later).toHaveTitle('Authenticate | Verify Using SMS MFA');
  await expect(later.getByText(/^We sent a 6-digit code to •••0123 at \d{2}:\d{2}\./)).toBeVisible();
  const first = await outboxCode(later.request, PHONE, [setupCode]);
  await expect(later.getByRole('button', { name: 'Send a new code' })).toBeEnabled({ timeout: 75_000 });
  await later.getByRole('button', { name: 'Send a new code' }).click();
  await expect(later.getByRole('button', { name: /Send a new code \(in \d+ s\)/ })).toBeDisabled();
  const resent = await outboxCode(later.request, PHONE, [setupCode, first]);
  await later.getByLabel('Code', { exact: true }).fill(resent);
  await later.getByRole('button', { name: 'Verify' }).click();
  await expectSignedIn(later, email);
});

test('a user leaves the code screen for the method choice and comes back to a fresh code', async ({ browser }) => {
  const email = newUser('both');
  const page = await browser.newPage();
  await logIn(page, email);
  await choose(page, /^Email, to b•••@example\.com$/, 'Continue');
  const code = await outboxCode(page.request, email);
  await page.getByLabel('Code', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await saveNewRecoveryCodes(page);
  await expectSignedIn(page, email);

  const next = await browser.newPage();
  await logIn(next, email);
  await expect(next).toHaveTitle('Authenticate | Verify Using Email');
  await next.getByRole('link', { name: 'Use another method' }).click();
  await expect(next).toHaveTitle('Authenticate');
  await expect(next.getByRole('radio')).toHaveCount(1);
  await choose(next, /^Email to b•••@example\.com$/, 'Continue');
  await expect(next).toHaveTitle('Authenticate | Verify Using Email');
  await next.getByLabel('Code', { exact: true }).fill(await outboxCode(next.request, email, [code]));
  await next.getByRole('button', { name: 'Verify' }).click();
  await expectSignedIn(next, email);
});

test('a new user who registers sets up an authenticator app before the success screen', async ({ page }) => {
  const email = `signup-${Date.now()}@example.com`;
  await signUpToFactorSetup(page, email, PASSWORD);
  await choose(page, /Authenticator app/, 'Continue');
  await expect(page).toHaveTitle('Authenticate | Set Up Authenticator App MFA');
  const secret = await shownSecret(page);
  await page.getByRole('textbox', { name: 'Code' }).fill(appCode(secret));
  await page.getByRole('button', { name: 'Verify and finish' }).click();
  await expect(page).toHaveTitle('Register | Success');
  await page.getByRole('link', { name: 'Continue to the app' }).click();
  await expectSignedIn(page, email);
});
