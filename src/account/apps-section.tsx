/** Apps with access: the client apps the person allowed (consent), with what each may see; remove one to sign it out. */
import { useEffect, useState } from 'react';
import type { AppAccessSummary } from '../../contract/account-api.ts';
import { t } from './account-messages.ts';
import { accountCall } from './account-auth.ts';
import { AccountAlert, AccountSection, formatWhen, useAccountAction } from './account-ui.tsx';

type AppList = { apps: AppAccessSummary[] };

/** What an app may see, in the reader's words (`openid` alone: only who they are). */
function allowedText(scopes: readonly string[]): string {
  return scopes.length === 0 ? t('account.apps.signInOnly') : scopes.map((scope) => t(`account.apps.scope.${scope}`)).join(' · ');
}

/** The apps-with-access section; it loads its own list. */
export function AppsSection() {
  const action = useAccountAction();
  const [apps, setApps] = useState<AppAccessSummary[]>();

  useEffect(() => {
    void action.run(() => accountCall<AppList>('GET', '/account/apps')).then((list) => list && setApps(list.apps));
    // Loaded once, when the page opens; every removal answers the new list.
  }, []);

  async function revoke(clientId: string) {
    const list = await action.run(() => accountCall<AppList>('POST', `/account/apps/${encodeURIComponent(clientId)}/revocation`));
    if (list) setApps(list.apps);
  }

  return (
    <AccountSection id="apps" title={t('account.apps.title')}>
      <p>{t('account.apps.intro')}</p>
      {apps && apps.length === 0 ? <p>{t('account.apps.none')}</p> : null}
      {apps && apps.length > 0 ? (
        <ul className="account-list">
          {apps.map((app) => (
            <li key={app.clientId} className="account-item">
              <div className="account-item-main">
                <p className="account-item-title">{app.clientName}</p>
                <p className="account-item-detail">{allowedText(app.scopes)}</p>
                <p className="account-item-detail">{t('account.apps.allowed', { when: formatWhen(app.grantedAt) })}</p>
              </div>
              <div className="account-actions">
                <button
                  type="button"
                  className="account-button-secondary"
                  disabled={action.busy}
                  onClick={() => void revoke(app.clientId)}
                  aria-label={t('account.apps.revokeNamed', { app: app.clientName })}
                >
                  {t('account.apps.revoke')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      <AccountAlert text={action.error} />
    </AccountSection>
  );
}
