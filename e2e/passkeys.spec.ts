/**
 * Passkeys end to end in Chromium with its virtual authenticator (CDP WebAuthn: CTAP2, internal, resident keys, user
 * verification): set up as the second factor at sign-up, added on the account page after a step-up, used to sign in
 * from the login screen without a password, used as the second factor after a password, and removed after a step-up.
 */
import { expect, test, type Page } from '@playwright/test';
import { signUpToFactorSetup } from './support/sign-up.ts';
import { MFA_USER_PASSWORD, newMfaServerUser } from './support/mfa-server-users.ts';
import { addVirtualAuthenticator, type VirtualAuthenticator } from './support/virtual-authenticator.ts';
import { appCode } from './support/authenticator-app.ts';
import { setUpFirstAuthenticatorApp } from './support/recovery-codes.ts';

/** The e2e server that keeps the product's default: MFA required (playwright.config.ts). */
test.use({ baseURL: `http://localhost:${process.env.E2E_MFA_PORT}` });


async function openLoginScreen(page: Page): Promise<void> {
  await page.goto('/auth/');
  await expect(page).toHaveURL(/\/auth\/login\?client_id=sso-account-page/);
}

const PASSKEY_OPTIONS = (url: URL) => url.pathname.endsWith('/api/sso/v3/auth/passkey/options');
/** The autofill's answer: the passkey the person picked, sent to sign in. */
const PASSKEY_SIGN_IN = (url: string) => new URL(url).pathname.endsWith('/api/sso/v3/auth/passkey/login');

/**
 * Holds back the login screen's passkey autofill, for a test that means to use the button: the login screen's
 * challenge is refused, so the autofill quietly offers nothing and the only passkey request is the button's.
 */
async function withoutAutofill(page: Page): Promise<void> {
  await page.route(PASSKEY_OPTIONS, (route) => (new URL(route.request().frame().url()).pathname === '/auth/login' ? route.abort() : route.continue()));
}

/**
 * The person takes up the device again, away from the login screen: leaving the page ends the autofill request that
 * waited unanswered there, so only requests made from now on are answered (Chromium may yet answer one that waited).
 */
async function takeUpDevice(page: Page, device: VirtualAuthenticator): Promise<void> {
  await page.goto('about:blank');
  await device.answers(true);
}

/**
 * Signing out with the account page's "Sign out": the provider ends the session and the page asks for a sign-in
 * again. The person then leaves the device alone, so the login screen's autofill waits as it does for a real person
 * who does not pick the passkey (the virtual authenticator would otherwise pick it at once).
 */
async function signOut(page: Page, device: VirtualAuthenticator): Promise<void> {
  await device.answers(false);
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(/\/auth\/login\?client_id=sso-account-page/);
}

test('a passkey is added on the account page, signs in without a password, serves as the second factor, and is removed on the strength of that sign-in', async ({ page }) => {
  test.setTimeout(120_000);
  const device = await addVirtualAuthenticator(page);
  const email = newMfaServerUser('passkey');

  // A first sign-in sets up the authenticator app (the product requires a second factor).
  await openLoginScreen(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(MFA_USER_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  const secret = await setUpFirstAuthenticatorApp(page);
  await expect(page).toHaveURL(/\/auth\/account$/);

  // 1. Register a passkey from the account page, after a step-up with the app.
  const methods = page.getByRole('region', { name: 'Sign-in methods' });
  await methods.getByRole('button', { name: 'Add passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
  await page.getByLabel('Code from your authenticator app').fill(appCode(secret, 1));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await methods.getByLabel('Name (optional)').fill('Work laptop');
  await methods.getByRole('button', { name: 'Continue' }).click();
  await expect(methods.getByText('The sign-in method was added.')).toBeVisible();
  const passkeyRow = methods.getByRole('listitem').filter({ hasText: 'Work laptop' });
  await expect(passkeyRow).toContainText('Passkey');
  await expect(methods.getByRole('listitem')).toHaveCount(2);

  // 2. Sign out.
  await signOut(page, device);

  // 3. Sign in with the passkey from the login screen, without typing a password: with the button...
  await withoutAutofill(page);
  await takeUpDevice(page, device);
  await openLoginScreen(page);
  await page.getByRole('link', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/auth\/account$/);
  await expect(page.getByRole('heading', { name: 'Your account', level: 1 })).toBeVisible();

  // ...and with the autofill (conditional mediation): the email field offers the passkey, the person picks it (the
  // virtual authenticator does as the request is made). The goto is over once the address commits, before the
  // page's own scripts can move on.
  await signOut(page, device);
  await page.unroute(PASSKEY_OPTIONS);
  await takeUpDevice(page, device);
  const autofillAnswer = page.waitForResponse((response) => PASSKEY_SIGN_IN(response.url()));
  await page.goto('/auth/', { waitUntil: 'commit' });
  expect((await autofillAnswer).ok()).toBe(true);
  await expect(page.getByRole('heading', { name: 'Your account', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/account$/);

  // 4. Use the passkey as the second factor after a password: the login screen's autofill waits unanswered, and
  // leaving that screen ends its request, so the only request the person answers is the second factor's.
  await signOut(page, device);
  await openLoginScreen(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(MFA_USER_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  // The method choice shows the name the passkey was given, not its kind.
  await page.getByRole('radio', { name: 'Work laptop' }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  // The step offers "Don't ask for a passkey on this device" first, so the prompt waits for the button.
  await expect(page.getByRole('checkbox', { name: "Don't ask for a passkey on this device for 30 days" })).not.toBeChecked();
  await device.answers(true);
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page).toHaveURL(/\/auth\/account$/);

  // 5. Remove the passkey: the sign-in that just proved it counts as the step-up (the step-up with a passkey itself
  // is walked in e2e/a11y.spec.ts).
  await methods.getByRole('button', { name: 'Remove Work laptop' }).click();
  await expect(methods.getByText('The sign-in method was removed.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toHaveCount(0);
  await expect(methods.getByRole('listitem')).toHaveCount(1);
  await expect(methods.getByText('Work laptop')).toHaveCount(0);
});

test('after signing out, the login screen does not sign the person back in with a passkey on its own', async ({ page }) => {
  const device = await addVirtualAuthenticator(page);
  const email = `passkey-signout-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  await signUpToFactorSetup(page, email, MFA_USER_PASSWORD);
  await page.getByRole('radio', { name: 'Passkey (fingerprint, face or screen lock)' }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveTitle('Register | Success');
  // The account page: the person picks the passkey from the login screen's autofill (the device answers at once).
  await page.goto('/auth/');
  await expect(page.getByRole('region', { name: 'Sign-in methods' }).getByRole('listitem').filter({ hasText: 'Passkey' })).toBeVisible();

  const signIns: string[] = [];
  page.on('request', (request) => {
    if (PASSKEY_SIGN_IN(request.url()) || new URL(request.url()).searchParams.has('code')) signIns.push(request.url());
  });
  const autofillOffered = page.waitForResponse((response) => PASSKEY_OPTIONS(new URL(response.url())));
  await signOut(page, device);
  // The login screen still offers the passkey in its autofill, and waits for the person to pick it.
  expect((await autofillOffered).ok()).toBe(true);
  await page.waitForLoadState('networkidle');
  await expect(page).toHaveURL(/\/auth\/login\?client_id=sso-account-page/);
  await expect(page.getByLabel('Email')).toBeVisible();
  expect(signIns).toEqual([]);
});

test('a new user who registers sets up a passkey as the second factor, lands in the client, and signs in with it again', async ({ page }) => {
  await addVirtualAuthenticator(page);
  const email = `passkey-signup-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  await signUpToFactorSetup(page, email, MFA_USER_PASSWORD);

  // The setup choice offers a passkey; choosing it, the browser makes one at once (the authenticator confirms it).
  await page.getByRole('radio', { name: 'Passkey (fingerprint, face or screen lock)' }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveTitle('Register | Success');
  await page.getByRole('link', { name: 'Continue to the app' }).click();
  await expect(page).toHaveURL(/\/demo\/$/);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();

  // Signed out at the provider, the person signs in again with the passkey alone, from the login screen's button.
  await page.getByRole('link', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page.getByText('You are not signed in.')).toBeVisible();
  await withoutAutofill(page);
  await page.getByRole('link', { name: /Sign in to Account Area/ }).click();
  await expect(page).toHaveTitle('Log In');
  await page.getByRole('link', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/demo\/$/);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
});
