/**
 * The walks of the generated navigation test (e2e/every-step-navigation.spec.ts): how each starts, and where it
 * ends. Walks run in order and hand on what later ones need (an account with the app set up, a notice's link).
 */
import { expect, type Page } from '@playwright/test';
import { authorizationQuery } from './authorization-query.ts';
import { demoUrl } from './demo-origin.ts';
import { outboxMatch } from './dev-outbox.ts';
import { freshCode, PASSWORD, SETTLE_MS, sso, submit, uniqueEmail, type Walk } from './navigation-passes.ts';
import { saveNewRecoveryCodes } from './recovery-codes.ts';

/** One walk: how it starts, and the step it ends on (or the client app). */
export interface WalkPlan {
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
/** The invitation link the invitation walk accepted. */
let acceptedInvitationLink: string | undefined;

/**
 * On a browser of its own (the device the person later loses), the user's first sign-in at the product's address
 * sets up email as the second factor, which ends with the account's first recovery codes; answers one of them.
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
  const [code] = await saveNewRecoveryCodes(device);
  await expect(device.getByRole('heading', { name: 'Your account', level: 1 })).toBeVisible({ timeout: SETTLE_MS });
  await context.close();
  if (!code) throw new Error('the first sign-in showed no recovery codes');
  return code.trim();
}

/** Notes, after each step a walk passes, what it leaves for later walks: the authenticator app it set up. */
export function rememberWalk(walk: Walk): void {
  if (walk.secret) totpSecret = walk.secret;
}

export const WALKS: readonly WalkPlan[] = [
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
      acceptedInvitationLink = await outboxMatch(page.request, walk.email, /(https?:\/\/\S+invitation=[A-Za-z0-9_-]+)/, { timeout: 15_000 });
      await page.goto(acceptedInvitationLink);
    },
  },
  {
    name: 'the accepted invitation link offers to log in',
    walk: () => ({ email: uniqueEmail('used-invitation'), password: PASSWORD, methods: [] }),
    start: async (page) => {
      if (!acceptedInvitationLink) throw new Error('the invitation walk accepts the invitation first');
      await page.goto(acceptedInvitationLink);
    },
  },
  {
    name: 'a partner app that is not first-party asks what it may see',
    walk: () => {
      const email = uniqueEmail('consent');
      sso('user', 'add', '--email', email, '--password', PASSWORD);
      return { email, password: PASSWORD, methods: ['email'] };
    },
    start: async (page, walk) => {
      const clientId = `nav-partner-${walk.email.split('@')[0]}`;
      const redirectUri = demoUrl(`http://localhost:${process.env.E2E_MFA_PORT}`, `/demo/${clientId}/callback`);
      sso('client', 'add', '--client-id', clientId, '--name', 'Navigation Partner', '--redirect-uri', redirectUri, '--public');
      await page.goto(`/oidc/auth?${authorizationQuery(clientId, redirectUri, { scope: 'openid email profile' }).toString()}`);
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
