/**
 * The live checklist of the strength rules (schemas/password-policy.json) under a new password, each shown met or
 * unmet. Once all are met, the line under it says the password is strong, or too common when the server's
 * common-password list has it; until that list has loaded it says nothing of strength, so it never calls strong a
 * password the server refuses. The sign-up and reset screens and the account page show the same one.
 */
import { useEffect, useState } from 'react';
import { t } from '../../services/messages.ts';
import { isCommonPassword, loadCommonPasswords } from '../../engine/common-passwords.ts';
import { checkPassword, commonPasswordMessage, strongPasswordMessage } from '../../engine/password-policy.ts';

/** The common-password list once loaded; undefined before, or if it cannot load (then strength goes unmentioned). */
function useCommonPasswords(): ReadonlySet<string> | undefined {
  const [list, setList] = useState<ReadonlySet<string>>();
  useEffect(() => {
    let live = true;
    loadCommonPasswords().then(
      (loaded) => live && setList(loaded),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return list;
}

/** Renders the checklist for `password` under the element id `id` (the input's aria-describedby names it). */
export function PasswordChecklist({ id, password }: { id: string; password: string }) {
  const rules = checkPassword(password);
  const common = useCommonPasswords();
  const verdict = !rules.every((rule) => rule.met) || common === undefined ? undefined : isCommonPassword(common, password) ? commonPasswordMessage : strongPasswordMessage;
  return (
    <div className="password-rules" id={id}>
      <p className="password-rules-title">{t('password.rules.title')}</p>
      <ul className="password-rules-list">
        {rules.map((rule) => (
          <li key={rule.id} className={rule.met ? 'password-rule password-rule-met' : 'password-rule'} data-met={rule.met}>
            <span className="visually-hidden">{t(rule.met ? 'password.rule.met' : 'password.rule.unmet')}</span>
            <span className="password-rule-text">{t(rule.message)}</span>
          </li>
        ))}
      </ul>
      {/* Announced when it appears, so screen-reader users hear whether the password is good enough. */}
      <p className={verdict === commonPasswordMessage ? 'password-strong password-common' : 'password-strong'} role="status">
        {verdict ? t(verdict) : ''}
      </p>
    </div>
  );
}
