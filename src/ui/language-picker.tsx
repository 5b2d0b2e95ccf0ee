/** The language switch in the footer: a labelled select listing each language in its own name. */
import { languages } from '../services/languages.ts';
import { t } from '../services/messages.ts';
import { chooseLanguage, useLanguage } from './language-preference.ts';

/** "Deutsch" for "de": a language named in itself, so a reader finds theirs whatever is shown. */
function ownName(language: string): string {
  const name = new Intl.DisplayNames([language], { type: 'language' }).of(language) ?? language;
  return name.charAt(0).toLocaleUpperCase(language) + name.slice(1);
}

/** Renders the picker, or nothing while the app speaks one language only. */
export function LanguagePicker() {
  const language = useLanguage();
  if (languages.length < 2) return null;
  return (
    <label className="language-picker">
      <span className="language-picker-label">{t('app.language')}</span>
      <select value={language} onChange={(event) => void chooseLanguage(event.target.value)}>
        {languages.map((code) => (
          <option key={code} value={code} lang={code}>
            {ownName(code)}
          </option>
        ))}
      </select>
    </label>
  );
}
