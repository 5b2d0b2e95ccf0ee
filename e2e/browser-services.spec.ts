import { expect, test } from '@playwright/test';

test('the login screen loads the feature flags from the flag service after it renders, and caches them encrypted', async ({ page }) => {
  // A client link loads the app twice today (before and after the provider's redirect), and the first page's flag
  // request can be cut short by that navigation; the screen the user keeps is the one whose request gets an answer.
  const flagResponse = page.waitForResponse((response) => response.url().includes('/dev/flag-service/flags/sso?env=prod'));
  await page.goto('/demo/');
  await page.getByRole('link', { name: /Account Area/ }).click();
  await expect(page.getByLabel('Email')).toBeVisible();
  const response = await flagResponse;
  expect(response.request().headers().authorization).toBe('sso-web');
  expect(response.status()).toBe(200);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('sso.feature-flags'))).not.toBeNull();
  const cached = await page.evaluate(() => localStorage.getItem('sso.feature-flags') ?? '');
  expect(cached).not.toContain('company-selection-removal');
});

test('with no gtmId configured, no tag manager is loaded and nothing is tracked', async ({ page }) => {
  const tagManager: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('googletagmanager')) tagManager.push(request.url());
  });
  const analyticsConfig = page.waitForResponse((response) => response.url().endsWith('/api/gaid'));
  await page.goto('/auth/login?client_id=sso-account');
  expect(await (await analyticsConfig).json()).toEqual({ data: { gtmId: null } });
  expect(await page.evaluate(() => 'dataLayer' in window)).toBe(false);
  expect(tagManager).toEqual([]);
});
