/**
 * The sign-up walk several specs start from: the demo client's "Create an account" up to the second factor's setup.
 * Its steps come from the flows (e2e/support/flow-examples.ts): every step from register to the mailed code is filled
 * from its example inputs, so a step added as JSON is walked here with no edit.
 */
import { expect, type Page } from '@playwright/test';
import { outboxCode } from './dev-outbox.ts';
import { CODE_SENT, flowExamples, type FilledStep } from './flow-examples.ts';

const examples = flowExamples();

/** Checks the page shows `step` (its title), fills its fields by their labels, and presses its submit button. */
export async function fillStep(page: Page, step: FilledStep): Promise<void> {
  await expect(page, `the step ${step.id}`).toHaveTitle(step.title);
  for (const field of step.fields) {
    const input = page.getByLabel(field.label, { exact: true });
    if (field.value === true) await input.check();
    else await input.fill(String(field.value));
  }
  await page.getByRole('button', { name: step.submit, exact: true }).click();
}

/** The register steps up to the mailed code, filled for `email` and `password` (and any other `known` values). */
export function signUpSteps(email: string, password: string, known: Readonly<Record<string, unknown>> = {}) {
  return examples.walk('register', CODE_SENT, { ...known, email, password });
}

/** Registers `email` from the demo client: every register step from the flows, and the mailed code. */
export async function submitSignUp(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/demo/');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await fillSignUp(page, email, password);
}

/** From the register screen on show: every register step from the flows, and the mailed code. */
export async function fillSignUp(page: Page, email: string, password: string): Promise<void> {
  const { steps, stopsAt } = signUpSteps(email, password);
  for (const step of steps) await fillStep(page, step);
  await fillStep(page, examples.single(stopsAt, await outboxCode(page.request, email)));
}

/** Registers `email` and stops at the MFA setup choice, which a server with MFA required shows next. */
export async function signUpToFactorSetup(page: Page, email: string, password: string): Promise<void> {
  await submitSignUp(page, email, password);
  await expect(page).toHaveTitle('Authenticate | Add Alternative Authentication Method');
}
