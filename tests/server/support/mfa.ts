import type { LightMyRequestResponse } from 'fastify';
import { totpCodeAt } from '../../../server/mfa/totp.ts';
import type { SmsMessage, SmsSender } from '../../../server/sms/sms-sender.ts';
import { openLoginScreen, submitLogin, type LoginLink, type TestBrowser } from './sign-in.ts';

export const API = '/api/sso/v3';

/** An SMS sender that keeps what it is given, so tests can read the texts and their codes. */
export function capturingSms() {
  const sent: SmsMessage[] = [];
  const sms: SmsSender = {
    async send(message) {
      sent.push(message);
    },
  };
  return {
    sms,
    sent,
    /** The code of the newest text to `to`. */
    latestCode(to: string): string {
      const text = sent.filter((message) => message.to === to).at(-1)?.text ?? '';
      const code = /#(\d{6})$/.exec(text)?.[1];
      if (!code) throw new Error(`no code was texted to ${to}`);
      return code;
    },
  };
}

/** The JSON of a step answer, failing the test with the body when the status is not 200. */
export function answer<T = Record<string, unknown>>(response: LightMyRequestResponse): T {
  if (response.statusCode !== 200) throw new Error(`expected 200, got ${response.statusCode}: ${response.body}`);
  return response.json<T>();
}

/** A step answer: the challenge and its parameters, or where the browser goes. */
export interface StepAnswer {
  challenge?: string;
  parameters?: Record<string, unknown>;
  redirect_to?: string;
}

/** Opens the login screen for `link` and submits the password; returns the login's answer. */
export async function logIn(browser: TestBrowser, link: LoginLink & { email: string; password: string }): Promise<{ answer: StepAnswer; codeVerifier: string }> {
  const { codeVerifier } = await openLoginScreen(browser, link);
  return { answer: answer<StepAnswer>(await submitLogin(browser, link.email, link.password)), codeVerifier };
}

/**
 * Past the screen a first factor set up at sign-in shows once (SAVE_RECOVERY_CODES): "I've saved my codes". Any other
 * answer is returned as it is. `codes` are the recovery codes that screen showed, if it did.
 */
export async function pastNewRecoveryCodes(browser: TestBrowser, done: StepAnswer): Promise<{ done: StepAnswer; codes?: string[] }> {
  if (done.challenge !== 'SAVE_RECOVERY_CODES') return { done };
  const codes = done.parameters?.recovery_codes as string[];
  return { done: answer<StepAnswer>(await browser.request('POST', `${API}/auth/mfa/recovery-codes`, {})), codes };
}

/**
 * Sets up an authenticator app from the MFA_SETUP screen; returns the secret and the answer after the first code, past
 * the new recovery codes the sign-in then shows (`codes`, when it did).
 */
export async function setUpTotp(browser: TestBrowser, now: number): Promise<{ secret: string; done: StepAnswer; codes?: string[] }> {
  const setup = answer<StepAnswer>(await browser.request('POST', `${API}/auth/2fa/initialization`, { type: 'totp' }));
  const secret = String(setup.parameters?.secret);
  const verified = answer<StepAnswer>(await browser.request('POST', `${API}/auth/2fa/verification`, { code: totpCodeAt(secret, now) }));
  return { secret, ...(await pastNewRecoveryCodes(browser, verified)) };
}
