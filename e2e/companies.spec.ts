import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'Company-Passw0rd!';

// The second e2e server, started by playwright.config.ts with the company picker on.
test.use({ baseURL: `http://localhost:${process.env.E2E_PICKER_PORT}` });

/** Runs the admin CLI against the picker server (or, with `E2E_DATA_DIR`, the server with the default flags). */
function sso(...args: string[]): void {
  ssoOn('E2E_PICKER_DATA_DIR', ...args);
}

function ssoOn(dataDirVariable: 'E2E_PICKER_DATA_DIR' | 'E2E_DATA_DIR', ...args: string[]): void {
  const dataDir = process.env[dataDirVariable];
  if (!dataDir) throw new Error(`${dataDirVariable} is not set: playwright.config.ts exports it`);
  execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/sso.ts', ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, stdio: 'pipe' });
}

const unique = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/** A user who belongs to the named companies (each made for this test), on the picker server unless told. */
function userIn(companies: string[], dataDirVariable: 'E2E_PICKER_DATA_DIR' | 'E2E_DATA_DIR' = 'E2E_PICKER_DATA_DIR'): string {
  const email = `${unique('member')}@example.com`;
  ssoOn(dataDirVariable, 'user', 'add', '--email', email, '--password', PASSWORD);
  for (const company of companies) {
    ssoOn(dataDirVariable, 'company', 'add', company);
    ssoOn(dataDirVariable, 'company', 'add-user', company, email);
  }
  return email;
}

async function logIn(page: Page, email: string): Promise<void> {
  await page.goto('/demo/');
  await page.getByRole('link', { name: /Account Area/ }).click();
  await expect(page).toHaveTitle('Log In');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
}

test('a user of three companies picks one and sees it in the demo client\'s claims', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const tag = unique('co');
  const names = [`Cyan ${tag}`, `Amber ${tag}`, `Blue ${tag}`];
  const email = userIn(names);
  await logIn(page, email);

  await expect(page).toHaveTitle('Authenticate | Select Company');
  const group = page.getByRole('radiogroup', { name: 'Company' });
  await expect(group.getByRole('radio')).toHaveCount(3);
  await expect(group.getByRole('radio', { name: `Amber ${tag}` })).toBeChecked();
  // The focus is on the list, on the chosen company, so arrow keys pick another at once (27.20).
  await expect(group.getByRole('radio', { name: `Amber ${tag}` })).toBeFocused();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await group.getByRole('radio', { name: `Blue ${tag}` }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/demo\/$/);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  await expect(page.getByRole('row', { name: /company/ })).toContainText(`Blue ${tag}`);
});

test('a user of one company goes straight back to the app with it', async ({ page }) => {
  const company = unique('Solo');
  const email = userIn([company]);
  await logIn(page, email);
  await expect(page).toHaveURL(/\/demo\/$/);
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();
  await expect(page.getByRole('row', { name: /company/ })).toContainText(company);
});

test('the search never submits a company it hides: typing until only one shows signs in as that one', async ({ page }) => {
  // The user, ten companies and the memberships are made through the operator CLI first, 21 processes: on a loaded
  // machine that alone took most of the default 60 s.
  test.setTimeout(120_000);
  const tag = unique('find');
  const names = Array.from({ length: 8 }, (_, index) => `Firm ${index} ${tag}`);
  const email = userIn([...names, `Globex ${tag}`, `Stark Industries ${tag}`]);
  await logIn(page, email);
  await expect(page).toHaveTitle('Authenticate | Select Company');
  // The last-used company (the first listed, chosen) is hidden by the search; the only match is chosen instead.
  await page.getByRole('searchbox', { name: 'Search companies' }).fill('glo');
  const group = page.getByRole('radiogroup', { name: 'Company' });
  await expect(group.getByRole('radio')).toHaveCount(1);
  await expect(group.getByRole('radio', { name: `Globex ${tag}` })).toBeChecked();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/demo\/$/);
  await expect(page.getByRole('row', { name: /company/ })).toContainText(`Globex ${tag}`);
});

test.describe('with the default flags (company-selection-removal on)', () => {
  test.use({ baseURL: `http://localhost:${process.env.E2E_PORT ?? '18080'}` });

  test('a member of two companies gets the last-used one, and switches company on the account page for the next sign-in', async ({ page }) => {
    const tag = unique('switch');
    const email = userIn([`Alpha ${tag}`, `Beta ${tag}`], 'E2E_DATA_DIR');
    await logIn(page, email);
    await expect(page).toHaveURL(/\/demo\/$/);
    const first = (await page.getByRole('row', { name: /company/ }).textContent()) ?? '';
    const other = first.includes(`Alpha ${tag}`) ? `Beta ${tag}` : `Alpha ${tag}`;

    // The product's own address opens the account page in the same provider session, without another password.
    await page.goto('/auth/');
    await expect(page.getByRole('heading', { name: 'Your account', level: 1 })).toBeVisible();
    const company = page.getByRole('region', { name: 'Company' });
    await company.getByRole('button', { name: `Switch to ${other} for the next sign-in` }).click();
    await expect(company.getByRole('listitem').filter({ hasText: other })).toContainText('Next sign-in');

    // The next sign-in, in a browser without the provider's session.
    await page.context().clearCookies();
    await logIn(page, email);
    await expect(page).toHaveURL(/\/demo\/$/);
    await expect(page.getByRole('row', { name: /company/ })).toContainText(other);
  });
});
