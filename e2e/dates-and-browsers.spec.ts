/** Dates follow the browser's locale within the page's language (issue 27.19): en-GB reads "27 Nov 2026, 23:59". */
import { expect, test } from '@playwright/test';
import { firstSignIn, newUser } from './support/account-page.ts';

test.use({ baseURL: `http://localhost:${process.env.E2E_MFA_PORT}` });
test.describe.configure({ timeout: 120_000 });

const LOCALES = [
  { locale: 'en-GB', shape: /Added \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}/ },
  { locale: 'en-US', shape: /Added [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M/ },
] as const;

for (const { locale, shape } of LOCALES) {
  test.describe(`a browser in ${locale}`, () => {
    test.use({ locale });
    test(`shows the account page's dates as ${locale} writes them`, async ({ page }) => {
      await firstSignIn(page, newUser(`dates-${locale}`));
      await expect(page.getByText(shape).first()).toBeVisible();
    });
  });
}
