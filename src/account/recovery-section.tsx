/** Recovery codes: how many are left (a warning at two or fewer), and a new set, shown once with copy and download. */
import { useState } from 'react';
import { t } from './account-messages.ts';
import { accountCall } from './account-auth.ts';
import type { FactorList, RecoveryStatus } from '../../contract/account-api.ts';
import { AccountAlert, AccountSection, formatWhen, useAccountAction } from './account-ui.tsx';
import { StepUp } from './step-up.tsx';

/** Offers the codes as a text file the person keeps. */
function download(codes: readonly string[]) {
  const blob = new Blob([`${t('account.recovery.fileHeader')}\n\n${codes.join('\n')}\n`], { type: 'text/plain' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = 'recovery-codes.txt';
  link.click();
  URL.revokeObjectURL(link.href);
}

/** The recovery codes section. */
export function RecoverySection({ status, onStatus, list, onList }: { status: RecoveryStatus; onStatus: (status: RecoveryStatus) => void; list: FactorList; onList: (list: FactorList) => void }) {
  const [codes, setCodes] = useState<string[]>();
  const [steppingUp, setSteppingUp] = useState(false);
  const [copied, setCopied] = useState(false);
  const action = useAccountAction();

  async function generate() {
    const fresh = list.factors.length === 0 || (list.stepUpUntil !== null && Date.parse(list.stepUpUntil) > Date.now() + 5000);
    if (!fresh) return setSteppingUp(true);
    const answer = await action.run(() => accountCall<RecoveryStatus>('POST', '/account/recovery-codes'));
    if (answer?.codes) {
      setCodes(answer.codes);
      setCopied(false);
      onStatus({ left: answer.left, generatedAt: answer.generatedAt, low: answer.low });
    }
  }

  async function proven() {
    setSteppingUp(false);
    const next = await action.run(() => accountCall<FactorList>('GET', '/account/factors'));
    if (next) onList(next);
    const answer = await action.run(() => accountCall<RecoveryStatus>('POST', '/account/recovery-codes'));
    if (answer?.codes) {
      setCodes(answer.codes);
      onStatus({ left: answer.left, generatedAt: answer.generatedAt, low: answer.low });
    }
  }

  async function copy(all: readonly string[]) {
    await navigator.clipboard.writeText(all.join('\n'));
    setCopied(true);
  }

  return (
    <AccountSection id="recovery-codes" title={t('account.recovery.title')}>
      <p>{t('account.recovery.intro')}</p>
      {status.generatedAt ? (
        <p>{t('account.recovery.left', { left: status.left, when: formatWhen(status.generatedAt) })}</p>
      ) : (
        <p>{t('account.recovery.none')}</p>
      )}
      {status.low ? (
        <p className="account-warning" role="status">
          {t('account.recovery.low')}
        </p>
      ) : null}
      {codes ? (
        <div className="account-panel">
          <h3 className="account-panel-title">{t('account.recovery.newTitle')}</h3>
          <p>{t('account.recovery.shownOnce')}</p>
          <ol className="account-codes" aria-label={t('account.recovery.newTitle')}>
            {codes.map((code) => (
              <li key={code} className="account-code">
                {code}
              </li>
            ))}
          </ol>
          <div className="account-actions">
            <button type="button" className="account-button-secondary" onClick={() => void copy(codes)}>
              {copied ? t('account.recovery.copied') : t('account.recovery.copy')}
            </button>
            <button type="button" className="account-button-secondary" onClick={() => download(codes)}>
              {t('account.recovery.download')}
            </button>
            <button type="button" className="button-primary" onClick={() => setCodes(undefined)}>
              {t('account.recovery.saved')}
            </button>
          </div>
        </div>
      ) : null}
      {steppingUp ? <StepUp factors={list.factors} onProven={() => void proven()} onCancel={() => setSteppingUp(false)} /> : null}
      {!codes && !steppingUp ? (
        <button type="button" className="account-button-secondary" disabled={action.busy} onClick={() => void generate()}>
          {status.generatedAt ? t('account.recovery.regenerate') : t('account.recovery.generate')}
        </button>
      ) : null}
      <AccountAlert text={action.error} />
    </AccountSection>
  );
}
