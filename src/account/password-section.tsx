/**
 * The password change: the current password (re-authentication) and a new one held to the policy, with the live
 * checklist and "Show password" as at sign-up; a fresh second factor first. Every other session ends and every
 * trusted browser is revoked, and the page says so. Errors stand beside the field they concern.
 */
import { useId, useState, type FormEvent } from 'react';
import { API_PREFIX } from '../../contract/product.ts';
import { firstUnmetRule } from '../engine/password-policy.ts';
import { encryptValue, type CredentialKey } from '../services/credentials.ts';
import { PasswordChecklist } from '../ui/widgets/password-checklist.tsx';
import { PasswordField } from '../ui/widgets/password-field.tsx';
import { t } from './account-messages.ts';
import { accountCall } from './account-auth.ts';
import type { FactorList } from '../../contract/account-api.ts';
import { AccountAlert, AccountSection, FieldError, useAccountAction } from './account-ui.tsx';
import { useStepUpGate } from './step-up.tsx';

/** Both passwords sealed to the server's credential key with one nonce, as the sign-in screens send them. */
async function sealPasswords(currentPassword: string, newPassword: string): Promise<Record<string, string>> {
  const response = await fetch(`${API_PREFIX}/crypto/rsa-public-key`, { headers: { accept: 'application/json' } });
  const key = (await response.json()) as CredentialKey;
  return { currentPassword: await encryptValue(currentPassword, key), newPassword: await encryptValue(newPassword, key) };
}

/** Which field a refused change concerns: the current password, or the new one (a rule, a reused password). */
const CURRENT_PASSWORD_CODES = new Set(['account.password_wrong']);
const NEW_PASSWORD_CODES = new Set(['request.invalid', 'password.reused']);

function PasswordInput(props: { label: string; value: string; onChange: (value: string) => void; autoComplete: string; error: string | undefined; checklist?: boolean }) {
  const id = useId();
  const describedBy = [props.error ? `${id}-error` : undefined, props.checklist ? `${id}-rules` : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {props.label}
      </label>
      <PasswordField
        input={{
          id,
          className: 'field-input',
          value: props.value,
          autoComplete: props.autoComplete,
          'aria-invalid': props.error ? true : undefined,
          'aria-describedby': describedBy,
          onChange: (event) => props.onChange(event.target.value),
        }}
      />
      <FieldError id={`${id}-error`} text={props.error} />
      {props.checklist ? <PasswordChecklist id={`${id}-rules`} password={props.value} /> : null}
    </div>
  );
}

/** The password section; `onSignedOutElsewhere` refreshes what the change ended (sessions, trusted browsers). */
export function PasswordSection({ list, onList, onSignedOutElsewhere }: { list: FactorList; onList: (list: FactorList) => void; onSignedOutElsewhere: () => void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  /** The message keys of the fields' own errors, worded when shown so they follow a switch of language. */
  const [fieldErrors, setFieldErrors] = useState<{ current?: string; next?: string }>({});
  const [done, setDone] = useState<{ endedSessions: number; trustedDevicesRevoked: number }>();
  const action = useAccountAction();
  const gate = useStepUpGate(list, onList, action.runCoded);
  const serverError = action.code && CURRENT_PASSWORD_CODES.has(action.code) ? { current: action.error } : action.code && NEW_PASSWORD_CODES.has(action.code) ? { next: action.error } : {};
  const errors = { ...serverError, ...Object.fromEntries(Object.entries(fieldErrors).map(([field, key]) => [field, key && t(key)])) };
  const sectionError = serverError.current || serverError.next ? undefined : action.error;

  async function change() {
    const answer = await accountCall<{ endedSessions: number; trustedDevicesRevoked: number }>('POST', '/account/password', await sealPasswords(current, next));
    setDone(answer);
    setCurrent('');
    setNext('');
    onSignedOutElsewhere();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setDone(undefined);
    action.setError(undefined);
    const unmet = next === '' ? 'validation.newPassword.required' : firstUnmetRule(next);
    const found = { current: current === '' ? 'validation.password.required' : undefined, next: unmet };
    setFieldErrors(found);
    if (found.current || found.next) return;
    await gate.guard(change);
  }

  return (
    <AccountSection id="password" title={t('account.password.title')}>
      <p>{t('account.password.intro')}</p>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <PasswordInput label={t('account.password.current')} value={current} onChange={setCurrent} autoComplete="current-password" error={errors.current} />
        <PasswordInput label={t('account.password.new')} value={next} onChange={setNext} autoComplete="new-password" error={errors.next} checklist />
        {gate.steppingUp ? null : (
          <button type="submit" className="button-primary" disabled={action.busy}>
            {t('account.password.submit')}
          </button>
        )}
      </form>
      {gate.stepUp}
      {done ? (
        <p className="account-notice" role="status">
          {t('account.password.changed', { count: done.endedSessions, trusted: done.trustedDevicesRevoked })}
        </p>
      ) : null}
      <AccountAlert text={sectionError} />
    </AccountSection>
  );
}
