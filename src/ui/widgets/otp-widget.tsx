/**
 * A one-time code: numeric keyboard, the browser's SMS/email code autofill, and a pasted code
 * with spaces or dashes reduced to its digits (`ui:options.length` cuts it to size).
 */
import type { ChangeEvent } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { normalizeCode } from '../../core/one-time-code.ts';
import { inputProps } from './input-props.ts';

/** Renders the code field. */
export function OtpWidget(props: WidgetProps) {
  const input = inputProps(props);
  const length = typeof props.options.length === 'number' ? props.options.length : undefined;
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
