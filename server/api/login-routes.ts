import type { FastifyInstance } from 'fastify';
import { Argon2QueueFullError } from '../auth/argon2-gate.ts';
import { verifyPassword } from '../auth/passwords.ts';
import { LIMITS } from '../limits.ts';
import type { Services } from '../services.ts';
import type { SignInDeps } from '../sign-in/pending-sign-in.ts';
import { ApiError, catalogueProblem } from '../errors.ts';
import { recordRefusedSignIn } from '../auth/refused-sign-in.ts';
import { continueSignIn } from '../sign-in/sign-in-gates.ts';
import { responses, STEP_ANSWER } from './response-schemas.ts';
import { clearCookieWhenFinished } from './transaction-cookie.ts';
import { admitStep, type StepDeps } from './step-guard.ts';
import { SERVER_CHALLENGES } from '../flows/challenges.ts';
import { restartAtPassword } from '../store/sign-in-restart.ts';

/** The words of a sign-in wait under a minute. */
const WAIT_OF_SECONDS = 'lockout.fewSeconds';

/**
 * The refusal while sign-in waits, with the seconds as Retry-After and in the body: the remaining whole minutes
 * (rounded up) in words, or "in a few seconds" for a wait under a minute, which then carries no minutes at all.
 */
function tooManyAttempts(waitSeconds: number): ApiError {
  const seconds = String(waitSeconds);
  if (waitSeconds < 60) return new ApiError('auth.too_many_attempts', catalogueProblem(WAIT_OF_SECONDS), { retryAfter: waitSeconds, params: { seconds } });
  return new ApiError('auth.too_many_attempts', undefined, { retryAfter: waitSeconds, params: { minutes: String(Math.ceil(waitSeconds / 60)), seconds } });
}

/** `POST auth/login`: checks the encrypted credentials, under the guessing throttle, and answers the next step. */
export function loginRoutes(context: StepDeps & SignInDeps & Pick<Services, 'throttle' | 'metrics'>) {
  return async (app: FastifyInstance) => {
    app.post('/auth/login', { schema: { response: responses(STEP_ANSWER) } }, async (request, reply) => {
      const { token, transaction, payload } = await admitStep(context, request, 'auth/login');
      const password = String(payload.password);
      const now = context.clock();
      const gate = await context.throttle.admit({ email: String(payload.email), ip: request.ip, now: new Date(now), interactionUid: transaction.interactionUid });
      const found = gate.account;
      // Every refusal costs one argon2id verification and reads the same, so neither timing nor wording tells
      // an unknown email, a wrong password or a waiting account apart.
      const valid = await verifyPassword(password, gate.allowed ? found?.passwordHash : undefined).catch((error: unknown) => {
        if (error instanceof Argon2QueueFullError) context.metrics.signIn('overloaded');
        throw error;
      });
      // A disabled account is refused exactly like a wrong password, after the same work.
      if (!found || !valid || !gate.allowed || found.disabled) {
        context.metrics.signIn(gate.allowed ? 'invalid_credentials' : 'throttled');
        if (found) {
          // Recorded after the answer, so an existing address does no more work before it than an unknown one.
          const reason = !gate.allowed ? 'waiting' : !valid ? 'wrong_password' : 'account_disabled';
          const origin = { ip: request.ip, userAgent: request.headers['user-agent'], at: new Date(now) };
          if (reason === 'wrong_password' && gate.failures === LIMITS.LOGIN_FAILURES_BEFORE_DELAY) context.metrics.lockout('password');
          recordRefusedSignIn(context, { userId: found.user.id, email: found.user.email, reason, failures: gate.failures, origin }, request.log);
        }
        // A waiting subject (an account, or an address without one, counted alike) is told how long, so the owner
        // is not left retrying the right password; the answer is the same whether or not the account exists.
        if (!gate.allowed) throw tooManyAttempts(gate.waitSeconds);
        // A failure that starts (or renews) a wait says so at once, so every answer while the wait runs is the same 429,
        // never a 401 between two of them.
        if (gate.waitIfWrong > 0) throw tooManyAttempts(gate.waitIfWrong);
        throw new ApiError('auth.invalid_credentials');
      }
      context.metrics.signIn('success');
      // Back from the second factor to the login screen: the sign-in starts again at the password (the step guard
      // admitted this call there), with no trace of the factor in progress; a wrong password above changed nothing.
      const restarted =
        transaction.challenge === SERVER_CHALLENGES.LOGIN_REQUIRED
          ? transaction
          : await restartAtPassword(context.db, token, transaction.challenge, SERVER_CHALLENGES.LOGIN_REQUIRED);
      if (!restarted) throw new ApiError('step.out_of_order');
      if (found.resetRequired) {
        await context.throttle.succeeded({ userId: found.user.id, ip: request.ip });
        // The transaction stays at the login step: after recovery the user signs in again on the same screen.
        return { challenge: SERVER_CHALLENGES.RESET_PASSWORD, parameters: { email: found.user.email } };
      }
      // The sign-in's next write (its move to the next step, or its end) releases the attempt: one round trip fewer.
      // Should that write not happen (a concurrent submit moved the transaction first), the attempt stays counted,
      // which only errs on the strict side; the submit that won releases it.
      const sign = { token, transaction: restarted, userId: found.user.id, credentials: found, known: gate.signInState, releaseAttemptFrom: request.ip };
      return clearCookieWhenFinished(context.config, reply, await continueSignIn(context, sign));
    });
  };
}
