/** The screen a first second factor set up at sign-in ends on: the account's new recovery codes, shown once. */
import { expect, type Page } from '@playwright/test';
import { appCode, shownSecret } from './authenticator-app.ts';

/** The title of that screen (flows/mfa.json, step mfa-recovery-codes). */
export const SAVE_RECOVERY_CODES_TITLE = 'Authenticate | Save Your Recovery Codes';

/** Checks the page shows the new recovery codes, reads them, and presses "I've saved my codes, continue". */
export async function saveNewRecoveryCodes(page: Page): Promise<string[]> {
  await expect(page).toHaveTitle(SAVE_RECOVERY_CODES_TITLE);
  const items = page.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem');
  await expect(items.first()).toBeVisible();
  const codes = await items.allTextContents();
  await page.getByRole('button', { name: "I've saved my codes, continue" }).click();
  return codes;
}

/**
 * The first factor of a sign-in's MFA step: "Authenticator app" chosen, its first code entered, and the new
 * recovery codes saved; answers the app's secret.
 */
export async function setUpFirstAuthenticatorApp(page: Page): Promise<string> {
  await page.getByRole('radio', { name: /Authenticator app/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  const secret = await shownSecret(page);
  await page.getByRole('textbox', { name: 'Code' }).fill(appCode(secret));
  await page.getByRole('button', { name: 'Verify and finish' }).click();
  await saveNewRecoveryCodes(page);
  return secret;
}
