/** The sign-up walk several specs start from: the demo client's "Create an account" up to the second factor's setup. */
import { expect, type Page } from '@playwright/test';
import { outboxCode } from './dev-outbox.ts';

/**
 * Registers `email` from the demo client (names, password, terms, the job-details step, the mailed code) and stops at
 * the MFA setup choice, which a server with MFA required shows next.
 */
export async function signUpToFactorSetup(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/demo/');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('I accept the Terms and Conditions').check();
  await page.getByRole('button', { name: 'Register' }).click();
  await page.getByLabel('Job title').fill('Treasury analyst');
  await page.getByLabel('Department').fill('Finance');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Verification code').fill(await outboxCode(page.request, email));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveTitle('Authenticate | Add Alternative Authentication Method');
}
