import { LIMITS } from '../config.ts';
import { SERVER_CHALLENGES } from '../flows/challenges.ts';
import type { ApiContext } from '../api/api-context.ts';
import type { GateAnswer, PendingSignIn } from '../api/sign-in-gates.ts';
import { markCompanyUsed, membershipsOf, type Membership } from '../store/companies.ts';
import { bindSignInCompany, chooseSignInCompany, signInCompany } from '../store/sign-in-companies.ts';

/** The picker's answer: the user's companies, the last used first (and preselected). */
export function pickerAnswer(companies: readonly Membership[]): GateAnswer {
  return {
    challenge: SERVER_CHALLENGES.MULTIPLE_COMPANIES_REGISTRATION,
    parameters: { companies: companies.map(({ id, name }) => ({ id, name })), selected: companies[0]?.id ?? null },
  };
}

/** Settles the sign-in on `companyId` until it finishes. */
export async function settleCompany(context: ApiContext, sign: PendingSignIn, companyId: string): Promise<void> {
  await chooseSignInCompany(context.db, { interactionUid: sign.transaction.interactionUid, companyId, expiresAt: sign.transaction.expiresAt });
}

/**
 * Once the provider has recorded the sign-in, ties its company to the grant its tokens are issued under (which is
 * where the `company` claim is read from) and makes it the user's last-used company.
 */
export async function bindCompanyToGrant(context: ApiContext, sign: { interactionUid: string; userId: string }): Promise<void> {
  const companyId = await signInCompany(context.db, sign.interactionUid);
  if (companyId === undefined) return;
  const interaction = await context.provider.Interaction.find(sign.interactionUid);
  const grantId = interaction?.result?.consent?.grantId;
  if (typeof grantId !== 'string') return;
  const now = context.clock();
  await bindSignInCompany(context.db, { interactionUid: sign.interactionUid, grantId, expiresAt: new Date(now + LIMITS.SESSION_TTL * 1000) });
  await markCompanyUsed(context.db, sign.userId, companyId, new Date(now));
}
