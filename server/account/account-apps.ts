import { ApiError } from '../errors.ts';
import type { Services } from '../services.ts';
import { listConsents, revokeConsent, type AppConsent } from '../store/app-consents.ts';
import { recordSecurityEvent } from '../store/security-events.ts';
import type { AccountCaller } from './account-token.ts';

/** The apps the caller allowed access to their account ("Apps with access"), the most recently allowed first. */
export async function listAppsWithAccess(deps: Pick<Services, 'db'>, caller: AccountCaller): Promise<{ apps: AppConsent[] }> {
  return { apps: await listConsents(deps.db, caller.userId) };
}

/**
 * Takes an app's access away: its tokens stop working now, and its next sign-in asks the caller again. The activity
 * list (and the operator's audit trail) records it, naming the app. No mail: the person did it on the page they see.
 */
export async function revokeAppAccess(deps: Pick<Services, 'db' | 'clock'>, caller: AccountCaller, clientId: string): Promise<{ apps: AppConsent[] }> {
  if (!(await revokeConsent(deps.db, caller.userId, clientId))) throw new ApiError('account.app_not_found');
  await recordSecurityEvent(deps.db, { userId: caller.userId, kind: 'app_access_revoked', at: new Date(deps.clock()), ...caller.origin, detail: { client_id: clientId } });
  return listAppsWithAccess(deps, caller);
}
