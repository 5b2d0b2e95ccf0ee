/**
 * An address the person just typed is shown back in full, and no address (masked or not) goes into a step's path,
 * where history, logs and a shared screen would keep it.
 */
import { expect, test } from '@playwright/test';

test('the reset screens show the email just typed, and keep it out of the address bar', async ({ page }) => {
  const email = `typed-${Date.now()}@example.com`;
  await page.goto('/demo/');
  await page.getByRole('link', { name: /Account Area/ }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText(`If ${email} belongs to an account, a 6-digit code is on its way.`, { exact: false })).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/forgot-password\/sent\/email\?/);
  await page.getByRole('link', { name: 'Enter the code' }).click();
  await expect(page.getByText(`Enter the 6-digit code we sent to ${email}, then choose a new password.`)).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/change-password\/email\?/);
  expect(decodeURIComponent(new URL(page.url()).pathname)).not.toMatch(/•|@/);
});
