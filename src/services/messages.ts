/**
 * The message catalogues: every user-facing string comes from flows/messages/<language>.json by
 * key. English is built in and fills any gap; another language is switched to once loaded
 * (src/services/languages.ts loads it, so this module stays free of bundler and browser APIs).
 */
import english from '../../flows/messages/en.json';
import { formatMessage } from '../../contract/message-format.ts';

/** Values substituted for `{name}` placeholders. */
export type MessageParams = Readonly<Record<string, string | number>>;

/** A catalogue: key -> text. */
export type Catalogue = Readonly<Record<string, string>>;

/** The built-in language, which every other catalogue follows key for key. */
export const DEFAULT_LANGUAGE = 'en';

/** The English catalogue, always loaded. */
export const builtInCatalogue: Catalogue = english;

const source = builtInCatalogue;
let active = { language: DEFAULT_LANGUAGE, messages: source };
/** Words of word sets loaded so far (src/services/word-sets.ts), by language. */
const added = new Map<string, Record<string, string>>();

/** Adds words of a word set in `language`; t() finds them like the catalogue's own. */
export function addWords(language: string, words: Catalogue): void {
  added.set(language, { ...added.get(language), ...words });
}
const listeners = new Set<() => void>();

/** The language texts are currently shown in. */
export function currentLanguage(): string {
  return active.language;
}

/** Shows texts from `catalogue` from now on, and tells every listener. */
export function activateCatalogue(language: string, catalogue: Catalogue): void {
  active = { language, messages: catalogue };
  for (const listener of listeners) listener();
}

/** Calls `listener` after every language switch; returns the unsubscribe function. */
export function onLanguageChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the catalogues have a text for `key` (English is the source of truth). */
export function hasMessage(key: string): boolean {
  return key in source || key in (added.get(DEFAULT_LANGUAGE) ?? {});
}

/** The English text of `key`, whatever language is shown. */
export function englishMessage(key: string): string | undefined {
  return source[key];
}

/**
 * The text for `key` in the current language with `{name}` placeholders filled from `params`.
 * A missing key renders as the key itself so the gap is visible rather than blank.
 */
export function t(key: string, params: MessageParams = {}): string {
  const template = active.messages[key] ?? added.get(active.language)?.[key] ?? source[key] ?? added.get(DEFAULT_LANGUAGE)?.[key] ?? key;
  return formatMessage(template, params, active.language);
}

/** Example values for validation messages: `validation.example.email` fills `{email}`. */
export function validationExamples(): Record<string, string> {
  const prefix = 'validation.example.';
  const examples: Record<string, string> = {};
  for (const key of Object.keys(source)) {
    if (key.startsWith(prefix)) examples[key.slice(prefix.length)] = t(key);
  }
  return examples;
}
