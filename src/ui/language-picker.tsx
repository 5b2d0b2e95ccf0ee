/** The language switch in the footer: a labelled select listing each language in its own name. */
import { useEffect, useRef } from 'react';
import { languages } from '../services/languages.ts';
import { currentLanguage, t } from '../services/messages.ts';
import { chooseLanguage, useLanguage } from './language-preference.ts';

/** "Deutsch" for "de": a language named in itself, so a reader finds theirs whatever is shown. */
function ownName(language: string): string {
  const name = new Intl.DisplayNames([language], { type: 'language' }).of(language) ?? language;
  return name.charAt(0).toLocaleUpperCase(language) + name.slice(1);
}

/** Renders the picker, or nothing while the app speaks one language only. */
export function LanguagePicker() {
  const language = useLanguage();
  const select = useRef<HTMLSelectElement>(null);
  // The prerendered login screen shows this select before the app starts (src/paint-gate.ts), and React does not
  // see a choice made before it hydrated: the select would say Deutsch over English words. Such a choice is
  // taken up once the app runs.
  useEffect(() => {
    const chosenBeforeStart = select.current?.value;
    if (chosenBeforeStart && chosenBeforeStart !== currentLanguage()) void chooseLanguage(chosenBeforeStart);
  }, []);
  if (languages.length < 2) return null;
  return (
    <label className="language-picker">
      <span className="language-picker-label">{t('app.language')}</span>
      <select ref={select} value={language} onChange={(event) => void chooseLanguage(event.target.value)}>
        {languages.map((code) => (
          <option key={code} value={code} lang={code}>
            {ownName(code)}
          </option>
        ))}
      </select>
    </label>
  );
}
