/** Profile (names) and password (the current one, re-authentication, then every other session ends). */
import { useState, type FormEvent } from 'react';
import { API_PREFIX } from '../../contract/product.ts';
import { encryptValue, type CredentialKey } from '../services/credentials.ts';
import { t } from './account-messages.ts';
import { accountCall } from './account-auth.ts';
import type { FactorList } from './account-types.ts';
import { AccountAlert, AccountField, AccountSection, useAccountAction } from './account-ui.tsx';
import { StepUp } from './step-up.tsx';

export interface Profile {
  email: string;
  firstName: string;
  lastName: string;
}

/** The names form. */
export function ProfileSection({ profile, onProfile }: { profile: Profile; onProfile: (profile: Profile) => void }) {
  const [firstName, setFirstName] = useState(profile.firstName);
  const [lastName, setLastName] = useState(profile.lastName);
  const [saved, setSaved] = useState(false);
  const action = useAccountAction();

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    const next = await action.run(() => accountCall<Profile>('POST', '/account/profile', { firstName, lastName }));
    if (next) {
      onProfile(next);
      setSaved(true);
    }
  }

  return (
    <AccountSection id="profile" title={t('account.profile.title')}>
      <p>{t('account.profile.email', { email: profile.email })}</p>
      <form onSubmit={(event) => void save(event)}>
        <AccountField label={t('account.profile.firstName')} value={firstName} onChange={setFirstName} autoComplete="given-name" />
        <AccountField label={t('account.profile.lastName')} value={lastName} onChange={setLastName} autoComplete="family-name" />
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
      <EmailChange onEmail={(email) => onProfile({ ...profile, firstName, lastName, email })} />
    </AccountSection>
  );
}

/** Changing the email: a code goes to the new address, and the change counts once it is entered. */
function EmailChange({ onEmail }: { onEmail: (email: string) => void }) {
  const [email, setEmail] = useState('');
  const [pending, setPending] = useState<string>();
  const [code, setCode] = useState('');
  const [changed, setChanged] = useState(false);
  const action = useAccountAction();

  async function request(event: FormEvent) {
    event.preventDefault();
    setChanged(false);
    const answer = await action.run(() => accountCall<{ pendingEmail: string }>('POST', '/account/email', { email }));
    if (answer) setPending(answer.pendingEmail);
  }

  async function confirm(event: FormEvent) {
    event.preventDefault();
    if (code.trim() === '') return action.setError(t('validation.code.required'));
    const answer = await action.run(() => accountCall<{ email: string }>('POST', '/account/email/confirmation', { code }));
    if (answer) {
      onEmail(answer.email);
      setPending(undefined);
      setEmail('');
      setCode('');
      setChanged(true);
    }
  }

  return (
    <div className="account-panel">
      <h3 className="account-panel-title">{t('account.email.title')}</h3>
      {pending ? (
        <form onSubmit={(event) => void confirm(event)}>
          <p>{t('account.email.codeSent', { email: pending })}</p>
          <AccountField label={t('account.factor.code')} value={code} onChange={setCode} inputMode="numeric" autoComplete="one-time-code" />
          <button type="submit" className="button-primary" disabled={action.busy}>
            {t('account.email.confirm')}
          </button>
        </form>
      ) : (
        <form onSubmit={(event) => void request(event)}>
          <AccountField label={t('account.email.new')} value={email} onChange={setEmail} type="email" inputMode="email" autoComplete="email" />
          <button type="submit" className="button-primary" disabled={action.busy}>
            {t('account.email.send')}
          </button>
        </form>
      )}
      {changed ? (
        <p className="account-notice" role="status">
          {t('account.email.changed')}
        </p>
      ) : null}
      <AccountAlert text={action.error} />
    </div>
  );
}

/** Both passwords sealed to the server's credential key with one nonce, as the sign-in screens send them. */
async function sealPasswords(currentPassword: string, newPassword: string): Promise<Record<string, string>> {
  const response = await fetch(`${API_PREFIX}/crypto/rsa-public-key`, { headers: { accept: 'application/json' } });
  const key = (await response.json()) as CredentialKey;
  return { currentPassword: await encryptValue(currentPassword, key), newPassword: await encryptValue(newPassword, key) };
}

/** The password change form; asks for a step-up first when the last one is stale. */
export function PasswordSection({ list, onList }: { list: FactorList; onList: (list: FactorList) => void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [steppingUp, setSteppingUp] = useState(false);
  const [done, setDone] = useState<number>();
  const action = useAccountAction();

  async function change() {
    const answer = await action.run(async () => accountCall<{ endedSessions: number }>('POST', '/account/password', await sealPasswords(current, next)));
    if (answer) {
      setDone(answer.endedSessions);
      setCurrent('');
      setNext('');
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setDone(undefined);
    if (current === '' || next === '') return action.setError(t('validation.newPassword.required'));
    const fresh = list.factors.length === 0 || (list.stepUpUntil !== null && Date.parse(list.stepUpUntil) > Date.now() + 5000);
    if (!fresh) return setSteppingUp(true);
    await change();
  }

  async function proven() {
    setSteppingUp(false);
    const fresh = await action.run(() => accountCall<FactorList>('GET', '/account/factors'));
    if (fresh) onList(fresh);
    await change();
  }

  return (
    <AccountSection id="password" title={t('account.password.title')}>
      <p>{t('account.password.intro')}</p>
      <form onSubmit={(event) => void submit(event)}>
        <AccountField label={t('account.password.current')} value={current} onChange={setCurrent} type="password" autoComplete="current-password" />
        <AccountField label={t('account.password.new')} value={next} onChange={setNext} type="password" autoComplete="new-password" />
        {steppingUp ? null : (
          <button type="submit" className="button-primary" disabled={action.busy}>
            {t('account.password.submit')}
          </button>
        )}
      </form>
      {steppingUp ? <StepUp factors={list.factors} onProven={() => void proven()} onCancel={() => setSteppingUp(false)} /> : null}
      {done !== undefined ? (
        <p className="account-notice" role="status">
          {t('account.password.changed', { count: done })}
        </p>
      ) : null}
      <AccountAlert text={action.error} />
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
