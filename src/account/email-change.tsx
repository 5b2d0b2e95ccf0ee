/**
 * Changing the email, after a fresh second factor: a code goes to the new address and the change counts once it is
 * entered (with a fresh factor again). A change waiting for its code shows, with a way to cancel it; the old address
 * is told, with a link that undoes the change.
 */
import { useState, type FormEvent } from 'react';
import { t } from './account-messages.ts';
import { accountCall } from './account-auth.ts';
import type { FactorList } from '../../contract/account-api.ts';
import { AccountAlert, AccountField, formatWhen, useAccountAction, worded, type Wording } from './account-ui.tsx';
import { useStepUpGate } from './step-up.tsx';

/** An email change waiting for the code sent to the new address. */
export interface PendingEmail {
  email: string;
  expiresAt: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Outcome = 'changed' | 'cancelled' | undefined;

/** The email change panel of the profile section. */
export function EmailChange(props: {
  pending: PendingEmail | null;
  list: FactorList;
  onList: (list: FactorList) => void;
  onPending: (pending: PendingEmail | null) => void;
  /** The address changed (the pending change is then gone too). */
  onEmail: (email: string) => void;
}) {
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<Wording>();
  const [outcome, setOutcome] = useState<Outcome>();
  const action = useAccountAction();
  const gate = useStepUpGate(props.list, props.onList, action.run);
  const { pending } = props;

  function startOver() {
    setOutcome(undefined);
    setFieldError(undefined);
    action.setError(undefined);
  }

  async function request(event: FormEvent) {
    event.preventDefault();
    startOver();
    const error = email.trim() === '' ? 'validation.email.required' : EMAIL.test(email.trim()) ? undefined : 'validation.email.invalid';
    if (error) return setFieldError({ key: error, params: { email: 'name@example.com' } });
    await gate.guard(async () => {
      const answer = await accountCall<{ pendingEmail: string; expiresAt: string }>('POST', '/account/email', { email });
      props.onPending({ email: answer.pendingEmail, expiresAt: answer.expiresAt });
      setEmail('');
    });
  }

  async function confirm(event: FormEvent) {
    event.preventDefault();
    startOver();
    if (code.trim() === '') return setFieldError({ key: 'validation.code.required' });
    await gate.guard(async () => {
      const answer = await accountCall<{ email: string }>('POST', '/account/email/confirmation', { code: code.trim() });
      props.onEmail(answer.email);
      setCode('');
      setOutcome('changed');
    });
  }

  async function cancel() {
    startOver();
    const answer = await action.run(() => accountCall('POST', '/account/email/cancellation'));
    if (!answer) return;
    props.onPending(null);
    setCode('');
    setOutcome('cancelled');
  }

  return (
    <div className="account-panel">
      <h3 className="account-panel-title">{t('account.email.title')}</h3>
      {pending ? (
        <form onSubmit={(event) => void confirm(event)} noValidate>
          <p>{t('account.email.pending', { email: pending.email, until: formatWhen(pending.expiresAt) })}</p>
          <AccountField label={t('account.factor.code')} value={code} onChange={setCode} inputMode="numeric" autoComplete="one-time-code" error={worded(fieldError)} />
          {gate.steppingUp ? null : (
            <div className="account-actions">
              <button type="submit" className="button-primary" disabled={action.busy}>
                {t('account.email.confirm')}
              </button>
              <button type="button" className="account-button-secondary" disabled={action.busy} onClick={() => void cancel()}>
                {t('account.email.cancel')}
              </button>
            </div>
          )}
        </form>
      ) : (
        <form onSubmit={(event) => void request(event)} noValidate>
          <p>{t('account.email.intro')}</p>
          <AccountField label={t('account.email.new')} value={email} onChange={setEmail} type="email" inputMode="email" autoComplete="email" error={worded(fieldError)} />
          {gate.steppingUp ? null : (
            <button type="submit" className="button-primary" disabled={action.busy}>
              {t('account.email.send')}
            </button>
          )}
        </form>
      )}
      {gate.stepUp}
      {outcome ? (
        <p className="account-notice" role="status">
          {t(outcome === 'changed' ? 'account.email.changed' : 'account.email.cancelled')}
        </p>
      ) : null}
      <AccountAlert text={action.error} />
    </div>
  );
}
