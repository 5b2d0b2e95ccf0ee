/**
 * The step-up: before a factor is added or removed, recovery codes are made, the password or email changes or other
 * sessions are signed out, the person proves a second factor again (within five minutes; a sign-in counts). They pick one of their factors, get its code (email, SMS) or read their app's.
 */
import { useState, type FormEvent } from 'react';
import { t } from './account-messages.ts';
import { AccountCallError, accountCall } from './account-auth.ts';
import { AccountAlert, AccountField, useAccountAction } from './account-ui.tsx';
import type { FactorList, FactorSummary } from '../../contract/account-api.ts';
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
    if (code.trim() === '') return action.setError({ key: 'validation.code.required' });
    const answer = await action.run(() => accountCall('POST', '/account/step-up', { factorId, code: code.trim() }));
    if (answer) onProven();
  }

  const showsCodeField = factor?.kind !== 'passkey' && !(factor && factor.kind !== 'totp' && !sent);
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
            autoFocus
            error={action.error}
          />
          <button type="submit" className="button-primary" disabled={action.busy}>
            {t('account.stepUp.confirm')}
          </button>
        </>
      )}
      {/* A wrong code shows on its field; a failure before there is one (sending the code, a passkey) shows here. */}
      <AccountAlert text={showsCodeField ? undefined : action.error} />
      <button type="button" className="account-button-secondary" disabled={action.busy} onClick={onCancel}>
        {t('account.cancel')}
      </button>
    </form>
  );
}

/** Whether a step-up is fresh now (with a few seconds to spare), or nothing can be stepped up with. */
export const stepUpFresh = (list: FactorList) => list.factors.length === 0 || (list.stepUpUntil !== null && Date.parse(list.stepUpUntil) > Date.now() + 5000);

/** How a section runs its calls (useAccountAction's `run`): busy while it runs, its failure shown in the section. */
type Runner = <T>(work: () => Promise<T>) => Promise<T | undefined>;

/**
 * Runs a guarded change through `run`: at once while the step-up is fresh (a sign-in within the window counts), else
 * after the person proves a factor in the StepUp the hook renders; a server that still asks for one shows it too.
 */
export function useStepUpGate(list: FactorList, onList: (list: FactorList) => void, run: Runner) {
  const [waiting, setWaiting] = useState<() => Promise<unknown>>();

  async function attempt(change: () => Promise<unknown>): Promise<void> {
    await run(async () => {
      try {
        await change();
      } catch (failure) {
        if (!(failure instanceof AccountCallError && failure.code === 'account.step_up_required')) throw failure;
        setWaiting(() => change);
      }
    });
  }

  async function guard(change: () => Promise<unknown>): Promise<void> {
    if (!stepUpFresh(list)) return setWaiting(() => change);
    await attempt(change);
  }

  async function proven() {
    const change = waiting;
    setWaiting(undefined);
    const fresh = await run(() => accountCall<FactorList>('GET', '/account/factors'));
    if (fresh) onList(fresh);
    if (change) await attempt(change);
  }

  const stepUp = waiting ? <StepUp factors={list.factors} onProven={() => void proven()} onCancel={() => setWaiting(undefined)} /> : null;
  return { guard, stepUp, steppingUp: waiting !== undefined };
}
