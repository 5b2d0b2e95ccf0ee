/** Trusted devices: browsers where the person chose not to be asked for a code; revoke one, or all. */
import { useEffect, useState } from 'react';
import type { TrustedDeviceSummary } from '../../contract/account-api.ts';
import { t } from './account-messages.ts';
import { accountCall } from './account-auth.ts';
import { AccountAlert, AccountSection, formatWhen, useAccountAction } from './account-ui.tsx';

type TrustedDeviceList = { devices: TrustedDeviceSummary[] };

/** The trusted-devices section; it loads its own list. */
export function TrustedDevicesSection() {
  const action = useAccountAction();
  const [devices, setDevices] = useState<TrustedDeviceSummary[]>();

  useEffect(() => {
    void action.run(() => accountCall<TrustedDeviceList>('GET', '/account/trusted-devices')).then((list) => list && setDevices(list.devices));
    // Loaded once, when the page opens; every revoke answers the new list.
  }, []);

  async function revoke(path: string) {
    const list = await action.run(() => accountCall<TrustedDeviceList>('POST', path));
    if (list) setDevices(list.devices);
  }

  return (
    <AccountSection id="trusted-devices" title={t('account.trusted.title')}>
      <p>{t('account.trusted.intro')}</p>
      {devices && devices.length === 0 ? <p>{t('account.trusted.none')}</p> : null}
      {devices && devices.length > 0 ? (
        <>
          <ul className="account-list">
            {devices.map((device) => {
              const name = t('account.sessions.device', { browser: device.browser || t('account.trusted.unknownBrowser'), os: device.os || t('account.sessions.unknownOs') });
              return (
                <li key={device.id} className="account-item">
                  <div className="account-item-main">
                    <p className="account-item-title">{name}</p>
                    <p className="account-item-detail">{t('account.trusted.ip', { ip: device.ip || '—' })}</p>
                    <p className="account-item-detail">
                      {t('account.trusted.dates', { created: formatWhen(device.createdAt), lastUsed: formatWhen(device.lastUsedAt), expires: formatWhen(device.expiresAt) })}
                    </p>
                  </div>
                  <div className="account-actions">
                    <button
                      type="button"
                      className="account-button-secondary"
                      disabled={action.busy}
                      onClick={() => void revoke(`/account/trusted-devices/${encodeURIComponent(device.id)}/revocation`)}
                      aria-label={t('account.trusted.revokeNamed', { device: name })}
                    >
                      {t('account.trusted.revoke')}
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
          <button type="button" className="account-button-danger" disabled={action.busy} onClick={() => void revoke('/account/trusted-devices/revocation')}>
            {t('account.trusted.revokeAll')}
          </button>
        </>
      ) : null}
      <AccountAlert text={action.error} />
    </AccountSection>
  );
}
