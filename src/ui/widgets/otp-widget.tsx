/**
 * A one-time code: numeric keyboard, the browser's SMS/email code autofill, and a pasted code
 * with spaces or dashes reduced to its digits (`ui:options.length` cuts it to size). With
 * `ui:options.webOtp` the WebOTP API fills in a code texted with the site's origin line, where
 * the browser has it (Chrome on Android); elsewhere nothing changes.
 */
import { useEffect, useRef, type ChangeEvent } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { normalizeCode } from './one-time-code.ts';
import { inputProps } from './input-props.ts';

/** Asks the browser for a texted code bound to this origin; resolves with it, or undefined when none comes. */
async function receiveTextedCode(signal: AbortSignal): Promise<string | undefined> {
  // The WebOTP option is not in TypeScript's DOM types yet.
  const request = { otp: { transport: ['sms'] }, signal } as CredentialRequestOptions;
  const credential = (await navigator.credentials.get(request).catch(() => null)) as { code?: unknown } | null;
  return typeof credential?.code === 'string' ? credential.code : undefined;
}

/** Renders the code field. */
export function OtpWidget(props: WidgetProps) {
  const input = inputProps(props);
  const length = typeof props.options.length === 'number' ? props.options.length : undefined;
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  const webOtp = props.options.webOtp === true;

  useEffect(() => {
    if (!webOtp || !('OTPCredential' in window)) return undefined;
    const abort = new AbortController();
    void receiveTextedCode(abort.signal).then((code) => {
      if (code) onChange.current(normalizeCode(code, length));
    });
    return () => abort.abort();
  }, [webOtp, length]);

  return (
    <input
      type="text"
      inputMode="numeric"
      pattern="[0-9]*"
      spellCheck={false}
      {...input}
      autoComplete={input.autoComplete ?? 'one-time-code'}
      // No maxLength: the browser would cut "123 456" to "123 45" before it could be cleaned.
      maxLength={undefined}
      onChange={(event: ChangeEvent<HTMLInputElement>) => {
        const code = normalizeCode(event.target.value, length);
        props.onChange(code === '' ? props.options.emptyValue : code);
      }}
    />
  );
}

export default OtpWidget;
