/** Small pieces every account section uses: dates in the reader's language, error text, a labelled field. */
import { useId, useState, type ReactNode } from 'react';
import { currentLanguage } from '../services/messages.ts';
import { hasMessage, t } from './account-messages.ts';
import { AccountCallError } from './account-auth.ts';
import { PasskeyCeremonyError } from './passkey-ceremony.ts';

/** "26 Nov 2026, 09:12" in the page's language; "Never" for no date. */
export function formatWhen(iso: string | null | undefined): string {
  if (!iso) return t('account.never');
  return new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** The words for a failed call in the reader's language: the catalogue's text for its code, else the server's. */
export function errorText(error: unknown): string {
  if (error instanceof PasskeyCeremonyError) return error.message;
  if (error instanceof AccountCallError) {
    const key = `apiError.${error.code}`;
    return hasMessage(key) ? t(key) : error.message;
  }
  return t('account.error');
}

/** Runs account calls for a section: tracks the one in flight and the last error, shown in an alert. */
export function useAccountAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  async function run<T>(work: () => Promise<T>): Promise<T | undefined> {
    setBusy(true);
    setError(undefined);
    try {
      return await work();
    } catch (failure) {
      setError(errorText(failure));
      return undefined;
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, setError, run };
}

/** An error line, announced to screen readers. */
export function AccountAlert({ text }: { text: string | undefined }) {
  return text ? (
    <p className="alert" role="alert">
      {text}
    </p>
  ) : null;
}

/** A labelled text input; the label is visible and tied to the input. */
export function AccountField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete?: string;
  inputMode?: 'numeric' | 'tel' | 'text' | 'email';
  type?: string;
  hint?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {props.label}
      </label>
      {props.hint ? (
        <p className="account-hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      <input
        id={id}
        className="field-input"
        type={props.type ?? 'text'}
        value={props.value}
        autoComplete={props.autoComplete ?? 'off'}
        inputMode={props.inputMode}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </div>
  );
}

/** One section of the account page, with its heading as the landmark's name. */
export function AccountSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="account-section" aria-labelledby={`${id}-title`} id={id}>
      <h2 id={`${id}-title`} className="account-section-title">
        {title}
      </h2>
      {children}
    </section>
  );
}
