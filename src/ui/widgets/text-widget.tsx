/** A plain text input; `ui:options.inputType: "tel"` gives a phone number the phone keypad. */
import type { WidgetProps } from '@rjsf/utils';
import { inputProps } from './input-props.ts';

/** Renders a single-line text field. */
export function TextWidget(props: WidgetProps) {
  return <input type={props.options.inputType === 'tel' ? 'tel' : 'text'} {...inputProps(props)} />;
}
