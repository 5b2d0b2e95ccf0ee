/** A password field for signing in (`ui:autocomplete` says which, e.g. current-password). */
import type { WidgetProps } from '@rjsf/utils';
import { inputProps } from './input-props.ts';
import { PasswordField } from './password-field.tsx';

/** Renders a password field and its visibility toggle. */
export function PasswordWidget(props: WidgetProps) {
  return <PasswordField input={inputProps(props)} />;
}
