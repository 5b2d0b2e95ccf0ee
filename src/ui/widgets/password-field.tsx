/** A password input with a show/hide toggle, so people on phones can check what they typed. */
import { useState, type InputHTMLAttributes } from 'react';
import { t } from '../../services/messages.ts';

/** Props of the password field: the input's attributes, from `inputProps`. */
export interface PasswordFieldProps {
  input: InputHTMLAttributes<HTMLInputElement>;
}

/** Renders the input and its visibility toggle. */
export function PasswordField({ input }: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="password-field">
      <input type={visible ? 'text' : 'password'} autoCapitalize="none" spellCheck={false} {...input} />
      <button
        type="button"
        className="password-toggle"
        aria-controls={input.id}
        disabled={input.disabled}
        onClick={() => setVisible((shown) => !shown)}
      >
        {t(visible ? 'field.password.hide' : 'field.password.show')}
      </button>
    </div>
  );
}
