/** A new password: the password field plus the live checklist of the strength rules (PasswordChecklist). */
import type { WidgetProps } from '@rjsf/utils';
import { inputProps } from './input-props.ts';
import { PasswordChecklist } from './password-checklist.tsx';
import { PasswordField } from './password-field.tsx';

/** Renders the field and its checklist. */
export function NewPasswordWidget(props: WidgetProps) {
  const input = inputProps(props);
  const rulesId = `${props.id}__rules`;
  const password = typeof props.value === 'string' ? props.value : '';
  const describedBy = [input['aria-describedby'], rulesId].filter(Boolean).join(' ');
  return (
    <>
      <PasswordField input={{ ...input, autoComplete: input.autoComplete ?? 'new-password', 'aria-describedby': describedBy }} />
      <PasswordChecklist id={rulesId} password={password} />
    </>
  );
}

export default NewPasswordWidget;
