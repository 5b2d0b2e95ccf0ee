/** Sessions: every signed-in browser, this one marked; sign out one, or every other. */
import { t } from './account-messages.ts';
import { accountCall, startSignIn } from './account-auth.ts';
import type { SessionSummary } from './account-types.ts';
import { AccountAlert, AccountSection, formatWhen, useAccountAction } from './account-ui.tsx';

/** The sessions section. */
export function SessionsSection({ sessions, onReload }: { sessions: readonly SessionSummary[]; onReload: () => Promise<void> }) {
  const action = useAccountAction();
  const others = sessions.filter((session) => !session.current);

  async function signOut(session: SessionSummary) {
    const done = await action.run(() => accountCall('POST', `/account/sessions/${encodeURIComponent(session.id)}/sign-out`));
    if (!done) return;
    if (session.current) await startSignIn();
    else await onReload();
  }

  async function signOutOthers() {
    const done = await action.run(() => accountCall('POST', '/account/sessions/others/sign-out'));
    if (done) await onReload();
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
      {others.length > 0 ? (
        <button type="button" className="account-button-danger" disabled={action.busy} onClick={() => void signOutOthers()}>
          {t('account.sessions.signOutOthers')}
        </button>
      ) : null}
      <AccountAlert text={action.error} />
    </AccountSection>
  );
}
