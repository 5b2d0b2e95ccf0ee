/** A plain text input. */
import type { WidgetProps } from '@rjsf/utils';
import { inputProps } from './input-props.ts';

/** Renders a single-line text field. */
export function TextWidget(props: WidgetProps) {
  return <input type="text" {...inputProps(props)} />;
}
