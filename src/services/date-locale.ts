/**
 * The locale dates and times are written in: the browser's own (navigator.languages, so en-GB reads "27 Nov 2026,
 * 23:59" and en-US "Nov 27, 2026, 11:59 PM") when it is a variant of the language the page is shown in, else that
 * language itself, so a German page never mixes in English month names.
 */
import { currentLanguage } from './messages.ts';

/** The first of the browser's locales in `language`, else `language`. */
export function dateLocaleFor(language: string, browserLocales: readonly string[]): string {
  const base = language.toLowerCase().split('-')[0];
  return browserLocales.find((locale) => locale.toLowerCase().split('-')[0] === base) ?? language;
}

/** The locale for dates on the page now. */
export function dateLocale(): string {
  const browserLocales = typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  return dateLocaleFor(currentLanguage(), browserLocales);
}
