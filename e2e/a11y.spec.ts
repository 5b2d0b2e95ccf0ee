/**
 * axe on every screen a browser can reach here, in the states a user meets them in (empty, with
 * validation errors, on a 360 px phone): zero violations of WCAG 2.1 A/AA and best practice.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

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
  { path: '/auth/error', title: 'Error' },
  { path: '/auth/unavailable', title: 'Error' },
  { path: '/auth/mfa/totp', title: 'Authenticate | Verify Using Authenticator App MFA' },
  { path: '/auth/reset-password/success', title: 'Reset Password | Success' },
  // A sign-up's success screen opened by address belongs to a sign-in that is over: the honest "ended" screen.
  { path: '/auth/register/success', title: 'Authenticate' },
  { path: '/auth/terms-conditions', title: 'Terms and Conditions' },
  { path: '/auth/invitation/expired', title: 'Error' },
  { path: '/auth/help', title: 'Help' },
];

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
