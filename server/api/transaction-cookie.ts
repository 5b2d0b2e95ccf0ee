import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { LIMITS } from '../limits.ts';

/** Options every write of the transaction cookie uses: script cannot read it, other sites cannot send it. */
export function transactionCookieOptions(config: Pick<Config, 'publicUrl'>) {
  const secure = config.publicUrl.startsWith('https:');
  return { httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge: LIMITS.TRANSACTION_TTL } as const;
}

/** `__Host-` binds the cookie to this exact host over https; plain http (development) cannot use the prefix. */
export function transactionCookieName(config: Pick<Config, 'publicUrl'>): string {
  return config.publicUrl.startsWith('https:') ? '__Host-sso_tx' : 'sso_tx';
}

/** The transaction token the browser holds, if any. */
export function readTransactionCookie(config: Pick<Config, 'publicUrl'>, request: FastifyRequest): string | undefined {
  const value = request.cookies[transactionCookieName(config)];
  return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
}

/** Forgets the transaction in the browser. */
export function clearTransactionCookie(config: Pick<Config, 'publicUrl'>, reply: FastifyReply): void {
  const { maxAge: _ignored, ...options } = transactionCookieOptions(config);
  reply.clearCookie(transactionCookieName(config), options);
}

/** Passes a sign-in's next answer on; once the sign-in has finished (the answer leads back to the app), the browser forgets its transaction. */
export function clearCookieWhenFinished<Answer extends object>(config: Pick<Config, 'publicUrl'>, reply: FastifyReply, answer: Answer): Answer {
  if ('redirect_to' in answer) clearTransactionCookie(config, reply);
  return answer;
}

/** The long-lived random cookie that tells a browser that signed in before from a new one (a sign-in from a new one is notified). */
export function browserCookieName(config: Pick<Config, 'publicUrl'>): string {
  return config.publicUrl.startsWith('https:') ? '__Host-sso_browser' : 'sso_browser';
}

/** The cookie of a browser the person trusted ("Don't ask for a code on this device"), bound to one user. */
export function trustCookieName(config: Pick<Config, 'publicUrl'>): string {
  return config.publicUrl.startsWith('https:') ? '__Host-sso_trust' : 'sso_trust';
}

/** Hands the browser its trusted-device token, for as long as the trust lasts. */
export function setTrustCookie(config: Pick<Config, 'publicUrl'>, reply: FastifyReply, token: string): void {
  reply.setCookie(trustCookieName(config), token, { ...transactionCookieOptions(config), maxAge: LIMITS.TRUSTED_DEVICE_TTL });
}
