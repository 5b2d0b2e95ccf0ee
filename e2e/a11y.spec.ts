/**
 * axe on every screen a browser can reach here, in the states a user meets them in (empty, with
 * validation errors, on a 360 px phone): zero violations of WCAG 2.1 A/AA and best practice.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { MFA_USER_PASSWORD, newMfaServerUser } from './support/mfa-server-users.ts';
import { saveNewRecoveryCodes } from './support/recovery-codes.ts';
import { addVirtualAuthenticator } from './support/virtual-authenticator.ts';

const PHONE = { width: 360, height: 740 };

/** The violations axe finds on the page as it is, as "rule: target" lines for a readable failure. */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations.flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')} — ${violation.help}`));
}

/** Opens the login screen as a client app sends users there. */
async function openLogin(page: Page): Promise<void> {
  await page.goto('/demo/');
  await page.getByRole('link', { name: /Account Area/ }).click();
  await expect(page.getByLabel('Email')).toBeVisible();
}

/** Screens reached from the login screen by a link, with the title they show. */
const FROM_LOGIN = [
  { link: 'Forgot password?', title: 'Forgot Password' },
  { link: "Don't have an account? Register", title: 'Register' },
];

/** Screens a browser opens by address alone, with the title they show. */
const BY_ADDRESS = [
  { path: '/auth/no/such/page', title: 'Error' },
  // The error screen as people meet it: a link naming an app the provider does not know. (/auth/error and
  // /auth/unavailable typed with no sign-in behind them belong to the account page's login, like every address
  // without a client app.)
  { path: '/auth/login?client_id=no-such-app', title: 'Error' },
  { path: '/auth/mfa/totp', title: 'Authenticate | Verify Using Authenticator App MFA' },
  { path: '/auth/reset-password/success', title: 'Reset Password | Success' },
  // A sign-up's success screen opened by address belongs to a sign-in that is over: the honest "ended" screen.
  { path: '/auth/register/success', title: 'Authenticate' },
  { path: '/auth/terms-conditions', title: 'Terms and Conditions' },
  { path: '/auth/invitation/expired', title: 'Error' },
  { path: '/auth/invitation/used', title: 'Error' },
  { path: '/auth/help', title: 'Help' },
];

/** The e2e server with the product's default, MFA required (playwright.config.ts): the passkey screens live there. */
const MFA_SERVER = `http://localhost:${process.env.E2E_MFA_PORT}`;

/** Signs `email` in to the account page on the MFA server with the password, up to the second factor. */
async function logInToAccountPage(page: Page, email: string): Promise<void> {
  await page.goto(`${MFA_SERVER}/auth/`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(MFA_USER_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
}

/** A page in a browser of its own with no passkey device, as wide as `like`: a passkey prompt there stays open. */
async function pageWithoutPasskeys(browser: Browser, like: Page): Promise<Page> {
  const context = await browser.newContext({ viewport: like.viewportSize() });
  return context.newPage();
}

for (const viewport of [undefined, PHONE]) {
  const size = viewport ? `${viewport.width} px wide` : 'on a desktop';
  test.describe(size, () => {
    if (viewport) test.use({ viewport });

    test('the login screen has no accessibility violations, empty or with errors', async ({ page }) => {
      await openLogin(page);
      expect(await violations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Log In' }).click();
      await expect(page.getByText('Please enter your password')).toBeVisible();
      expect(await violations(page)).toEqual([]);
    });

    for (const { link, title } of FROM_LOGIN) {
      test(`the ${title} screen, reached from login, has no accessibility violations`, async ({ page }) => {
        await openLogin(page);
        await page.getByRole('link', { name: link, exact: true }).click();
        await expect(page).toHaveTitle(title);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await page.waitForLoadState('networkidle');
        expect(await violations(page)).toEqual([]);
      });
    }

    for (const { path, title } of BY_ADDRESS) {
      test(`${path} has no accessibility violations`, async ({ page }) => {
        await page.goto(path);
        await expect(page).toHaveTitle(title);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await page.waitForLoadState('networkidle');
        expect(await violations(page)).toEqual([]);
      });
    }

    test('the passkey screens have no accessibility violations: the setup choice, setting one up, the account page\'s list and step-up, and the passkey as the second factor', async ({ page, browser }) => {
      test.setTimeout(120_000);
      const email = newMfaServerUser('a11y-passkey');

      // A browser with no passkey device: the setup choice offers a passkey, and the setup screen waits on the prompt.
      const plain = await pageWithoutPasskeys(browser, page);
      await logInToAccountPage(plain, email);
      const passkeyChoice = plain.getByRole('radio', { name: 'Passkey (fingerprint, face or screen lock)' });
      await expect(passkeyChoice).toBeVisible();
      expect(await violations(plain), 'the setup choice').toEqual([]);
      await passkeyChoice.check();
      await plain.getByRole('button', { name: 'Continue' }).click();
      await expect(plain.getByRole('heading', { name: 'Set up a passkey' })).toBeVisible();
      await plain.waitForLoadState('networkidle');
      expect(await violations(plain), 'setting up a passkey').toEqual([]);
      await plain.context().close();

      // The person's own device makes the passkey; the account page lists it.
      await addVirtualAuthenticator(page);
      await logInToAccountPage(page, email);
      await page.getByRole('radio', { name: 'Passkey (fingerprint, face or screen lock)' }).check();
      await page.getByRole('button', { name: 'Continue' }).click();
      await saveNewRecoveryCodes(page);
      await expect(page).toHaveURL(/\/auth\/account$/);
      const methods = page.getByRole('region', { name: 'Sign-in methods' });
      await expect(methods.getByRole('listitem').filter({ hasText: 'Passkey' })).toBeVisible();
      expect(await violations(page), "the account page's passkey list").toEqual([]);
      await methods.getByRole('button', { name: 'Add passkey' }).click();
      await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
      expect(await violations(page), 'the step-up with a passkey').toEqual([]);
      await page.getByRole('button', { name: 'Use passkey' }).click();
      await expect(methods.getByLabel('Name (optional)')).toBeVisible();
      expect(await violations(page), 'adding a passkey').toEqual([]);

      // Signing in again elsewhere: the passkey is the second factor, with "Don't ask for a passkey on this device".
      const elsewhere = await pageWithoutPasskeys(browser, page);
      await logInToAccountPage(elsewhere, email);
      await expect(elsewhere.getByRole('heading', { name: 'Use a passkey' })).toBeVisible();
      await expect(elsewhere.getByRole('checkbox', { name: "Don't ask for a passkey on this device for 30 days" })).toBeVisible();
      await elsewhere.waitForLoadState('networkidle');
      expect(await violations(elsewhere), 'the passkey as the second factor').toEqual([]);
      await elsewhere.context().close();
    });
  });
}

test('the login fields say what they hold, for password managers and autofill', async ({ page }) => {
  await openLogin(page);
  await expect(page.getByLabel('Email')).toHaveAttribute('autocomplete', 'username webauthn');
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('autocomplete', 'current-password');
});

test('validation errors are announced to screen readers', async ({ page }) => {
  await openLogin(page);
  await page.getByRole('button', { name: 'Log In' }).click();
  const password = page.getByLabel('Password', { exact: true });
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  const described = await password.getAttribute('aria-describedby');
  expect(described).toBeTruthy();
  await expect(page.locator(`[id="${(described ?? '').split(' ')[0]}"]`)).toContainText(/\S/);
});
