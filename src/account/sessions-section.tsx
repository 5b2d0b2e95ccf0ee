/**
 * Sessions: every signed-in browser, this one marked; sign out one, or every other (each after a fresh second factor,
 * as ASVS 7.5.2 asks; signing out this browser needs none). Signing out every other also revokes trusted browsers,
 * and says so. An ended session leaves the list at once.
 */
import { useState } from 'react';
import { t } from './account-messages.ts';
import { accountCall, startSignIn } from './account-auth.ts';
import type { FactorList, SessionSummary } from '../../contract/account-api.ts';
import { AccountAlert, AccountSection, formatWhen, useAccountAction, worded, type Wording } from './account-ui.tsx';
import { useStepUpGate } from './step-up.tsx';

/** The sessions section; `onReload` reads the list again, `onSignedOutElsewhere` also refreshes the trusted browsers. */
export function SessionsSection(props: {
  sessions: readonly SessionSummary[];
  onReload: () => Promise<void>;
  onSignedOutElsewhere: () => void;
  list: FactorList;
  onList: (list: FactorList) => void;
}) {
  const action = useAccountAction();
  const gate = useStepUpGate(props.list, props.onList, action.run);
  const [notice, setNotice] = useState<Wording>();
  const { sessions } = props;
  const others = sessions.filter((session) => !session.current);

  async function signOut(session: SessionSummary) {
    setNotice(undefined);
    if (session.current) {
      const done = await action.run(() => accountCall('POST', `/account/sessions/${encodeURIComponent(session.id)}/sign-out`));
      if (done) await startSignIn();
      return;
    }
    await gate.guard(async () => {
      await accountCall('POST', `/account/sessions/${encodeURIComponent(session.id)}/sign-out`);
      await props.onReload();
      setNotice({ key: 'account.sessions.ended' });
    });
  }

  async function signOutOthers() {
    setNotice(undefined);
    await gate.guard(async () => {
      const answer = await accountCall<{ ended: number; trustedDevicesRevoked: number }>('POST', '/account/sessions/others/sign-out');
      await props.onReload();
      props.onSignedOutElsewhere();
      setNotice({ key: 'account.sessions.othersEnded', params: { count: answer.ended, trusted: answer.trustedDevicesRevoked } });
    });
  }

  return (
    <AccountSection id="sessions" title={t('account.sessions.title')}>
      <p>{t('account.sessions.intro')}</p>
      <ul className="account-list">
        {sessions.map((session) => {
          const device = t('account.sessions.device', { browser: session.browser || t('account.sessions.unknownBrowser'), os: session.os || t('account.sessions.unknownOs') });
          return (
            <li key={session.id} className="account-item">
              <div className="account-item-main">
                <p className="account-item-title">
                  {device} {session.current ? <span className="account-badge">{t('account.sessions.thisDevice')}</span> : null}
                </p>
                <p className="account-item-detail">{t('account.sessions.ip', { ip: session.ip || '—' })}</p>
                <p className="account-item-detail">{t('account.sessions.apps', { apps: session.apps.join(', ') || '—' })}</p>
                <p className="account-item-detail">
                  {t('account.sessions.started', { when: formatWhen(session.startedAt) })} · {t('account.sessions.lastActive', { when: formatWhen(session.lastActiveAt) })}
                </p>
              </div>
              <div className="account-actions">
                <button type="button" className="account-button-secondary" disabled={action.busy} onClick={() => void signOut(session)} aria-label={t('account.sessions.signOutNamed', { device })}>
                  {t('account.sessions.signOut')}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      {others.length > 0 && !gate.steppingUp ? (
        <button type="button" className="account-button-danger" disabled={action.busy} onClick={() => void signOutOthers()}>
          {t('account.sessions.signOutOthers')}
        </button>
      ) : null}
      {gate.stepUp}
      {notice ? (
        <p className="account-notice" role="status">
          {worded(notice)}
        </p>
      ) : null}
      <AccountAlert text={action.error} />
    </AccountSection>
  );
}
