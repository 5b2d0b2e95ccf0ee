import { FACTOR_KINDS, type FactorKind } from '../store/mfa-factors.ts';
import type { SignInTransaction } from '../store/transactions.ts';

/** The second factor a sign-in is working on, kept in the transaction's data under `mfa`. */
export interface MfaProgress {
  kind: FactorKind;
  factorId: string;
  /** True while the factor is being set up (its first code confirms it), false when it signs the user in. */
  setup: boolean;
}

const isKind = (value: unknown): value is FactorKind => typeof value === 'string' && (FACTOR_KINDS as readonly string[]).includes(value);

/** The factor in progress, if the transaction has one. */
export function readProgress(transaction: SignInTransaction): MfaProgress | undefined {
  const value = transaction.data.mfa;
  if (typeof value !== 'object' || value === null) return undefined;
  const { kind, factorId, setup } = value as Record<string, unknown>;
  if (!isKind(kind) || typeof factorId !== 'string' || typeof setup !== 'boolean') return undefined;
  return { kind, factorId, setup };
}

/**
 * Authentication method references (RFC 8176) for a sign-in whose second factor was `kind`: a password, and then
 * a one-time code; `sms` says it came by text message. Without a second factor, only `pwd`.
 */
export function amrFor(kind: Exclude<FactorKind, 'passkey'> | undefined): string[] {
  if (kind === undefined) return ['pwd'];
  return kind === 'sms' ? ['pwd', 'mfa', 'otp', 'sms'] : ['pwd', 'mfa', 'otp'];
}

/** The `amr` a transaction has earned so far. */
export function readAmr(transaction: SignInTransaction): string[] {
  const value = transaction.data.amr;
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : amrFor(undefined);
}

/** Whether the sign-in has passed (or set up) its second factor. */
export function mfaPassed(transaction: SignInTransaction): boolean {
  return transaction.data.mfaPassed === true;
}

/** The `amr` value (RFC 8176 leaves room for our own) saying a recovery code stood in for the second factor. */
export const RECOVERY_CODE_AMR = 'rc';

/** Whether the sign-in got past its second factor with a recovery code, and so must set up a new factor. */
export function usedRecoveryCode(transaction: SignInTransaction): boolean {
  return transaction.data.recoveryCodeUsed === true;
}
