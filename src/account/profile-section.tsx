/** Profile (names, and the email change) and company. */
import { useState, type FormEvent } from 'react';
import { t } from './account-messages.ts';
import { accountCall } from './account-auth.ts';
import type { FactorList } from '../../contract/account-api.ts';
import { AccountAlert, AccountField, AccountSection, useAccountAction } from './account-ui.tsx';
import { EmailChange, type PendingEmail } from './email-change.tsx';

export interface Profile {
  email: string;
  firstName: string;
  lastName: string;
  /** An email change waiting for its code, if any. */
  pendingEmail: PendingEmail | null;
}

/** The names form (each name in error says so beside it), and the email change. */
export function ProfileSection({ profile, onProfile, list, onList }: { profile: Profile; onProfile: (profile: Profile) => void; list: FactorList; onList: (list: FactorList) => void }) {
  const [firstName, setFirstName] = useState(profile.firstName);
  const [lastName, setLastName] = useState(profile.lastName);
  const [missing, setMissing] = useState<{ first: boolean; last: boolean }>({ first: false, last: false });
  const [saved, setSaved] = useState(false);
  const action = useAccountAction();

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    action.setError(undefined);
    const found = { first: firstName.trim() === '', last: lastName.trim() === '' };
    setMissing(found);
    if (found.first || found.last) return;
    const next = await action.run(() => accountCall<Profile>('POST', '/account/profile', { firstName, lastName }));
    if (next) {
      onProfile(next);
      setSaved(true);
    }
  }

  const nameMissing = (empty: boolean) => (empty ? t('validation.name.required') : undefined);
  return (
    <AccountSection id="profile" title={t('account.profile.title')}>
      <p>{t('account.profile.email', { email: profile.email })}</p>
      <form onSubmit={(event) => void save(event)} noValidate>
        <AccountField label={t('account.profile.firstName')} value={firstName} onChange={setFirstName} autoComplete="given-name" error={nameMissing(missing.first)} />
        <AccountField label={t('account.profile.lastName')} value={lastName} onChange={setLastName} autoComplete="family-name" error={nameMissing(missing.last)} />
        <button type="submit" className="button-primary" disabled={action.busy}>
          {t('account.save')}
        </button>
      </form>
      {saved ? (
        <p className="account-notice" role="status">
          {t('account.profile.saved')}
        </p>
      ) : null}
      <AccountAlert text={action.error} />
      <EmailChange
        pending={profile.pendingEmail}
        list={list}
        onList={onList}
        onPending={(pendingEmail) => onProfile({ ...profile, firstName, lastName, pendingEmail })}
        onEmail={(email) => onProfile({ ...profile, firstName, lastName, email, pendingEmail: null })}
      />
    </AccountSection>
  );
}

interface CompanyEntry {
  id: string;
  name: string;
  next: boolean;
}

/** The companies, and "Switch company" for the next sign-in. */
export function CompanySection({ companies, onCompanies }: { companies: readonly CompanyEntry[]; onCompanies: (companies: CompanyEntry[]) => void }) {
  const action = useAccountAction();
  async function choose(company: CompanyEntry) {
    const answer = await action.run(() => accountCall<{ companies: CompanyEntry[] }>('POST', `/account/companies/${company.id}/choice`));
    if (answer) onCompanies(answer.companies);
  }
  return (
    <AccountSection id="company" title={t('account.company.title')}>
      <p>{companies.length === 0 ? t('account.company.none') : t('account.company.intro')}</p>
      <ul className="account-list">
        {companies.map((company) => (
          <li key={company.id} className="account-item">
            <div className="account-item-main">
              <p className="account-item-title">
                {company.name} {company.next ? <span className="account-badge">{t('account.company.next')}</span> : null}
              </p>
            </div>
            {company.next ? null : (
              <div className="account-actions">
                <button type="button" className="account-button-secondary" disabled={action.busy} onClick={() => void choose(company)} aria-label={t('account.company.switchNamed', { name: company.name })}>
                  {t('account.company.switch')}
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
      <AccountAlert text={action.error} />
    </AccountSection>
  );
}
