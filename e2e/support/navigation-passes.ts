/**
 * How the generated navigation test (e2e/every-step-navigation.spec.ts) gets past each step (`wayPast`), and what a
 * walk knows as it goes. A step with example inputs in its flow file is filled from them (e2e/support/flow-examples.ts),
 * so a step added as JSON needs nothing here; a step whose input only the run knows (a mailed code, an authenticator
 * app's) has its way in `pass`; a step no walk stops on has a reason in BY_ADDRESS_ONLY.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { appCode, shownSecret } from './authenticator-app.ts';
import { outboxMatch } from './dev-outbox.ts';
import { flowExamples } from './flow-examples.ts';
import { fillStep } from './sign-up.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const PASSWORD = 'Quartz-Lantern-42!';
const NEW_PASSWORD = 'Copper-Meadow-77?';
const PHONE = '+447700900123';
/** How long a screen may take to settle after a navigation. */
export const SETTLE_MS = 15_000;

/**
 * Steps checked only by their address (opened from anywhere): why no walk stops on them. Each still gets the
 * address check below; a step missing from both the walks and this list fails the test.
 */
export const BY_ADDRESS_ONLY: Readonly<Record<string, string>> = {
  error: 'a failure screen: a walk that reached it would be a failing walk',
  'not-found': 'shown for an address no step owns',
  'not-available': 'shown for a challenge no step claims',
  'open-app': "shown for a client's link that cannot start a sign-in by itself: walked in e2e/journey-links.spec.ts",
  'register-resend': "its link waits for the server's 60 s resend cooldown",
  'terms-conditions': 'opens in a new tab of its own, with no history to go Back in',
  help: "opens from the frame's help link in a tab of its own, with no history to go Back in",
  'company-choice': 'shown only with company-selection-removal off, not the default flags this test runs',
  'passkey-sign-in': "needs a WebAuthn authenticator: walked in e2e/passkeys.spec.ts with Chromium's virtual authenticator",
  'mfa-passkey': "needs a WebAuthn authenticator: walked in e2e/passkeys.spec.ts with Chromium's virtual authenticator",
  'mfa-passkey-setup': "needs a WebAuthn authenticator: walked in e2e/passkeys.spec.ts with Chromium's virtual authenticator",
};

/** What a walk knows as it goes. */
export interface Walk {
  email: string;
  password: string;
  methods: Array<'email' | 'sms' | 'totp'>;
  secret?: string;
  invitationLink?: string;
  /** A recovery code the walk signs in with instead of its second factor (once). */
  recoveryCode?: string;
}

/** Runs the admin CLI against the MFA server's data dir. */
export function sso(...args: string[]): void {
  const dataDir = process.env.E2E_MFA_DATA_DIR;
  if (!dataDir) throw new Error('E2E_MFA_DATA_DIR is not set: playwright.config.ts exports it');
  execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/sso.ts', ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, stdio: 'pipe' });
}

export const uniqueEmail = (label: string) => `nav-${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

const CODE = /(?:Your code is |#|\b)(\d{6})\b/;
const usedCodes: string[] = [];
/** The newest code sent to `to` that no walk has used yet. */
export async function freshCode(page: Page, to: string): Promise<string> {
  const code = await outboxMatch(page.request, to, CODE, { notIn: usedCodes, timeout: 15_000 });
  usedCodes.push(code);
  return code;
}

/** Submits the step's form. */
export async function submit(page: Page): Promise<void> {
  await page.locator('main form button[type="submit"]').first().click();
}

/** A walk holding a recovery code takes the second-factor screen's "Use a recovery code" link instead of its code; true when it did. */
async function tookRecoveryLink(page: Page, walk: Walk): Promise<boolean> {
  if (!walk.recoveryCode) return false;
  await page.getByRole('link', { name: 'Use a recovery code', exact: true }).click();
  return true;
}

/** How a walk gets past each step whose input only the run knows (a mailed code, the walk's own password). */
export const pass: Readonly<Record<string, (page: Page, walk: Walk) => Promise<void>>> = {
  login: async (page, walk) => {
    await page.getByLabel('Email', { exact: true }).fill(walk.email);
    await page.getByLabel('Password', { exact: true }).fill(walk.password);
    await page.getByRole('button', { name: 'Log In' }).click();
  },
  'mfa-select': async (page, walk) => {
    const method = walk.methods.shift() ?? 'email';
    const name = { email: /^Email/, sms: /Text message/, totp: /Authenticator app/ }[method];
    await page.getByRole('radio', { name }).check();
    await submit(page);
  },
  'mfa-phone': async (page) => {
    await page.getByLabel('Mobile number').fill(PHONE);
    await submit(page);
  },
  'mfa-otp': async (page, walk) => {
    if (await tookRecoveryLink(page, walk)) return;
    await page.locator('main input[autocomplete="one-time-code"]').first().fill(await freshCode(page, PHONE));
    await submit(page);
  },
  'mfa-email': async (page, walk) => {
    if (await tookRecoveryLink(page, walk)) return;
    await page.locator('main input[autocomplete="one-time-code"]').first().fill(await freshCode(page, walk.email));
    await submit(page);
  },
  'mfa-totp-setup': async (page, walk) => {
    walk.secret = await shownSecret(page);
    await page.locator('main input[autocomplete="one-time-code"]').first().fill(appCode(walk.secret));
    await submit(page);
  },
  'mfa-totp': async (page, walk) => {
    if (await tookRecoveryLink(page, walk)) return;
    if (!walk.secret) throw new Error('mfa-totp needs a walk that set up the authenticator app first');
    await page.locator('main input[autocomplete="one-time-code"]').first().fill(appCode(walk.secret));
    await submit(page);
  },
  'mfa-recovery': async (page, walk) => {
    if (!walk.recoveryCode) throw new Error('mfa-recovery needs a walk that made recovery codes first');
    await page.getByLabel('Recovery code', { exact: true }).fill(walk.recoveryCode);
    // A code works once: the walk goes on with the factor it sets up next.
    walk.recoveryCode = undefined;
    await submit(page);
  },
  // The codes show once: after the checker's Reload the step says so, and "I've saved my codes" still goes on.
  'mfa-recovery-codes': async (page) => {
    await submit(page);
  },
  'not-me': async (page) => {
    await page.getByRole('button', { name: 'Sign out everywhere and secure my account' }).click();
  },
  'not-me-expired': async (page) => {
    await page.getByRole('link', { name: 'Choose a new password' }).click();
  },
  'register-verification': async (page, walk) => {
    await page.locator('main input[autocomplete="one-time-code"]').first().fill(await freshCode(page, walk.email));
    await submit(page);
  },
  'register-update': async (page, walk) => {
    await page.getByLabel('First name').fill('Mary');
    await page.getByLabel('Last name').fill('Jackson');
    await page.getByLabel('Password', { exact: true }).fill(walk.password);
    await submit(page);
  },
  'register-success': async (page) => {
    await page.getByRole('link', { name: 'Continue to the app' }).click();
  },
  'forgot-password': async (page, walk) => {
    await page.getByLabel('Email', { exact: true }).fill(walk.email);
    await submit(page);
  },
  'forgot-password-sent': async (page) => {
    await page.getByRole('link', { name: 'Enter the code' }).click();
  },
  'change-password': async (page, walk) => {
    await page.locator('main input[autocomplete="one-time-code"]').first().fill(await freshCode(page, walk.email));
    walk.password = NEW_PASSWORD;
    await page.getByLabel('New password', { exact: true }).fill(walk.password);
    await submit(page);
  },
  'reset-password-success': async (page) => {
    await page.getByRole('link', { name: /log in/i }).first().click();
  },
  'new-password': async (page, walk) => {
    walk.password = NEW_PASSWORD;
    await page.getByLabel('New password', { exact: true }).fill(walk.password);
    await submit(page);
  },
  'invitation-password': async (page, walk) => {
    for (const [label, value] of [['First name', 'Katherine'], ['Last name', 'Johnson']] as const) {
      const field = page.getByLabel(label);
      if (await field.count()) await field.fill(value);
    }
    const terms = page.getByLabel('I accept the Terms and Conditions');
    if (await terms.count()) await terms.check();
    await page.getByLabel(/password/i).first().fill(walk.password);
    await submit(page);
  },
  'invitation-expired': async (page) => {
    await page.getByRole('button', { name: 'Email me a new invitation' }).click();
  },
  consent: async (page) => {
    await submit(page);
  },
};

const projectExamples = flowExamples();

/**
 * How a walk gets past step `id` of the project's flows (or of `examples`, a fixture's): its entry in `pass`, else its
 * example inputs (the walk's address and password in place).
 */
export function wayPast(id: string, examples = projectExamples): ((page: Page, walk: Walk) => Promise<void>) | undefined {
  const own = pass[id];
  if (own) return own;
  if (!examples.example(id)) return undefined;
  return (page, walk) => fillStep(page, examples.example(id, { email: walk.email, password: walk.password })!);
}
