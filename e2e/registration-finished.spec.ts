/**
 * Back from "Congratulations": the account is made, but the person is signed in to the app only once they continue
 * to it, so no screen may say "You're signed in" before that. With a second factor set up, it shows the new account's
 * first recovery codes, once.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signUpToFactorSetup, submitSignUp } from './support/sign-up.ts';

const PASSWORD = 'Quartz-Lantern-42!';

/** Registers a fresh address from the demo client's "Create an account", up to "Congratulations". */
async function registerToCongratulations(page: Page): Promise<string> {
  const email = `finished-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  await submitSignUp(page, email, PASSWORD);
  await expect(page.getByRole('heading', { name: 'Congratulations' })).toBeVisible();
  return email;
}

test('Back from "Congratulations" does not claim a sign-in the person has not made, and still leads to the app', async ({ page }) => {
  const email = await registerToCongratulations(page);
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText(/You're signed in/)).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Almost there' })).toBeVisible();
  await expect(page.getByText("You're not signed in to Account Area yet. Go back to the app to finish.")).toBeVisible();
  await page.getByRole('link', { name: 'Back to the app' }).click();
  await expect(page).toHaveURL(/\/demo\/$/);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
});

test.describe('on a server that asks for a second factor', () => {
  test.use({ baseURL: `http://localhost:${process.env.E2E_MFA_PORT}` });

  test('"Congratulations" shows the first recovery codes right after the first factor is set up, and leads on to the app', async ({ page }) => {
    const email = `codes-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    await signUpToFactorSetup(page, email, PASSWORD);
    await page.getByRole('radio', { name: /^Email/ }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Congratulations' })).toBeVisible();
    const codes = page.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    await expect(codes.first()).toHaveText(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await page.getByRole('link', { name: 'Continue to the app' }).click();
    await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  });
});
