/** Security activity: the last 50 security events of the account, with time, address and browser. */
import { hasMessage, t } from './account-messages.ts';
import type { ActivityEntry } from '../../contract/account-api.ts';
import { AccountSection, formatWhen } from './account-ui.tsx';

/** What happened, in the reader's language; an event kind the page does not know yet shows as its name. */
function describeKind(kind: string): string {
  const key = `account.activity.kind.${kind}`;
  return hasMessage(key) ? t(key) : kind;
}

/** The security activity section. */
export function ActivitySection({ events }: { events: readonly ActivityEntry[] }) {
  return (
    <AccountSection id="activity" title={t('account.activity.title')}>
      <p>{t('account.activity.intro')}</p>
      {events.length === 0 ? <p>{t('account.activity.none')}</p> : null}
      <ul className="account-list">
        {events.map((event, index) => (
          <li key={`${event.at}-${index}`} className="account-item">
            <div className="account-item-main">
              <p className="account-item-title">{describeKind(event.kind)}</p>
              <p className="account-item-detail">
                {formatWhen(event.at)} · {t('account.sessions.ip', { ip: event.ip ?? '—' })}
                {event.browser ? ` · ${t('account.sessions.device', { browser: event.browser, os: event.os || t('account.sessions.unknownOs') })}` : ''}
              </p>
            </div>
          </li>
        ))}
      </ul>
    </AccountSection>
  );
}
