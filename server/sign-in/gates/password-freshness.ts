import { LIMITS } from '../../limits.ts';
import { SERVER_CHALLENGES } from '../../flows/challenges.ts';
import type { Services } from '../../services.ts';
import { findCredentialsById, type UserCredentials } from '../../store/users.ts';
import type { GateAnswer, PendingSignIn } from '../pending-sign-in.ts';

/** Whether the user must choose a new password before finishing: a temporary one, or one older than the policy allows. */
function mustReplacePassword(credentials: UserCredentials, now: number): boolean {
  return credentials.passwordTemporary || now - credentials.passwordChangedAt.getTime() > LIMITS.PASSWORD_MAX_AGE * 1000;
}

/** A temporary or expired password is replaced before anything else. */
export async function passwordFreshness(deps: Pick<Services, 'db' | 'clock'>, sign: PendingSignIn): Promise<GateAnswer | undefined> {
  const credentials = sign.credentials ?? (await findCredentialsById(deps.db, sign.userId));
  if (credentials && mustReplacePassword(credentials, deps.clock())) return { challenge: SERVER_CHALLENGES.NEW_PASSWORD_REQUIRED };
  return undefined;
}
