import type { InteractionRefusal } from '../oidc/interaction-refusal.ts';
import type { Services } from '../services.ts';
import type { SignInTransaction } from '../store/transactions.ts';
import type { SignInState } from '../store/sign-in-state.ts';
import type { UserCredentials } from '../store/users.ts';

/** A sign-in whose user is known (password, code or link proved it) but which may still owe steps. */
export interface PendingSignIn {
  token: string;
  transaction: SignInTransaction;
  userId: string;
  /** The user's password state, when the step that proved the user has just read it; saves reading it again. */
  credentials?: UserCredentials;
  /** What the step just answered settled, not yet written: recorded with the sign-in's next move (or dropped as it finishes). */
  record?: Record<string, unknown>;
  /** What the gates read about the user, when the step that proved the user read it too; saves a round trip per gate. */
  known?: SignInState;
  /** The address a password was just accepted from: the sign-in's next write releases its guessing counts too. */
  releaseAttemptFrom?: string;
}

/** The challenge a gate answers with, and what the step's screen needs to show it. */
export interface GateAnswer {
  challenge: string;
  parameters?: Record<string, unknown>;
  /** What the move to `challenge` records in the transaction's data, in the same statement (never sent to the browser). */
  record?: Record<string, unknown>;
}

/** A gate that settled itself on the way (a trusted browser stands in for the second factor): what to record in the transaction. */
export interface GateSettled {
  settled: Record<string, unknown>;
}

/** A debt the user cannot settle (the client asked for a passkey of a person who has none): the client app is told so. */
export interface GateRefusal {
  refused: InteractionRefusal;
}

/** Where the browser goes once every gate is settled: back to the client app. */
export interface FinishedSignIn {
  redirect_to: string;
}

/** What the gates, together, and finishing a sign-in use. */
export type SignInDeps = Pick<Services, 'config' | 'db' | 'box' | 'clock' | 'provider' | 'mailer' | 'sms' | 'codes' | 'flags'>;

/**
 * One thing a user may still owe before being signed in (a fresh password, a second factor, a company choice).
 * It answers a challenge while the debt is open and undefined once it is settled; a step that settles it records
 * that in the transaction's data and calls continueSignIn again. A gate that can settle without asking answers
 * what to record instead.
 */
export type SignInGate = (deps: SignInDeps, sign: PendingSignIn) => Promise<GateAnswer | GateSettled | GateRefusal | undefined>;
