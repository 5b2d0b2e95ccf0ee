import { LIMITS } from '../limits.ts';
import { SERVER_CHALLENGES } from '../flows/challenges.ts';
import type { Services } from '../services.ts';
import type { GateAnswer, PendingSignIn } from '../sign-in/pending-sign-in.ts';
import type { Membership } from '../store/companies.ts';
import { bindSignInCompany, chooseSignInCompany } from '../store/sign-in-companies.ts';

/** The picker's answer: the user's companies, the last used first (and preselected). */
export function pickerAnswer(companies: readonly Membership[]): GateAnswer {
  return {
    challenge: SERVER_CHALLENGES.MULTIPLE_COMPANIES_REGISTRATION,
    parameters: { companies: companies.map(({ id, name }) => ({ id, name })), selected: companies[0]?.id ?? null },
  };
}

/** Settles the sign-in on `companyId` until it finishes. */
export async function settleCompany(deps: Pick<Services, 'db'>, sign: PendingSignIn, companyId: string): Promise<void> {
  await chooseSignInCompany(deps.db, { interactionUid: sign.transaction.interactionUid, companyId, expiresAt: sign.transaction.expiresAt });
}

/**
 * Once the provider has recorded the sign-in, ties its company (if it chose one) to the grant its tokens are issued
 * under (which is where the `company` claim is read from) and makes it the user's last-used company.
 */
export async function bindCompanyToGrant(deps: Pick<Services, 'db' | 'clock'>, sign: { interactionUid: string; userId: string; grantId: string }): Promise<void> {
  const now = deps.clock();
  await bindSignInCompany(deps.db, { ...sign, expiresAt: new Date(now + LIMITS.SESSION_TTL * 1000), now: new Date(now) });
}
