/** Focus goes where the person acts next (issue 27.20): the step-up's code field, and after an error the field in error. */
import { expect, test } from '@playwright/test';
import { firstSignIn, newUser } from './support/account-page.ts';

test.use({ baseURL: `http://localhost:${process.env.E2E_MFA_PORT}` });
test.describe.configure({ timeout: 120_000 });

test('the step-up focuses its code field, and a refused code leaves the focus there, marked invalid', async ({ page }) => {
  const email = newUser('focus-step-up');
  await firstSignIn(page, email);
  const profile = page.getByRole('region', { name: 'Profile' });
  await profile.getByLabel('New email address').fill(email.replace('focus-', 'moved-'));
  await profile.getByRole('button', { name: 'Send code to the new address' }).click();
  await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
  const code = page.getByLabel('Code from your authenticator app');
  await expect(code).toBeFocused();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(code).toHaveAttribute('aria-invalid', 'true');
  await expect(code).toBeFocused();
  await code.fill('000000');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(code).toHaveAttribute('aria-invalid', 'true');
  await expect(code).toHaveAccessibleDescription(/.+/);
  await expect(code).toBeFocused();
});
