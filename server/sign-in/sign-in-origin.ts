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
