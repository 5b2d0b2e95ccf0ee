/**
 * A new password: the password field plus the live checklist of the strength rules
 * (schemas/password-policy.json), each shown met or unmet, and the "strong" line once all are met.
 */
import type { WidgetProps } from '@rjsf/utils';
import { t } from '../../services/messages.ts';
import { checkPassword, strongPasswordMessage } from '../../engine/password-policy.ts';
import { inputProps } from './input-props.ts';
import { PasswordField } from './password-field.tsx';

/** Renders the field and its checklist. */
export function NewPasswordWidget(props: WidgetProps) {
  const input = inputProps(props);
  const rulesId = `${props.id}__rules`;
  const rules = checkPassword(typeof props.value === 'string' ? props.value : '');
  const strong = rules.every((rule) => rule.met);
  const describedBy = [input['aria-describedby'], rulesId].filter(Boolean).join(' ');
  return (
    <>
      <PasswordField input={{ ...input, autoComplete: input.autoComplete ?? 'new-password', 'aria-describedby': describedBy }} />
      <div className="password-rules" id={rulesId}>
        <p className="password-rules-title">{t('password.rules.title')}</p>
        <ul className="password-rules-list">
          {rules.map((rule) => (
            <li key={rule.id} className={rule.met ? 'password-rule password-rule-met' : 'password-rule'} data-met={rule.met}>
              <span className="visually-hidden">{t(rule.met ? 'password.rule.met' : 'password.rule.unmet')}</span>
              <span className="password-rule-text">{t(rule.message)}</span>
            </li>
          ))}
        </ul>
        {/* Announced when it appears, so screen-reader users hear the password is good enough. */}
        <p className="password-strong" role="status">
          {strong ? t(strongPasswordMessage) : ''}
        </p>
      </div>
    </>
  );
}

export default NewPasswordWidget;
