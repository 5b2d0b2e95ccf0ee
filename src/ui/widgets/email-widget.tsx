/** An email input: email keyboard on phones, no autocapitalisation or spell-checking. */
import type { WidgetProps } from '@rjsf/utils';
import { inputProps } from './input-props.ts';

/** Renders an email address field. */
export function EmailWidget(props: WidgetProps) {
  return <input type="email" inputMode="email" autoCapitalize="none" spellCheck={false} {...inputProps(props)} />;
}
