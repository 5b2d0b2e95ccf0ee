/**
 * The frame around every screen, in a real browser: the help button, the back button (only with
 * history behind it), the error page for unknown addresses, legacy addresses, and the name of the
 * client app the user signs in to.
 */
import { expect, test, type Page } from '@playwright/test';

const USER_GUIDE = '/auth/help';

/**
 * Opens the login screen as a client app sends users there; `appStartMs`, when given, is how long the app may take to
 * start instead of the expect timeout.
 */
async function openLoginScreen(page: Page, appStartMs?: number): Promise<void> {
  await page.goto('/demo/');
  await page.getByRole('link', { name: /Account Area/ }).click();
  await expect(page.getByLabel('Email')).toBeVisible({ timeout: appStartMs });
}

test('the help button links to the user guide in a new tab', async ({ page }) => {
  await page.goto('/auth/no-such-page');
  const help = page.getByRole('link', { name: "Can't Log In or Register?" });
  await expect(help).toHaveAttribute('href', USER_GUIDE);
  await expect(help).toHaveAttribute('target', '_blank');
});

test('the help link opens the built-in help page, which says what to do about each sign-in problem', async ({ page }) => {
  await page.goto('/auth/login?client_id=nope');
  const [helpPage] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('link', { name: "Can't Log In or Register?" }).click()]);
  await expect(helpPage).toHaveURL(/\/auth\/help$/);
  await expect(helpPage).toHaveTitle('Help');
  for (const topic of ['I lost my phone or my authenticator app', 'My account is locked', 'My code does not arrive', 'My email address changed']) {
    await expect(helpPage.getByRole('heading', { level: 2, name: topic })).toBeVisible();
  }
});

test('an unknown address shows the error page titled "Error"', async ({ page }) => {
  await page.goto('/auth/no/such/page');
  await expect(page).toHaveTitle('Error');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/no\/such\/page$/);
});

test('the back button shows only with history behind it, and goes back', async ({ page }) => {
  await page.goto('/auth/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Back' })).toHaveCount(0);

  await page.goto('/demo/');
  await page.getByRole('link', { name: /Account Area/ }).click();
  await expect(page).toHaveTitle('Log In');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveTitle('Forgot Password');
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page).toHaveTitle('Log In');
  await expect(page).toHaveURL(/\/auth\/login\?/);
});

test('the login screen names the client app the user signs in to, and keeps the query through a legacy address', async ({ page }) => {
  await page.goto('/demo/');
  await page.getByRole('link', { name: /Account Area/ }).click();
  await expect(page).toHaveURL(/\/auth\/login\?/);
  await expect(page.getByText('Signing in to Account Area')).toBeVisible();
  const query = new URL(page.url()).search;
  await page.goto(`/auth/auth/recover-password${query}`);
  await expect.poll(() => new URL(page.url()).pathname).toBe('/auth/recover-password');
  expect(new URL(page.url()).search).toBe(query);
  await expect(page).toHaveTitle('Forgot Password');
  await expect(page.getByText('Signing in to Account Area')).toBeVisible();
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the login screen still paints: it is prerendered', async ({ page }) => {
    await page.goto('/auth/login?client_id=sso-account');
    await expect(page).toHaveTitle('Log In');
    await expect(page.getByRole('heading', { name: 'Log in to proceed' })).toBeVisible();
    await expect(page.getByRole('link', { name: "Can't Log In or Register?" })).toBeVisible();
  });

  test('the prerendered login screen draws the logo in its box, named once for assistive technology', async ({ page }) => {
    await page.goto('/auth/login?client_id=sso-account');
    const logo = page.getByRole('img', { name: 'Payments Network Single Sign-On' });
    await expect(logo).toBeVisible();
    const drawn = await logo.locator('svg').boundingBox();
    expect(drawn?.width).toBeGreaterThan(100);
    expect(drawn?.height).toBe(40);
    await expect(logo.locator('svg')).toHaveAttribute('aria-hidden', 'true');
    await expect(page.getByRole('img')).toHaveCount(1);
  });
});

test('the logo drawn with the prerendered login screen stays through hydration and the next step; other pages draw it as the background', async ({ page }) => {
  const logoBackground = () => page.locator('.brand-logo').evaluate((box) => getComputedStyle(box).backgroundImage);
  await openLoginScreen(page);
  await expect(page.locator('.brand-logo svg')).toHaveCount(1);
  expect(await logoBackground()).toBe('none');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveTitle('Forgot Password');
  await expect(page.locator('.brand-logo svg')).toHaveCount(1);
  expect(await logoBackground()).toBe('none');

  await page.goto('/auth/no-such-page');
  await expect(page.getByRole('img', { name: 'Payments Network Single Sign-On' })).toBeVisible();
  await expect(page.locator('.brand-logo svg')).toHaveCount(0);
  expect(await logoBackground()).toContain('/auth/logo.svg');
});

test('the prerendered login screen hydrates without a mismatch', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/demo/');
  await page.getByRole('link', { name: /Account Area/ }).click();
  await expect(page.getByLabel('Email')).toBeVisible();
  await expect(page.getByText('Signing in to Account Area')).toBeVisible();
  expect(errors.filter((text) => /hydrat|did not match|Minified React error/i.test(text))).toEqual([]);
});

test('the prerendered login screen is painted before the app starts, even on a slow phone', async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.addInitScript(() => {
    // The app's first act is React's: it names its element types with Symbol.for('react.…').
    const symbolFor = Symbol.for;
    Symbol.for = (key: string) => {
      if (key.startsWith('react.') && performance.getEntriesByName('app-starts').length === 0) performance.mark('app-starts');
      return symbolFor(key);
    };
  });
  // The CPU is four times slower here, so the app gets four times the 10 s expect timeout (playwright.config.ts) it
  // has to start elsewhere.
  await openLoginScreen(page, 40_000);
  const { appStartsAt, firstPaintAt } = await page.evaluate(() => ({
    appStartsAt: performance.getEntriesByName('app-starts')[0]?.startTime,
    firstPaintAt: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
  }));
  expect(firstPaintAt).toBeDefined();
  expect(appStartsAt).toBeGreaterThan(firstPaintAt ?? Number.POSITIVE_INFINITY);
});

test('a language chosen on the prerendered login screen before the app has started still applies', async ({ page }) => {
  let releaseApp = () => {};
  const appHeld = new Promise<void>((resolve) => (releaseApp = resolve));
  await page.route(/\/auth\/assets\/index-[^/]+\.js$/, async (route) => {
    await appHeld;
    await route.continue();
  });
  await page.goto('/demo/');
  await page.getByRole('link', { name: /Account Area/ }).click();
  await expect(page.getByRole('heading', { name: 'Log in to proceed' })).toBeVisible();
  await page.getByLabel('Language').selectOption('de');
  releaseApp();
  await expect(page.getByLabel('E-Mail')).toBeVisible();
  await expect(page.getByLabel('Sprache')).toHaveValue('de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
});

test('a screen whose part of the app cannot be downloaded shows the error page with a retry that works', async ({ page }) => {
  await openLoginScreen(page);
  await page.route(/\/auth\/assets\/password-recovery-[^/]+\.js$/, (route) => route.abort());
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('alert')).toContainText('A part of this page could not be loaded');
  await expect(page).toHaveTitle('Error');
  await page.unroute(/\/auth\/assets\/password-recovery-[^/]+\.js$/);
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page).toHaveTitle('Forgot Password');
  await expect(page.getByLabel('Email')).toBeVisible();
});
