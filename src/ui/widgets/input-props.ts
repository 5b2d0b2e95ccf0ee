/**
 * The <input> attributes every text-like widget shares: id/name, autocomplete from
 * `ui:autocomplete`, and the ARIA wiring that ties a field to its error messages: its own, and the step's (the
 * server's "That code is not right" shown above the form), so a screen reader on the field reads why.
 */
import type { ChangeEvent, FocusEvent, InputHTMLAttributes } from 'react';
import { errorId, type WidgetProps } from '@rjsf/utils';

/** Attributes and handlers for an input rendering `props`. */
export function inputProps(props: WidgetProps): InputHTMLAttributes<HTMLInputElement> {
  const { id, options, schema } = props;
  const invalid = (props.rawErrors?.length ?? 0) > 0;
  const autoComplete = typeof options.autocomplete === 'string' ? options.autocomplete : undefined;
  const stepError = (props.registry.formContext as { errorMessageId?: unknown } | undefined)?.errorMessageId;
  const describedBy = [invalid ? errorId(id) : undefined, typeof stepError === 'string' ? stepError : undefined].filter(Boolean).join(' ');
  return {
    id,
    name: props.htmlName || id,
    className: 'field-input',
    value: typeof props.value === 'string' || typeof props.value === 'number' ? props.value : '',
    autoComplete,
    autoFocus: props.autofocus,
    disabled: props.disabled,
    readOnly: props.readonly,
    placeholder: props.placeholder || undefined,
    maxLength: typeof schema.maxLength === 'number' ? schema.maxLength : undefined,
    'aria-required': props.required || undefined,
    'aria-invalid': invalid || undefined,
    // Point only at error messages that are rendered, so screen readers read them.
    'aria-describedby': describedBy || undefined,
    onChange: (event: ChangeEvent<HTMLInputElement>) =>
      props.onChange(event.target.value === '' ? options.emptyValue : event.target.value),
    onBlur: (event: FocusEvent<HTMLInputElement>) => props.onBlur(id, event.target.value),
    onFocus: (event: FocusEvent<HTMLInputElement>) => props.onFocus(id, event.target.value),
  };
}
