import { expect, test } from '@playwright/test';

test('the login screen loads the feature flags from the flag service after it renders, and caches them encrypted', async ({ page }) => {
  const flagRequest = page.waitForRequest((request) => request.url().includes('/dev/flag-service/flags/sso?env=prod'));
  await page.goto('/demo/');
  await page.getByRole('link', { name: /Account Area/ }).click();
  await expect(page.getByLabel('Email')).toBeVisible();
  const request = await flagRequest;
  expect(request.headers().authorization).toBe('sso-web');
  const response = await request.response();
  expect(response?.status()).toBe(200);
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
  await page.goto('/auth/login');
  expect(await (await analyticsConfig).json()).toEqual({ data: { gtmId: null } });
  expect(await page.evaluate(() => 'dataLayer' in window)).toBe(false);
  expect(tagManager).toEqual([]);
});
