/**
 * A checkbox with its label beside it (rjsf's widget for booleans), such as accepting the terms.
 * Unticked it holds no value, so a schema's `required` or `const: true` can ask for the tick.
 */
import type { WidgetProps } from '@rjsf/utils';
import { errorId } from '@rjsf/utils';

/** Renders the box and its label. */
export function CheckboxWidget(props: WidgetProps) {
  const invalid = (props.rawErrors?.length ?? 0) > 0;
  return (
    <label className="field-checkbox" htmlFor={props.id}>
      <input
        type="checkbox"
        id={props.id}
        name={props.htmlName || props.id}
        checked={props.value === true}
        disabled={props.disabled || props.readonly}
        autoFocus={props.autofocus}
        aria-required={props.required || undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? errorId(props.id) : undefined}
        onChange={(event) => props.onChange(event.target.checked ? true : undefined)}
        onBlur={() => props.onBlur(props.id, props.value)}
        onFocus={() => props.onFocus(props.id, props.value)}
      />
      <span className="field-checkbox-label">{props.label}</span>
    </label>
  );
}

export default CheckboxWidget;
