/** The account page: sign-in methods, recovery codes and sessions, for the person signed in to it. */
import { useCallback, useEffect, useState } from 'react';
import { Provider } from 'jotai';
import { t } from './account-messages.ts';
import { PageLayout } from '../ui/page-layout.tsx';
import { useLanguage } from '../ui/language-preference.ts';
import { Spinner } from '../ui/spinner.tsx';
import { accountCall, signOut } from './account-auth.ts';
import type { ActivityEntry, FactorList, RecoveryStatus, SessionSummary } from '../../contract/account-api.ts';
import { ActivitySection } from './activity-section.tsx';
import { CompanySection, ProfileSection, type Profile } from './profile-section.tsx';
import { PasswordSection } from './password-section.tsx';
import { AccountAlert, worded, type Wording } from './account-ui.tsx';
import { FactorsSection } from './factors-section.tsx';
import { RecoverySection } from './recovery-section.tsx';
import { SessionsSection } from './sessions-section.tsx';
import { TrustedDevicesSection } from './trusted-devices-section.tsx';
import { AppsSection } from './apps-section.tsx';

interface AccountData {
  factors: FactorList;
  recovery: RecoveryStatus;
  sessions: SessionSummary[];
  activity: ActivityEntry[];
  profile: Profile;
  companies: Array<{ id: string; name: string; next: boolean }>;
}

async function loadAccount(): Promise<AccountData> {
  const [factors, recovery, sessions, activity, profile, companies] = await Promise.all([
    accountCall<FactorList>('GET', '/account/factors'),
    accountCall<RecoveryStatus>('GET', '/account/recovery-codes'),
    accountCall<{ sessions: SessionSummary[] }>('GET', '/account/sessions'),
    accountCall<{ events: ActivityEntry[] }>('GET', '/account/activity'),
    accountCall<Profile>('GET', '/account/profile'),
    accountCall<{ companies: AccountData['companies'] }>('GET', '/account/companies'),
  ]);
  return { factors, recovery, sessions: sessions.sessions, activity: activity.events, profile, companies: companies.companies };
}

/** The page's sections, once its data has loaded. */
function AccountSections() {
  useLanguage();
  const [data, setData] = useState<AccountData>();
  const [error, setError] = useState<Wording>();
  /** Bumped when sessions and trusted browsers were ended elsewhere on the page: the trusted list reads itself again. */
  const [trustedVersion, setTrustedVersion] = useState(0);

  const reload = useCallback(async () => {
    try {
      setData(await loadAccount());
    } catch (failure) {
      setError({ failure });
    }
  }, []);

  useEffect(() => {
    document.title = t('account.title');
    void reload();
  }, [reload]);

  const reloadSessions = async () => {
    const sessions = await accountCall<{ sessions: SessionSummary[] }>('GET', '/account/sessions');
    setData((current) => current && { ...current, sessions: sessions.sessions });
  };
  const onList = (factors: FactorList) => setData((current) => current && { ...current, factors });
  const signedOutElsewhere = () => {
    setTrustedVersion((version) => version + 1);
    void reloadSessions().catch((failure: unknown) => setError({ failure }));
  };

  return (
    <>
      <header className="account-header">
        <h1 className="headline">{t('account.headline')}</h1>
        <button type="button" className="account-button-secondary account-sign-out" onClick={signOut}>
          {t('account.signOut')}
        </button>
      </header>
      <nav aria-label={t('account.nav')} className="account-nav">
        <a href="#sign-in-methods">{t('account.factors.title')}</a>
        <a href="#recovery-codes">{t('account.recovery.title')}</a>
        <a href="#profile">{t('account.profile.title')}</a>
        <a href="#password">{t('account.password.title')}</a>
        <a href="#sessions">{t('account.sessions.title')}</a>
        <a href="#trusted-devices">{t('account.trusted.title')}</a>
        <a href="#company">{t('account.company.title')}</a>
        <a href="#activity">{t('account.activity.title')}</a>
      </nav>
      <AccountAlert text={worded(error)} />
      {data ? (
        <>
          <FactorsSection list={data.factors} onChanged={(factors) => setData({ ...data, factors })} />
          <RecoverySection
            status={data.recovery}
            onStatus={(recovery) => setData((current) => current && { ...current, recovery })}
            list={data.factors}
            onList={(factors) => setData((current) => current && { ...current, factors })}
          />
          <ProfileSection profile={data.profile} onProfile={(profile) => setData((current) => current && { ...current, profile })} list={data.factors} onList={onList} />
          <PasswordSection list={data.factors} onList={onList} onSignedOutElsewhere={signedOutElsewhere} />
          <SessionsSection sessions={data.sessions} onReload={reloadSessions} onSignedOutElsewhere={signedOutElsewhere} list={data.factors} onList={onList} />
          <TrustedDevicesSection key={trustedVersion} />
          <AppsSection />
          <CompanySection companies={data.companies} onCompanies={(companies) => setData((current) => current && { ...current, companies })} />
          <ActivitySection events={data.activity} />
        </>
      ) : error ? null : (
        <Spinner />
      )}
    </>
  );
}

/** The account page in the product's frame. */
export function AccountApp() {
  return (
    <Provider>
      <div className="account-page">
        <PageLayout>
          <AccountSections />
        </PageLayout>
      </div>
    </Provider>
  );
}
