/**
 * The step-up: before a factor is added or removed, or recovery codes are made, the person proves a second factor
 * again (within five minutes). They pick one of their factors, get its code (email, SMS) or read their app's.
 */
import { useState, type FormEvent } from 'react';
import { t } from './account-messages.ts';
import { accountCall } from './account-auth.ts';
import { AccountAlert, AccountField, useAccountAction } from './account-ui.tsx';
import type { FactorSummary } from './account-types.ts';
import { PasskeyCeremonyError, passkeyRequest, runPasskeyCeremony } from './passkey-ceremony.ts';

/** Asks for a fresh second factor; calls `onProven` once the server has accepted it. */
export function StepUp({ factors, onProven, onCancel }: { factors: readonly FactorSummary[]; onProven: () => void; onCancel: () => void }) {
  const [factorId, setFactorId] = useState(factors.find((factor) => factor.isDefault)?.id ?? factors[0]?.id ?? '');
  const [sent, setSent] = useState(false);
  const [code, setCode] = useState('');
  const action = useAccountAction();
  const factor = factors.find((candidate) => candidate.id === factorId);

  async function send() {
    const answer = await action.run(() => accountCall('POST', '/account/step-up', { factorId }));
    if (answer) setSent(true);
  }

  async function usePasskey() {
    const answer = await action.run(async () => {
      const request = passkeyRequest(await accountCall<Record<string, unknown>>('POST', '/account/step-up', { factorId }));
      if (!request) throw new PasskeyCeremonyError(t('account.passkey.failed'));
      return accountCall('POST', '/account/step-up', { factorId, credential: await runPasskeyCeremony(request) });
    });
    if (answer) onProven();
  }

  async function confirm(event: FormEvent) {
    event.preventDefault();
    if (code.trim() === '') return action.setError(t('validation.code.required'));
    const answer = await action.run(() => accountCall('POST', '/account/step-up', { factorId, code: code.trim() }));
    if (answer) onProven();
  }

  return (
    <form className="account-panel" onSubmit={(event) => void confirm(event)} aria-labelledby="step-up-title">
      <h3 id="step-up-title" className="account-panel-title">
        {t('account.stepUp.title')}
      </h3>
      <p>{t('account.stepUp.body')}</p>
      <div className="field">
        <label className="field-label" htmlFor="step-up-factor">
          {t('account.stepUp.method')}
        </label>
        <select
          id="step-up-factor"
          className="field-input"
          value={factorId}
          onChange={(event) => {
            setFactorId(event.target.value);
            setSent(false);
          }}
        >
          {factors.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {[candidate.label || t(`account.factor.kind.${candidate.kind}`), candidate.destination].filter(Boolean).join(' ')}
            </option>
          ))}
        </select>
      </div>
      {factor?.kind === 'passkey' ? (
        <button type="button" className="button-primary" disabled={action.busy} onClick={() => void usePasskey()}>
          {t('account.stepUp.usePasskey')}
        </button>
      ) : factor && factor.kind !== 'totp' && !sent ? (
        <button type="button" className="button-primary" disabled={action.busy} onClick={() => void send()}>
          {t('account.stepUp.send')}
        </button>
      ) : (
        <>
          <AccountField
            label={factor?.kind === 'totp' ? t('account.stepUp.appCode') : t('account.stepUp.sentCode')}
            value={code}
            onChange={setCode}
            inputMode="numeric"
            autoComplete="one-time-code"
          />
          <button type="submit" className="button-primary" disabled={action.busy}>
            {t('account.stepUp.confirm')}
          </button>
        </>
      )}
      <AccountAlert text={action.error} />
      <button type="button" className="account-button-secondary" disabled={action.busy} onClick={onCancel}>
        {t('account.cancel')}
      </button>
    </form>
  );
}
