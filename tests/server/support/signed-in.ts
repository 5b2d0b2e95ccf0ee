import { addUser } from '../../../server/admin/operations.ts';
import { totpCodeAt } from '../../../server/mfa/totp.ts';
import { followToClient } from './client-return.ts';
import { allowWhatTheAppAsks } from './consent.ts';
import { API, answer, logIn, setUpTotp, type StepAnswer } from './mfa.ts';
import { TestBrowser, type LoginLink } from './sign-in.ts';
import type { TestApp } from './test-app.ts';

/** A user with an authenticator app set up, and the secret to make its codes. */
export interface TotpUser {
  email: string;
  password: string;
  secret: string;
}

/** Adds a user and signs them in once in a new browser, setting up an authenticator app (MFA is on by default). */
export async function userWithTotp(server: TestApp, email: string, now: number, ip?: string): Promise<{ user: TotpUser; browser: TestBrowser; callback: URL; codeVerifier: string }> {
  const password = 'Operator-Test-Passw0rd!';
  await addUser({ db: server.db }, { email, password });
  const browser = new TestBrowser(server.app, ip);
  const { answer: login, codeVerifier } = await logIn(browser, { ...server.publicClient, email, password });
  if (login.challenge !== 'MFA_SETUP') throw new Error(`expected MFA_SETUP, got ${JSON.stringify(login)}`);
  const { secret, done } = await setUpTotp(browser, now);
  const callback = await followToClient(browser, String(done.redirect_to), server.publicClient.redirectUri);
  return { user: { email, password, secret }, browser, callback, codeVerifier };
}

/** Signs an existing TOTP user in in a new browser (or `browser`), through `link`, up to the client's callback. */
export async function signInWithTotp(
  server: TestApp,
  user: TotpUser,
  at: number,
  options: { link?: LoginLink; browser?: TestBrowser } = {},
): Promise<{ browser: TestBrowser; callback: URL; codeVerifier: string }> {
  const link = options.link ?? server.publicClient;
  const browser = options.browser ?? new TestBrowser(server.app);
  const { answer: login, codeVerifier } = await logIn(browser, { ...link, email: user.email, password: user.password });
  if (login.challenge !== 'SOFTWARE_TOKEN_MFA') throw new Error(`expected SOFTWARE_TOKEN_MFA, got ${JSON.stringify(login)}`);
  const verified = answer<StepAnswer>(await browser.request('POST', `${API}/auth/mfa/verification`, { code: totpCodeAt(user.secret, at) }));
  const done = await allowWhatTheAppAsks(browser, verified);
  return { browser, callback: await followToClient(browser, String(done.redirect_to), link.redirectUri), codeVerifier };
}
