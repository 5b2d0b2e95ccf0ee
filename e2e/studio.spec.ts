/**
 * The flow studio (npm run studio) as product staff use it, over a temporary copy of the flows: a saved word shows in
 * the rendered step, a dangling `next` shows its flows:check problem beside its step, and the diagram opens a step.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startTestStudio, type TestStudio } from './support/studio.ts';

const ROOT = join(import.meta.dirname, '..');
/** A saved file shows in the open page within a second; a loaded 2-core machine takes several. */
const LIVE_UPDATE_MS = 15_000;
/** The problems follow once flows:check has run over the saved files, which takes seconds on a loaded machine. */
const CHECKS_MS = 20_000;
/** The first frames load the whole app from the dev server, which takes a while on a loaded machine. */
const FIRST_FRAME_MS = 60_000;
/** A walk builds the web app from the copy, starts a real server and signs in with MFA set up. */
const WALK_MS = 300_000;

let studio: TestStudio;

// A test waits for the dev server's first frames of a step; on a loaded 2-core machine that alone can take a minute or two.
test.describe.configure({ timeout: 240_000 });
test.beforeAll(async () => {
  test.setTimeout(120_000);
  studio = await startTestStudio();
});
test.afterAll(async () => {
  await studio.stop();
});

const open = (page: Page, query: string) => page.goto(`${studio.url}?${query}`);
const frame = (page: Page, title: string) => page.frameLocator(`iframe[title="${title}"]`);

test('the studio renders a step with the real renderer in English and German, at desktop and 360 px, with its validation messages', async ({ page }) => {
  await open(page, 'flow=registration&step=register');
  await expect(frame(page, 'register Example inputs in en at desktop').getByRole('heading', { name: 'Welcome! Create your account' })).toBeVisible({ timeout: FIRST_FRAME_MS });
  await expect(frame(page, 'register Example inputs in de at 360 px').getByRole('heading', { name: 'Willkommen! Erstellen Sie Ihr Konto' })).toBeVisible();
  await expect(frame(page, 'register Example inputs in en at desktop').getByLabel('First name')).toHaveValue('Ada');
  await page.getByText('Refused example 1').click();
  await expect(frame(page, 'register Refused example 1 in de at desktop').getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein', { exact: false })).toBeVisible({ timeout: FIRST_FRAME_MS });
});

test('a word saved in the flow copy changes in the open page, and the repository stays as it was', async ({ page }) => {
  const committed = readFileSync(join(ROOT, 'flows/messages/registration/en.json'), 'utf8');
  await open(page, 'flow=registration&step=register');
  const desktop = frame(page, 'register Example inputs in en at desktop');
  await expect(desktop.getByRole('heading', { name: 'Welcome! Create your account' })).toBeVisible({ timeout: FIRST_FRAME_MS });
  studio.editJson('flows/messages/registration/en.json', (words) => {
    words['register.headline'] = 'Welcome aboard! Open your account';
  });
  await expect(desktop.getByRole('heading', { name: 'Welcome aboard! Open your account' })).toBeVisible({ timeout: LIVE_UPDATE_MS });
  await expect(frame(page, 'register Example inputs in en at 360 px').getByRole('heading', { name: 'Welcome aboard! Open your account' })).toBeVisible();
  expect(readFileSync(join(ROOT, 'flows/messages/registration/en.json'), 'utf8')).toBe(committed);
});

test('"Walk this flow" walks the flow copy as edited, not the last build of the web app', async ({ page }) => {
  // The web app is built from the copy and a real server started on it: minutes on a loaded machine.
  test.setTimeout(360_000);
  const committed = readFileSync(join(ROOT, 'flows/messages/en.json'), 'utf8');
  studio.editJson('flows/messages/en.json', (words) => {
    words['login.headline'] = 'Sign in to carry on';
  });
  await open(page, 'flow=login');
  await page.getByRole('button', { name: 'Walk this flow' }).click();
  const walk = page.getByRole('region', { name: 'Walk' });
  await expect(walk).toContainText('Walk: login/happy', { timeout: WALK_MS });
  await expect(walk.getByRole('img', { name: 'Screen 1: Sign in to carry on' })).toBeVisible();
  expect(readFileSync(join(ROOT, 'flows/messages/en.json'), 'utf8')).toBe(committed);
});

test('a dangling next shows its flows:check problem and fix beside its step', async ({ page }) => {
  await open(page, 'flow=registration&step=job-details');
  const problems = page.getByRole('region', { name: 'Problems of job-details' });
  await expect(problems).toContainText('flows:check finds no problem with this step.', { timeout: FIRST_FRAME_MS });
  studio.editJson('flows/registration.json', (flow) => {
    const steps = flow.steps as Record<string, { next: { go: string }[] }>;
    steps['job-details']!.next[0]!.go = 'register-verificaton';
  });
  await expect(problems).toContainText('register-verificaton', { timeout: CHECKS_MS });
  await expect(problems).toContainText('Fix: use one of: register-verification');
  await expect(page.getByRole('button', { name: /job-details.*1 problems/ })).toBeVisible();
  // The step list shows one panel at a time: the register step, which the mistake does not concern, has no problem badge.
  await expect(page.getByRole('navigation', { name: 'Flows and steps' }).getByRole('button', { name: 'register', exact: true })).toBeVisible();
});

test('a step box of the flow diagram opens its step', async ({ page }) => {
  await open(page, 'flow=registration');
  await page.locator('.studio-diagram g#step-terms-conditions').click();
  await expect(page.getByRole('region', { name: 'Step terms-conditions' })).toBeVisible();
  await expect(page).toHaveURL(/step=terms-conditions/);
});
