/**
 * Enrolling an authenticator app on any device: the QR code to scan, the key in groups of four to type (and copy),
 * and an otpauth:// link that opens an app on the same phone. The answer's parameters carry the key, the link and
 * the issuer. The QR code's drawing code is a chunk of its own, fetched when the panel shows; until it arrives its
 * square is kept empty at full size, so the key and the code field below never move.
 */
import { lazy, Suspense, useState } from 'react';
import { t } from '../../services/messages.ts';
import { showToast } from '../../services/show-toast.ts';
import type { PanelProps } from './panel-props.ts';
import './totp-setup-panel.css';

const QrCode = lazy(() => import('./qr-code.tsx'));

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** "JBSWY3DPEHPK3PXP" → "JBSW Y3DP EHPK 3PXP", as people read and type it. */
function groupsOfFour(secret: string): string {
  return secret.replace(/\s/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

/** Renders the setup panel, or nothing until the answer carries a key and link. */
export function TotpSetupPanel({ parameters }: PanelProps) {
  const secret = text(parameters?.secret);
  const uri = text(parameters?.otpauth_uri);
  const [copied, setCopied] = useState(false);
  if (!secret || !uri || !uri.startsWith('otpauth://')) return null;
  const account = text(parameters?.account);
  const issuer = text(parameters?.issuer);
  return (
    <section className="totp-setup">
      <Suspense fallback={<span className="qr-code qr-code-pending" />}>
        <QrCode text={uri} label={t('mfaTotpSetup.qr')} />
      </Suspense>
      <div className="totp-details">
        <p className="totp-key-label">{t('mfaTotpSetup.key')}</p>
        <code className="totp-key" data-testid="totp-secret">
          {groupsOfFour(secret)}
        </code>
        <button
          type="button"
          data-step-action
          className="totp-copy"
          onClick={() => {
            // A browser that refuses the clipboard leaves the button as it was: the key stays on screen to type.
            void navigator.clipboard
              ?.writeText(secret)
              .then(() => {
                setCopied(true);
                showToast({ type: 'success', title: t('mfaTotpSetup.copied') });
              })
              .catch(() => undefined);
          }}
        >
          {copied ? t('mfaTotpSetup.copied') : t('mfaTotpSetup.copy')}
        </button>
        {issuer ? <p className="totp-meta">{t('mfaTotpSetup.issuer', { issuer })}</p> : null}
        {account ? <p className="totp-meta">{t('mfaTotpSetup.account', { account })}</p> : null}
        <a className="step-link" href={uri}>
          {t('mfaTotpSetup.openApp')}
        </a>
      </div>
    </section>
  );
}

export default TotpSetupPanel;
