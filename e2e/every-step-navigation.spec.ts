/**
 * The generated navigation test: every step of every flow (read from flows/*.json) is reached through the real
 * server with MFA on (the default), then the browser's Back, Forward and Reload are pressed, and after each the
 * screen must be usable: a visible heading, an enabled action or link, no empty choice list, no text blaming the
 * server. A finished sign-in pressed Back into must show the honest "You're signed in" screen.
 *
 * Walks share a sign-in across the steps they pass; how each step is passed is the `pass` table below, keyed by
 * step id. A step no walk reaches fails the test by name: give it a walk (WALKS) or a way past it (`pass`).
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { readFlowSteps, stepAt, type FlowStep } from './support/flow-steps.ts';
import { appCode, shownSecret } from './support/authenticator-app.ts';
import { outboxMatch } from './support/dev-outbox.ts';

test.use({ baseURL: `http://localhost:${process.env.E2E_MFA_PORT}` });

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'Quartz-Lantern-42!';
const NEW_PASSWORD = 'Copper-Meadow-77?';
const PHONE = '+447700900123';
/** Text that blames the server or a failure, never acceptable after Back, Forward or Reload. */
const BLAME = /on our side|something went wrong|page not found/i;
/** How long a screen may take to settle after a navigation. */
const SETTLE_MS = 15_000;

const STEPS = readFlowSteps();

/**
 * Steps checked only by their address (opened from anywhere): why no walk stops on them. Each still gets the
 * address check below; a step missing from both the walks and this list fails the test.
 */
const BY_ADDRESS_ONLY: Readonly<Record<string, string>> = {
  error: 'a failure screen: a walk that reached it would be a failing walk',
  'not-found': 'shown for an address no step owns',
  'not-available': 'shown for a challenge no step claims',
  'register-resend': "its link waits for the server's 60 s resend cooldown",
  'terms-conditions': 'opens in a new tab of its own, with no history to go Back in',
  help: "opens from the frame's help link in a tab of its own, with no history to go Back in",
  'company-choice': 'shown only with company-selection-removal off, not the default flags this test runs',
  'passkey-sign-in': "needs a WebAuthn authenticator: walked in e2e/passkeys.spec.ts with Chromium's virtual authenticator",
  'mfa-passkey': "needs a WebAuthn authenticator: walked in e2e/passkeys.spec.ts with Chromium's virtual authenticator",
  'mfa-passkey-setup': "needs a WebAuthn authenticator: walked in e2e/passkeys.spec.ts with Chromium's virtual authenticator",
};

/** What a walk knows as it goes. */
interface Walk {
  email: string;
  password: string;
  methods: Array<'email' | 'sms' | 'totp'>;
  secret?: string;
  invitationLink?: string;
  /** A recovery code the walk signs in with instead of its second factor (once). */
  recoveryCode?: string;
}

/** Runs the admin CLI against the MFA server's data dir. */
function sso(...args: string[]): void {
  const dataDir = process.env.E2E_MFA_DATA_DIR;
  if (!dataDir) throw new Error('E2E_MFA_DATA_DIR is not set: playwright.config.ts exports it');
  execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/sso.ts', ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, stdio: 'pipe' });
}

const uniqueEmail = (label: string) => `nav-${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

const CODE = /(?:Your code is |#|\b)(\d{6})\b/;
const usedCodes: string[] = [];
async function freshCode(page: Page, to: string): Promise<string> {
  const code = await outboxMatch(page.request, to, CODE, { notIn: usedCodes, timeout: 15_000 });
  usedCodes.push(code);
  return code;
}

async function submit(page: Page): Promise<void> {
  await page.locator('main form button[type="submit"]').first().click();
}

/** A walk holding a recovery code takes the second-factor screen's "Use a recovery code" link instead of its code; true when it did. */
async function tookRecoveryLink(page: Page, walk: Walk): Promise<boolean> {
  if (!walk.recoveryCode) return false;
  await page.getByRole('link', { name: 'Use a recovery code', exact: true }).click();
  return true;
}

/** How a walk gets past each step. A new step needs an entry here (or in BY_ADDRESS_ONLY). */
const pass: Readonly<Record<string, (page: Page, walk: Walk) => Promise<void>>> = {
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
  'not-me': async (page) => {
    await page.getByRole('button', { name: 'Sign out everywhere and secure my account' }).click();
  },
  'not-me-expired': async (page) => {
    await page.getByRole('link', { name: 'Choose a new password' }).click();
  },
  register: async (page, walk) => {
    await page.getByLabel('Email', { exact: true }).fill(walk.email);
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByLabel('Password', { exact: true }).fill(walk.password);
    await page.getByLabel('I accept the Terms and Conditions').check();
    await page.getByRole('button', { name: 'Register' }).click();
  },
  'job-details': async (page) => {
    await page.getByLabel('Job title').fill('Treasury analyst');
    await page.getByLabel('Department').fill('Finance');
    await submit(page);
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
};

/** One walk: how it starts, and the step it ends on (or the client app). */
interface WalkPlan {
  name: string;
  start: (page: Page, walk: Walk) => Promise<void>;
  walk: () => Walk;
  /** The walk is over at this step (checked, not passed). */
  endAt?: string;
}

async function fromDemo(page: Page, link: RegExp): Promise<void> {
  await page.goto('/demo/');
  await page.getByRole('link', { name: link }).first().click();
}

let totpSecret: string | undefined;
let totpEmail: string | undefined;
/** The user whose recovery-code walk left security notices in the outbox. */
let recoveryEmail: string | undefined;
/** The "This wasn't me" link the notice walk used up. */
let usedNotMeLink: string | undefined;

/**
 * On a browser of its own (the device the person later loses), the user's first sign-in at the product's address
 * sets up email as the second factor, and the account page makes recovery codes; answers one of them.
 */
async function makeRecoveryCodes(page: Page, email: string): Promise<string> {
  const context = await page.context().browser()?.newContext();
  if (!context) throw new Error('the walk needs a browser to make recovery codes in');
  const device = await context.newPage();
  await device.goto('/auth/');
  await device.getByLabel('Email', { exact: true }).fill(email);
  await device.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await device.getByRole('button', { name: 'Log In' }).click();
  await device.getByRole('radio', { name: /^Email/ }).check();
  await device.getByRole('button', { name: 'Continue' }).click();
  await device.locator('main input[autocomplete="one-time-code"]').first().fill(await freshCode(device, email));
  await submit(device);
  await expect(device.getByRole('heading', { name: 'Your account', level: 1 })).toBeVisible({ timeout: SETTLE_MS });
  const recovery = device.getByRole('region', { name: 'Recovery codes' });
  await recovery.getByRole('button', { name: 'Make recovery codes' }).click();
  const codes = recovery.getByRole('list', { name: 'Your new recovery codes' }).getByRole('listitem');
  const stepUp = device.getByRole('heading', { name: 'Confirm it is you' });
  await expect(codes.first().or(stepUp)).toBeVisible({ timeout: SETTLE_MS });
  if (await stepUp.isVisible()) {
    await device.getByRole('button', { name: 'Send code', exact: true }).click();
    await device.getByLabel('Code we sent you', { exact: true }).fill(await freshCode(device, email));
    await device.getByRole('button', { name: 'Confirm', exact: true }).click();
  }
  await expect(codes).toHaveCount(10, { timeout: SETTLE_MS });
  const code = ((await codes.first().textContent()) ?? '').trim();
  await recovery.getByRole('button', { name: 'I have saved them' }).click();
  await context.close();
  return code;
}

const WALKS: readonly WalkPlan[] = [
  {
    name: 'a new user sets up the authenticator app',
    walk: () => {
      const email = uniqueEmail('setup');
      sso('user', 'add', '--email', email, '--password', PASSWORD);
      totpEmail = email;
      return { email, password: PASSWORD, methods: ['totp'] };
    },
    start: (page) => fromDemo(page, /Account Area/),
  },
  {
    name: 'a new user sets up text messages',
    walk: () => {
      const email = uniqueEmail('sms');
      sso('user', 'add', '--email', email, '--password', PASSWORD);
      return { email, password: PASSWORD, methods: ['sms'] };
    },
    start: (page) => fromDemo(page, /Account Area/),
  },
  {
    name: 'a new person registers',
    walk: () => ({ email: uniqueEmail('register'), password: PASSWORD, methods: ['email'] }),
    start: (page) => fromDemo(page, /Create an account/),
  },
  {
    name: 'a pre-registered person completes the account',
    walk: () => {
      const email = uniqueEmail('pre');
      sso('user', 'add', '--email', email, '--pre-registered');
      return { email, password: PASSWORD, methods: ['email'] };
    },
    start: (page) => fromDemo(page, /Create an account/),
  },
  {
    name: 'a user recovers a forgotten password',
    walk: () => {
      const email = uniqueEmail('recover');
      sso('user', 'add', '--email', email, '--password', PASSWORD);
      return { email, password: PASSWORD, methods: ['email'] };
    },
    start: async (page) => {
      await fromDemo(page, /Account Area/);
      await page.getByRole('link', { name: 'Forgot password?' }).click();
    },
    endAt: 'login',
  },
  {
    name: 'a user with a temporary password sets a new one',
    walk: () => {
      const email = uniqueEmail('temporary');
      sso('user', 'add', '--email', email, '--password', PASSWORD, '--temporary');
      return { email, password: PASSWORD, methods: ['email'] };
    },
    start: (page) => fromDemo(page, /Account Area/),
  },
  {
    name: 'an invited person accepts the invitation',
    walk: () => {
      const email = uniqueEmail('invited');
      sso('company', 'add', `Nav ${email}`);
      sso('invite', '--email', email, '--company', `Nav ${email}`);
      return { email, password: PASSWORD, methods: ['email'] };
    },
    start: async (page, walk) => {
      await page.goto(await outboxMatch(page.request, walk.email, /(https?:\/\/\S+invitation=[A-Za-z0-9_-]+)/, { timeout: 15_000 }));
    },
  },
  {
    name: 'an unknown invitation link asks for a new invitation',
    walk: () => ({ email: uniqueEmail('expired'), password: PASSWORD, methods: [] }),
    start: async (page) => {
      await page.goto('/auth/login?invitation=no-such-invitation-token');
    },
  },
  {
    name: 'the user with an authenticator app signs in with it',
    walk: () => {
      if (!totpEmail || !totpSecret) throw new Error('the first walk sets up the authenticator app');
      return { email: totpEmail, password: PASSWORD, methods: ['totp'], secret: totpSecret };
    },
    start: (page) => fromDemo(page, /Account Area/),
  },
  {
    name: 'a user who lost their phone signs in with a recovery code and sets up a new factor',
    walk: () => {
      const email = uniqueEmail('recovery');
      sso('user', 'add', '--email', email, '--password', PASSWORD);
      recoveryEmail = email;
      return { email, password: PASSWORD, methods: ['email', 'email'] };
    },
    start: async (page, walk) => {
      walk.recoveryCode = await makeRecoveryCodes(page, walk.email);
      await fromDemo(page, /Account Area/);
    },
  },
  {
    name: "a security notice's \"This wasn't me\" link secures the account",
    walk: () => {
      if (!recoveryEmail) throw new Error('the recovery-code walk leaves the security notices this walk opens');
      return { email: recoveryEmail, password: PASSWORD, methods: [] };
    },
    start: async (page, walk) => {
      usedNotMeLink = await outboxMatch(page.request, walk.email, /This wasn't me: (\S+)/, { timeout: 15_000 });
      await page.goto(usedNotMeLink);
    },
    endAt: 'not-me-done',
  },
  {
    name: 'a "This wasn\'t me" link opened again after it was used says it no longer works',
    walk: () => ({ email: recoveryEmail ?? uniqueEmail('not-me'), password: PASSWORD, methods: [] }),
    start: async (page) => {
      if (!usedNotMeLink) throw new Error('the notice walk uses up the link this walk opens again');
      await page.goto(usedNotMeLink);
    },
    endAt: 'forgot-password',
  },
];

/** Counts of what the test covered. */
const covered = { steps: new Set<string>(), actions: 0, byAddress: new Set<string>() };

/** Waits for the screen to settle: no spinner, no busy card, a heading. */
async function settled(page: Page, where = 'a screen'): Promise<void> {
  await expect(page.locator('main[aria-busy="true"]'), `${where}: done loading`).toHaveCount(0, { timeout: SETTLE_MS });
  await expect(page.locator('main .spinner'), `${where}: no spinner left (at ${page.url()})`).toHaveCount(0, { timeout: SETTLE_MS });
}

/** The step a flow screen shows now, or undefined outside the web app (the client app). */
function currentStep(page: Page): FlowStep | undefined {
  return stepAt(STEPS, new URL(page.url()).pathname);
}

/** Asserts a usable screen: heading, an enabled action or link, no empty choice list, no blame. */
async function expectUsable(page: Page, context: string): Promise<void> {
  await settled(page, context);
  const where = `${context} (now at ${new URL(page.url()).pathname})`;
  // Back past the first page of a fresh browser leaves for its start page: nothing of ours to check there.
  if (!page.url().startsWith('http')) return;
  if (!new URL(page.url()).pathname.startsWith('/auth/')) {
    // Back or Forward may leave the web app for the client app: its own page must have loaded.
    await expect(page.locator('body'), where).not.toBeEmpty();
    return;
  }
  await expect(page.locator('main h1').first(), `${where}: a visible heading`).toBeVisible({ timeout: SETTLE_MS });
  // An end screen by design (flows' `terminal`) may leave the way on to the frame's help link.
  const terminal = currentStep(page)?.terminal === true;
  const ways = page.locator(terminal ? '.help-link' : 'main a[href]:visible, main button:not([disabled]):not(.back-button):visible');
  await expect.poll(() => ways.count(), { message: `${where}: an enabled action or link` }).toBeGreaterThan(0);
  for (const group of await page.locator('main [role="radiogroup"]').all()) {
    await expect(group.getByRole('radio'), `${where}: a choice list with choices`).not.toHaveCount(0);
  }
  await expect(page.locator('main'), `${where}: no text blaming the server`).not.toContainText(BLAME);
}

/** Back, Forward, Reload on the step shown now, each followed by the usability check. */
async function pressBackForwardReload(page: Page, step: FlowStep): Promise<void> {
  await page.goBack();
  await expectUsable(page, `Back from ${step.id}`);
  await page.goForward();
  await expectUsable(page, `Forward to ${step.id}`);
  await page.reload();
  await expectUsable(page, `Reload of ${step.id}`);
  covered.actions += 3;
  covered.steps.add(step.id);
}

/** Waits until the page shows a flow step with a screen of its own (or has left for the client app); the step, if any. */
async function arrive(page: Page, previous: string | undefined): Promise<FlowStep | undefined> {
  await expect
    .poll(
      () => {
        const step = currentStep(page);
        return !new URL(page.url()).pathname.startsWith('/auth/') || (step !== undefined && !step.passThrough);
      },
      { timeout: SETTLE_MS, message: `a screen after ${previous ?? 'the start'} (at ${page.url()})` },
    )
    .toBe(true);
  await settled(page);
  return currentStep(page);
}

/**
 * Runs `plan` and checks every step it passes that is not covered yet. After the checks the step is reached afresh
 * (its history entry replayed by a new run of the walk) when Back, Forward or Reload moved the sign-in on.
 */
async function runWalk(page: Page, plan: WalkPlan): Promise<void> {
  const walk = plan.walk();
  await plan.start(page, walk);
  let previous: string | undefined;
  const seen: string[] = [];
  for (let moves = 0; moves < 20; moves += 1) {
    const step = await arrive(page, previous);
    seen.push(step?.id ?? new URL(page.url()).pathname);
    if (!step) {
      // Back from the client app into the finished sign-in: the honest screen of item 3, never blame.
      if (!covered.steps.has('sign-in-ended')) {
        await page.goBack();
        await expectUsable(page, 'Back from the client app after signing in');
        await expect(page.locator('main h1')).toHaveText(/signed in to|sign-in has ended/i);
        const ended = currentStep(page);
        if (ended) await pressBackForwardReload(page, ended);
      }
      return;
    }
    if (!covered.steps.has(step.id)) {
      await expectUsable(page, `${step.id} as reached`);
      const address = page.url();
      await pressBackForwardReload(page, step);
      // Back, Forward and Reload may have moved the sign-in (a used code, a choice asked again): go on from the step's address.
      if (page.url() !== address) await page.goto(address);
      const again = await arrive(page, undefined);
      if (again?.id !== step.id) {
        await runWalk(page, plan);
        return;
      }
    }
    if ((step.id === plan.endAt && moves > 0) || step.terminal) return;
    const passStep = pass[step.id];
    if (!passStep) throw new Error(`The walk "${plan.name}" reached step "${step.id}" (flow ${step.flowId}) and has no way past it: add one to \`pass\``);
    await passStep(page, walk);
    if (walk.secret) totpSecret = walk.secret;
    previous = step.id;
    const before = page.url();
    // Most steps move to another address; one that stays (a code screen's next code) is read again as it is.
    await page.waitForURL((url) => url.href !== before, { timeout: SETTLE_MS }).catch(() => undefined);
    const refusal = page.locator('main [role="alert"]');
    if (page.url() === before && (await refusal.count()) > 0) {
      throw new Error(`The walk "${plan.name}" could not pass ${step.id}: ${await refusal.first().textContent()} (${seen.join(' → ')})`);
    }
  }
  throw new Error(`The walk "${plan.name}" did not end within 20 screens: ${seen.join(' → ')}`);
}

test('every step of every flow survives Back, Forward and Reload, and opens by its address', async ({ browser }) => {
  test.setTimeout(8 * 60_000);
  for (const plan of WALKS) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await test.step(plan.name, () => runWalk(page, plan));
    await context.close();
  }
  // Every step opened by its address from a fresh browser ("a link from anywhere"): a usable screen, never blame.
  const context = await browser.newContext();
  const page = await context.newPage();
  // The query a client app's own link carries: a complete authorize request, PKCE (S256) and state included.
  const client = new URLSearchParams({
    client_id: 'sso-account',
    redirect_uri: `http://localhost:${process.env.E2E_MFA_PORT}/demo/user-management/auth/callback`,
    response_type: 'code',
    scope: 'openid',
    state: randomBytes(16).toString('base64url'),
    code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  for (const step of STEPS) {
    const route = step.route.replace(/\/:[a-z_]+\?/g, '').replace(/:[a-z_]+/g, 'x');
    await page.goto(`/auth/${route}?${client}`);
    // "Page not found" is the not-found step's own, honest headline.
    if (step.id === 'not-found') {
      await expect(page.locator('main h1')).toHaveText(/page not found/i);
      covered.byAddress.add(step.id);
      continue;
    }
    await expectUsable(page, `${step.id} opened by its address`).catch((error: unknown) => {
      throw new Error(`${step.id} opened by its address: ${String(error)}`);
    });
    covered.byAddress.add(step.id);
  }
  await context.close();
  const unreached = STEPS.filter((step) => !covered.steps.has(step.id) && !step.passThrough && BY_ADDRESS_ONLY[step.id] === undefined).map((step) => `${step.flowId}/${step.id}`);
  console.log(
    `navigation: ${covered.steps.size} steps walked with Back, Forward and Reload (${covered.actions} actions), ${covered.byAddress.size} of ${STEPS.length} steps opened by address`,
  );
  expect(unreached, 'steps no walk reached: give each a walk (WALKS) or a way past the step before it (pass)').toEqual([]);
});
