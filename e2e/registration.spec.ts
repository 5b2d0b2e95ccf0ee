import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { outboxCode } from './support/dev-outbox.ts';
import { flowExamples } from './support/flow-examples.ts';
import { fillStep, signUpSteps } from './support/sign-up.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'Quartz-Lantern-42!';
const WRONG_CODES_ALLOWED = 5;
const examples = flowExamples();

/** Runs the admin CLI against the e2e server's data dir (exported by playwright.config.ts). */
function sso(...args: string[]): void {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: playwright.config.ts exports it');
  execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/sso.ts', ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, stdio: 'pipe' });
}

/** A fresh address per test, so tests and reruns never share an account. */
function uniqueEmail(label: string): string {
  return `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** A code that is not `code`. */
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** From the demo client's "Create an account" button (OIDC prompt=create) to the register screen. */
async function openRegister(page: Page): Promise<void> {
  await page.goto('/demo/');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL(/\/auth\/register\?.*interaction=/);
  await expect(page).toHaveTitle('Register');
  await expect(page.getByRole('heading', { name: 'Welcome! Create your account' })).toBeVisible();
}

/**
 * Fills and submits the register form and every step after it that the flows lead to (their example inputs), up to
 * the code screen, which is then on show. The password's strength is confirmed on the register form as it is typed.
 */
async function register(page: Page, email: string, names = { first: 'Grace', last: 'Hopper' }): Promise<void> {
  const { steps, stopsAt } = signUpSteps(email, PASSWORD, { firstName: names.first, lastName: names.last });
  for (const step of steps) {
    if (step.id === 'register') {
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await expect(page.getByText('Your password is strong')).toBeVisible();
    }
    await fillStep(page, step);
  }
  await expect(page).toHaveTitle(examples.title(stopsAt));
  await expect(page.getByRole('heading', { name: 'Confirm your email address' })).toBeVisible();
}

/** Enters a code on the code screen. */
async function enterCode(page: Page, code: string): Promise<void> {
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
}

test('a new user registers, verifies the emailed code and lands back in the demo client signed in', async ({ page }) => {
  const email = uniqueEmail('newcomer');
  await openRegister(page);
  await register(page, email);
  await expect(page).toHaveTitle('Register');
  // The address the person just typed, in full: the masked one is for the server's answers only.
  await expect(page.getByText(`We sent a 6-digit code to ${email} at`, { exact: false })).toBeVisible();
  await enterCode(page, await outboxCode(page.request, email));
  await expect(page).toHaveTitle('Register | Success');
  await expect(page).toHaveURL(/\/auth\/register\/success/);
  await expect(page.getByRole('heading', { name: 'Congratulations' })).toBeVisible();
  await page.getByRole('link', { name: 'Continue to the app' }).click();
  await expect(page).toHaveURL(/\/demo\/$/);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
});

test('the register form says what is missing, in the spec\'s words', async ({ page }) => {
  await openRegister(page);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText("Please enter your email address e.g, 'name@example.com'")).toBeVisible();
  await expect(page.getByText('Please enter your name')).toHaveCount(2);
  await expect(page.getByText('Please enter your password')).toBeVisible();
  await expect(page.getByText('Please accept the Terms and Conditions')).toBeVisible();
  await page.getByLabel('Email').fill('not-an-address');
  await expect(page.getByText("Please enter valid email address. e.g 'name@example.com'")).toBeVisible();
});

test('a wrong code shows the server\'s message and the right one still works', async ({ page }) => {
  const email = uniqueEmail('typo');
  await openRegister(page);
  await register(page, email);
  const code = await outboxCode(page.request, email);
  await enterCode(page, otherCode(code));
  await expect(page.getByRole('alert')).toHaveText('That code is wrong or has expired. Check it, or ask for a new one.');
  await page.getByLabel('Verification code').fill('12');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Please enter 6-digit verification code')).toBeVisible();
  await enterCode(page, code);
  await expect(page).toHaveTitle('Register | Success');
});

test('after five wrong codes even the right one is refused', async ({ page }) => {
  const email = uniqueEmail('guesser');
  await openRegister(page);
  await register(page, email);
  const code = await outboxCode(page.request, email);
  for (let attempt = 0; attempt < WRONG_CODES_ALLOWED; attempt += 1) {
    await enterCode(page, otherCode(code));
    await expect(page.getByRole('alert')).toBeVisible();
  }
  await enterCode(page, code);
  await expect(page.getByRole('alert')).toHaveText('Too many wrong codes. For your security, wait a while before asking for a new code.');
});

test('a new code can be asked for only once the server\'s cooldown has run out', async ({ page }) => {
  await openRegister(page);
  await register(page, uniqueEmail('impatient'));
  await expect(page.getByText(/^Send a new code \(in \d+ s\)$/)).toBeVisible();
  await expect(page.getByRole('link', { name: /Send a new code/ })).toHaveCount(0);
});

for (const guarded of examples.guarded('registration')) {
  test(`${guarded.id} entered by address, not from the steps before it, sends the user to ${guarded.otherwise.id}`, async ({ page }) => {
    await openRegister(page);
    const query = new URL(page.url()).search;
    await page.goto(`/auth/${guarded.route}${query}`);
    await expect(page).toHaveURL(new RegExp(`/auth/${guarded.otherwise.route}\\?`));
    await expect(page).toHaveTitle(guarded.otherwise.title);
  });
}

test('the terms open in a new tab whose "Close this tab" closes it, and the form keeps what was typed', async ({ page, context }) => {
  await openRegister(page);
  await page.getByLabel('Email').fill('reader@example.com');
  const [terms] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: 'Read the Terms and Conditions' }).click()]);
  await expect(terms).toHaveTitle('Terms and Conditions');
  await expect(terms.getByText(/^These terms apply to your use/)).toBeVisible();
  // The shipped sample speaks to the person reading it, never to operators.
  await expect(terms.getByText(/replace this file/i)).toHaveCount(0);
  await expect(terms.getByRole('link', { name: 'Back to registration' })).toHaveCount(0);
  const closed = terms.waitForEvent('close');
  // The click closes its own page, which may end the click action before Playwright sees it finish: only that is forgiven.
  await terms
    .getByRole('button', { name: 'Close this tab' })
    .click()
    .catch((error: unknown) => {
      if (!terms.isClosed()) throw error;
    });
  await closed;
  expect(context.pages()).toEqual([page]);
  await expect(page).toHaveTitle('Register');
  await expect(page.getByLabel('Email')).toHaveValue('reader@example.com');
});

test('the terms reached in the form\'s own tab go Back to that form with what was typed, not to a new registration', async ({ page }) => {
  await openRegister(page);
  const registerUrl = page.url();
  await page.getByLabel('Email').fill('same-tab@example.com');
  await page.getByLabel('First name').fill('Dorothy');
  await page.goto(`/auth/terms-conditions${new URL(registerUrl).search}`);
  await expect(page).toHaveTitle('Terms and Conditions');
  await page.getByRole('button', { name: 'Back to registration' }).click();
  await expect(page).toHaveURL(registerUrl);
  await expect(page.getByLabel('Email')).toHaveValue('same-tab@example.com');
  await expect(page.getByLabel('First name')).toHaveValue('Dorothy');
});

test('a pre-registered user completes the account after the code and lands in the demo client', async ({ page }) => {
  const email = uniqueEmail('prepared');
  sso('user', 'add', '--email', email, '--pre-registered', '--first-name', 'Mary');
  await openRegister(page);
  await register(page, email, { first: 'Typed', last: 'Jackson' });
  await enterCode(page, await outboxCode(page.request, email));
  await expect(page).toHaveTitle('Register | Complete Registration');
  await expect(page).toHaveURL(/\/auth\/register\/update/);
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByLabel('First name')).toHaveValue('Mary');
  await expect(page.getByLabel('Last name')).toHaveValue('Jackson');
  await page.getByLabel('Password', { exact: true }).fill('Copper-Meadow-77?');
  await page.getByRole('button', { name: 'Complete registration' }).click();
  await expect(page).toHaveTitle('Register | Success');
  await page.getByRole('link', { name: 'Continue to the app' }).click();
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
});
