import type { RequestOrigin } from '../store/security-events.ts';
import type { SignInTransaction } from '../store/transactions.ts';

/** The address and browser that started the sign-in (startSignIn keeps them), for the events its steps record. */
export function signInOrigin(transaction: Pick<SignInTransaction, 'data'>): RequestOrigin {
  const origin = transaction.data.origin as { ip?: unknown; userAgent?: unknown } | undefined;
  return {
    ip: typeof origin?.ip === 'string' ? origin.ip : undefined,
    userAgent: typeof origin?.userAgent === 'string' ? origin.userAgent : undefined,
  };
}

/** The hash of the browser's long-lived cookie, kept with the sign-in: tells a browser new to the account. */
export function signInBrowser(transaction: Pick<SignInTransaction, 'data'>): string | undefined {
  const origin = transaction.data.origin as { browserHash?: unknown } | undefined;
  return typeof origin?.browserHash === 'string' ? origin.browserHash : undefined;
}
