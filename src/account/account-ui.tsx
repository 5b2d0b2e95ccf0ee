/** Small pieces every account section uses: dates in the reader's language, error text, a labelled field. */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { dateLocale } from '../services/date-locale.ts';
import type { MessageParams } from '../services/messages.ts';
import { hasMessage, t } from './account-messages.ts';
import { AccountCallError } from './account-auth.ts';
import { PasskeyCeremonyError } from './passkey-ceremony.ts';

/** "26 Nov 2026, 09:12" as the browser writes dates in the page's language (en-GB so, en-US "Nov 26, 2026, 9:12 AM"); "Never" for no date. */
export function formatWhen(iso: string | null | undefined): string {
  if (!iso) return t('account.never');
  return new Intl.DateTimeFormat(dateLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** The words for a failed call in the reader's language: the catalogue's text for its code, else the server's. */
function errorText(error: unknown): string {
  if (error instanceof PasskeyCeremonyError) return error.message;
  if (error instanceof AccountCallError) {
    // The precise problem (a password rule, "Please enter your name") before the code's general words.
    if (error.reason && hasMessage(error.reason)) return t(error.reason);
    const key = `apiError.${error.code}`;
    return hasMessage(key) ? t(key) : error.message;
  }
  return t('account.error');
}

/**
 * Words to show, an error or a notice, kept as what they say (a message and its values, or a failed call) rather
 * than as text: so they are worded when shown, in the language of the moment, and a switch of language words them anew.
 */
export type Wording = { key: string; params?: MessageParams } | { failure: unknown };

/** The words of `wording` in the page's language. */
export function worded(wording: Wording | undefined): string | undefined {
  if (wording === undefined) return undefined;
  return 'key' in wording ? t(wording.key, wording.params) : errorText(wording.failure);
}

/** Runs account calls for a section: tracks the one in flight and the last error, shown in an alert. */
export function useAccountAction() {
  const [busy, setBusy] = useState(false);
  const [wording, setError] = useState<Wording>();
  const error = worded(wording);
  async function run<T>(work: () => Promise<T>): Promise<T | undefined> {
    setBusy(true);
    setError(undefined);
    try {
      return await work();
    } catch (failure) {
      setError({ failure });
      return undefined;
    } finally {
      setBusy(false);
    }
  }
  /** The code of the last refused call, so a section can put its words beside the field they concern. */
  const [code, setCode] = useState<string>();
  async function runCoded<T>(work: () => Promise<T>): Promise<T | undefined> {
    setCode(undefined);
    return run(async () => {
      try {
        return await work();
      } catch (failure) {
        if (failure instanceof AccountCallError) setCode(failure.code);
        throw failure;
      }
    });
  }
  return { busy, error, setError, run, code, runCoded };
}

/** An error line, announced to screen readers. */
export function AccountAlert({ text }: { text: string | undefined }) {
  return text ? (
    <p className="alert" role="alert">
      {text}
    </p>
  ) : null;
}

/** A labelled text input; the label is visible and tied to the input, and so is its error, if any. */
export function AccountField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete?: string;
  inputMode?: 'numeric' | 'tel' | 'text' | 'email';
  type?: string;
  hint?: string;
  error?: string;
  /** Focused when it shows (the step-up's code field, asked for right after the person chose to act). */
  autoFocus?: boolean;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  // After an error, focus goes to the first field in error of the form, so the person lands where to fix it.
  useEffect(() => {
    const field = input.current;
    if (!props.error || !field) return;
    const firstInvalid = (field.form ?? document).querySelector('[aria-invalid="true"]');
    if (firstInvalid === field) field.focus();
  }, [props.error]);
  const describedBy = [props.hint ? `${id}-hint` : undefined, props.error ? `${id}-error` : undefined].filter(Boolean).join(' ') || undefined;
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
        ref={input}
        id={id}
        autoFocus={props.autoFocus}
        className="field-input"
        type={props.type ?? 'text'}
        value={props.value}
        autoComplete={props.autoComplete ?? 'off'}
        inputMode={props.inputMode}
        aria-describedby={describedBy}
        aria-invalid={props.error ? true : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      />
      <FieldError id={`${id}-error`} text={props.error} />
    </div>
  );
}

/** A field's error line, tied to its input by `id`. */
export function FieldError({ id, text }: { id: string; text: string | undefined }) {
  return text ? (
    <p className="field-errors" id={id}>
      {text}
    </p>
  ) : null;
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
