/** A password input with a show/hide toggle, so people on phones can check what they typed. */
import { useState } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { t } from '../../core/messages.ts';
import { inputProps } from './input-props.ts';

/** Renders a password field and its visibility toggle. */
export function PasswordWidget(props: WidgetProps) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="password-field">
      <input type={visible ? 'text' : 'password'} autoCapitalize="none" spellCheck={false} {...inputProps(props)} />
      <button
        type="button"
        className="password-toggle"
        aria-controls={props.id}
        disabled={props.disabled}
        onClick={() => setVisible((shown) => !shown)}
      >
        {t(visible ? 'field.password.hide' : 'field.password.show')}
      </button>
    </div>
  );
}
