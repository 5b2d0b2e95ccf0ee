import type { FastifyInstance } from 'fastify';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { sendSecurityNotice } from '../auth/security-notices.ts';
import { mailFailureLogger } from '../mail/mailer.ts';
import { recordSecurityEvent } from '../store/security-events.ts';
import { findCredentialsById, setPassword } from '../store/users.ts';
import type { Services } from '../services.ts';
import type { SignInDeps } from '../sign-in/pending-sign-in.ts';
import { ApiError } from '../errors.ts';
import { continueSignIn } from '../sign-in/sign-in-gates.ts';
import { responses, STEP_ANSWER } from './response-schemas.ts';
import { clearCookieWhenFinished } from './transaction-cookie.ts';
import { admitStep, type StepDeps } from './step-guard.ts';

/** `POST auth/password`: the new password a sign-in asked for (a temporary or expired password), then the next gate. */
export function newPasswordRoutes(context: StepDeps & SignInDeps & Pick<Services, 'passwordPolicy'>) {
  return async (app: FastifyInstance) => {
    app.post('/auth/password', { schema: { response: responses(STEP_ANSWER) } }, async (request, reply) => {
      const { token, transaction, payload } = await admitStep(context, request, 'auth/password');
      const password = String(payload.password);
      const unmet = context.passwordPolicy(password);
      if (unmet !== undefined) throw new ApiError('request.invalid', { ...unmet, field: 'password' });
      // An invitation is accepted on its own step (invitation/acceptance), which also asks for the names and terms.
      if (transaction.data.invitation) throw new ApiError('step.out_of_order');
      const credentials = transaction.userId ? await findCredentialsById(context.db, transaction.userId) : undefined;
      if (!credentials) throw new ApiError('transaction.missing');
      if (await verifyPassword(password, credentials.passwordHash)) throw new ApiError('password.reused');
      const now = new Date(context.clock());
      await setPassword(context.db, credentials.user.id, await hashPassword(password), now);
      await recordSecurityEvent(context.db, {
        userId: credentials.user.id,
        kind: 'password_changed',
        at: now,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        detail: { reason: 'required_at_sign_in' },
      });
      const origin = { ip: request.ip, userAgent: request.headers['user-agent'] };
      await sendSecurityNotice({ ...context, onMailFailure: mailFailureLogger(request.log) }, { user: credentials.user, kind: 'password_changed', origin });
      return clearCookieWhenFinished(context.config, reply, await continueSignIn(context, { token, transaction, userId: credentials.user.id }));
    });
  };
}
