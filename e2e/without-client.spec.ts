/**
 * Addresses reached with no client app named (a security notice's link, the help page, a bookmark, an old address):
 * every one belongs to the product's own account page, so nobody reads "No client app was named".
 */
import { expect, test, type Page } from '@playwright/test';

/** The login screen of the account page's own sign-in, reached from `page`'s current screen. */
async function expectAccountPageLogin(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/auth\/login\?/);
  await expect(page.getByText('Signing in to My Account')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Log in to proceed' })).toBeVisible();
  await expect(page.getByText('No client app was named')).toHaveCount(0);
}

/** The register screen of the account page's own sign-in. */
async function expectAccountPageRegister(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/auth\/register\?/);
  await expect(page.getByText('Creating an account for My Account')).toBeVisible();
  await expect(page.getByLabel('First name')).toBeVisible();
  await expect(page.getByText('No client app was named')).toHaveCount(0);
}

test('"Back to log in" from a mail\'s forgot-password link signs in to the account page, keeping the typed email', async ({ page }) => {
  await page.goto('/auth/forgot-password');
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByRole('link', { name: 'Back to log in' }).click();
  await expectAccountPageLogin(page);
  await expect(page.getByLabel('Email')).toHaveValue('ada@example.com');
});

test('"Back to log in" on the help page signs in to the account page', async ({ page }) => {
  await page.goto('/auth/help');
  await page.getByRole('link', { name: 'Back to log in' }).click();
  await expectAccountPageLogin(page);
});

test('/auth/register with no client app signs up to the account page', async ({ page }) => {
  await page.goto('/auth/register');
  await expectAccountPageRegister(page);
});

test('/auth/job-details with no client app leads to the account page\'s sign-up', async ({ page }) => {
  await page.goto('/auth/job-details');
  await expectAccountPageRegister(page);
});

test('the legacy root and legacy login lead to the account page\'s sign-in', async ({ page }) => {
  await page.goto('/auth/auth');
  await expectAccountPageLogin(page);
  await page.goto('/auth/auth/login');
  await expectAccountPageLogin(page);
});

test('the legacy sign-up leads to the account page\'s sign-up', async ({ page }) => {
  await page.goto('/auth/auth/sign-up');
  await expectAccountPageRegister(page);
});
