import type { LightMyRequestResponse } from 'fastify';
import { exampleValuesOnTheWay, walkOn } from './flow-walk.ts';
import { openLoginScreen, TestBrowser } from './sign-in.ts';
import type { TestApp } from './test-app.ts';

const API = '/api/sso/v3';

/** A strong password no list knows. */
export const NEW_USER_PASSWORD = 'Quartz-Lantern-42!';

/** What the register form sends, with an unencrypted password (encrypted by `submitRegistration`). */
export interface RegistrationForm {
  email: string;
  firstName?: string;
  lastName?: string;
  password?: string;
  acceptTerms?: boolean;
}

/** A browser inside a client app's sign-in (at LOGIN_REQUIRED), as the register screen is. */
export async function browserAtSignIn(server: TestApp, ip?: string): Promise<TestBrowser> {
  const browser = new TestBrowser(server.app, ip);
  await openLoginScreen(browser, server.publicClient);
  return browser;
}

/**
 * Submits the register form as the web app does and, when it is accepted, the steps the flows put before the code
 * (job details), each with its example values. Answers the register form's response.
 */
export async function submitRegistration(browser: TestBrowser, form: RegistrationForm): Promise<LightMyRequestResponse> {
  const response = await browser.request('POST', `${API}/register`, {
    email: form.email,
    firstName: form.firstName ?? 'Ada',
    lastName: form.lastName ?? 'Lovelace',
    password: await browser.encrypt(form.password ?? NEW_USER_PASSWORD),
    acceptTerms: form.acceptTerms ?? true,
  });
  if (response.statusCode === 200) await walkOn(browser, 'register', response.json<object>());
  return response;
}

/** The values the steps between the register form and the code (job details) are given by submitRegistration. */
export const DETAILS_BEFORE_CODE = exampleValuesOnTheWay('register', { parameters: { delivery_destination: 'a•••@example.com' } });

/** Submits the emailed code. */
export function submitRegistrationCode(browser: TestBrowser, code: string): Promise<LightMyRequestResponse> {
  return browser.request('POST', `${API}/register/otp/verification`, { code });
}

/** Asks for another code. */
export function requestAnotherCode(browser: TestBrowser): Promise<LightMyRequestResponse> {
  return browser.request('POST', `${API}/register/otp`, {});
}

/** A code that is not `code`. */
export function otherCode(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}
