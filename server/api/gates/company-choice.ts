import { pickerAnswer, settleCompany } from '../../companies/company-choice.ts';
import { membershipsOf } from '../../store/companies.ts';
import { signInCompany } from '../../store/sign-in-companies.ts';
import type { SignInGate } from '../sign-in-gates.ts';

/**
 * A user of several companies picks the one this sign-in acts for. With one company, or while the
 * `company-selection-removal` flag is on, there is no step: the last-used company, or else the first, is taken.
 */
export const companyChoice: SignInGate = async (context, sign) => {
  if ((await signInCompany(context.db, sign.transaction.interactionUid)) !== undefined) return undefined;
  const companies = await membershipsOf(context.db, sign.userId);
  const [preferred] = companies;
  if (!preferred) return undefined;
  if (companies.length === 1 || context.flags.isOn('company-selection-removal')) {
    await settleCompany(context, sign, preferred.id);
    return undefined;
  }
  return pickerAnswer(companies);
};
