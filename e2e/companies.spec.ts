import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'Company-Passw0rd!';

// The second e2e server, started by playwright.config.ts with the company picker on.
test.use({ baseURL: `http://localhost:${process.env.E2E_PICKER_PORT}` });

/** Runs the admin CLI against the picker server. */
function sso(...args: string[]): void {
  const dataDir = process.env.E2E_PICKER_DATA_DIR;
  if (!dataDir) throw new Error('E2E_PICKER_DATA_DIR is not set: playwright.config.ts exports it');
  execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/sso.ts', ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, stdio: 'pipe' });
}

const unique = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/** A user who belongs to the named companies (each made for this test). */
function userIn(companies: string[]): string {
  const email = `${unique('member')}@example.com`;
  sso('user', 'add', '--email', email, '--password', PASSWORD);
  for (const company of companies) {
    sso('company', 'add', company);
    sso('company', 'add-user', company, email);
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
