import { calculatePKCECodeChallenge, randomPKCECodeVerifier } from 'openid-client';
import { API } from './mfa.ts';
import type { TestBrowser } from './sign-in.ts';
import { TEST_PUBLIC_URL } from './test-app.ts';

/** The token of the invitation link in a mail's text. */
export function invitationToken(text: string): string {
  const href = /(https?:\/\/\S+invitation=[A-Za-z0-9_-]+)/.exec(text)?.[1];
  if (!href) throw new Error(`no invitation link in: ${text}`);
  return new URL(href).searchParams.get('invitation') ?? '';
}

/** What the web app does with the link: the login step's init, then the client app's own sign-in with the invitation. */
export async function openInvitation(browser: TestBrowser, client: { clientId: string; redirectUri: string }, token: string) {
  const codeVerifier = randomPKCECodeVerifier();
  const query = new URLSearchParams({
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    state: 'state-inv',
    scope: 'openid email profile company',
    code_challenge: await calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    invitation: token,
  });
  const authorize = await browser.request('GET', `${API}/authorize?${query}`);
  const redirectTo = authorize.json<{ redirect_to?: string }>().redirect_to;
  if (!redirectTo) return { codeVerifier, answer: authorize.json<Record<string, unknown>>() };
  const provider = await browser.request('GET', redirectTo);
  const interaction = new URL(String(provider.headers.location), TEST_PUBLIC_URL).searchParams.get('interaction');
  const init = await browser.request('GET', `${API}/authorize?interaction=${interaction}`);
  return { codeVerifier, answer: init.json<Record<string, unknown>>() };
}

/** The invitation's password step as the web app submits it: names, password, terms. */
export async function choosePassword(browser: TestBrowser, password: string, details: Record<string, unknown> = { firstName: 'Ivy', lastName: 'Invited', acceptTerms: true }) {
  return browser.request('POST', `${API}/invitation/acceptance`, { ...details, password: await browser.encrypt(password) });
}
