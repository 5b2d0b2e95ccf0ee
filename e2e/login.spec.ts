import { expect, test, type Page } from '@playwright/test';
import { demoUrl } from './support/demo-origin.ts';

const DEMO_USER = { email: 'demo@example.com', password: 'Demo-Passw0rd!' };

/** Fails the test on any Content-Security-Policy violation: the app must run under script-src 'self'. */
function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (execute|load|apply)/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

test('a user signs in from the demo client app and lands back there signed in', async ({ page }) => {
  const violations = watchCsp(page);
  await page.goto('/demo/');
  await page.getByRole('link', { name: /Account Area/ }).click();
  await expect(page).toHaveURL(/\/auth\/login\?/);
  await expect(page).toHaveTitle('Log In');
  await page.getByLabel('Email').fill(DEMO_USER.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_USER.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/demo\/$/);
  await expect(page.getByText(`Signed in as ${DEMO_USER.email}`)).toBeVisible();
  expect(violations).toEqual([]);
});

test('the confidential dashboard client signs in the same way', async ({ page }) => {
  await page.goto('/demo/');
  await page.getByRole('link', { name: /Dashboard/ }).click();
  await page.getByLabel('Email').fill(DEMO_USER.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_USER.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText(`Signed in as ${DEMO_USER.email}`)).toBeVisible();
});

test('a wrong password shows the generic message and keeps the user on the login screen', async ({ page }) => {
  await page.goto('/demo/');
  await page.getByRole('link', { name: /Account Area/ }).click();
  await page.getByLabel('Email').fill(DEMO_USER.email);
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('alert')).toContainText('Incorrect email or password.');
  await expect(page).toHaveTitle('Log In');
});

test('an empty submit shows the spec\'s validation messages', async ({ page }) => {
  await page.goto('/demo/');
  await page.getByRole('link', { name: /Account Area/ }).click();
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText("Please enter your email address e.g, 'name@example.com'")).toBeVisible();
  await expect(page.getByText('Please enter your password')).toBeVisible();
});

test('an unknown client gets an error screen, never a redirect', async ({ page }) => {
  await page.goto('/auth/login?client_id=nobody&redirect_uri=https%3A%2F%2Fevil.example%2Fcb&state=x');
  await expect(page).toHaveTitle('Error');
  await expect(page.getByText('The app that sent you here is not registered.')).toBeVisible();
  expect(new URL(page.url()).host).toBe(new URL(test.info().project.use.baseURL ?? 'http://localhost').host);
});

test('an unknown path shows the error page titled "Error"', async ({ page }) => {
  await page.goto('/auth/no/such/page');
  await expect(page).toHaveTitle('Error');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: "Can't Log In or Register?" })).toBeVisible();
});

test('a client app that links with ?username= finds the email filled in', async ({ page }) => {
  const redirectUri = demoUrl(test.info().project.use.baseURL ?? '', '/demo/auth/callback');
  const query = new URLSearchParams({ client_id: 'sso-dashboard', redirect_uri: redirectUri, state: 'prefill', username: 'demo@example.com', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' });
  await page.goto(`/auth/login?${query}`);
  await expect(page).toHaveURL(/interaction=/);
  await expect(page.getByLabel('Email')).toHaveValue('demo@example.com');
  await expect(page.getByLabel('Email')).toHaveAttribute('autocomplete', 'username webauthn');
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('autocomplete', 'current-password');
});
