/**
 * A field the user does not see, holding a value the flow supplies (a prefill). It stays a text
 * input with `ui:autocomplete`, so a password manager can pair, say, the account email with the
 * new password beside it.
 */
import type { WidgetProps } from '@rjsf/utils';

/** Renders the hidden input. */
export function HiddenWidget({ id, htmlName, value, options }: WidgetProps) {
  return (
    <input
      type="text"
      hidden
      readOnly
      id={id}
      name={htmlName || id}
      value={typeof value === 'string' || typeof value === 'number' ? value : ''}
      autoComplete={typeof options.autocomplete === 'string' ? options.autocomplete : 'off'}
    />
  );
}
