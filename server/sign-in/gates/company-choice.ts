import { pickerAnswer, settleCompany } from '../../companies/company-choice.ts';
import type { Services } from '../../services.ts';
import { companyChoiceState } from '../../store/sign-in-companies.ts';
import type { GateAnswer, PendingSignIn } from '../pending-sign-in.ts';

/**
 * A user of several companies picks the one this sign-in acts for. With one company, or while the
 * `company-selection-removal` flag is on, there is no step: the last-used company, or else the first, is taken.
 */
export async function companyChoice(deps: Pick<Services, 'db' | 'flags'>, sign: PendingSignIn): Promise<GateAnswer | undefined> {
  const { chosen, companies } = sign.known?.company ?? (await companyChoiceState(deps.db, sign.transaction.interactionUid, sign.userId));
  if (chosen) return undefined;
  const [preferred] = companies;
  if (!preferred) return undefined;
  if (companies.length === 1 || deps.flags.isOn('company-selection-removal')) {
    await settleCompany(deps, sign, preferred.id);
    return undefined;
  }
  return pickerAnswer(companies);
}
