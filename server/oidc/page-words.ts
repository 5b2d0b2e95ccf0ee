import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { screenLanguages } from '../flows/languages.ts';

const MESSAGES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../flows/messages');
/** The word set of the pages the provider serves itself (sign-out, signed out, its error page). */
const WORD_SET = 'provider-pages';

/** The cookie the web app keeps the language shown in (src/ui/language-preference.ts), so these pages speak it too. */
export const LANGUAGE_COOKIE = 'sso_lang';

type Catalogue = Readonly<Record<string, string>>;

function readCatalogue(file: string): Catalogue {
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Catalogue) : {};
}

const catalogues = new Map<string, Catalogue>(
  screenLanguages().map((language) => [
    language,
    { ...readCatalogue(path.join(MESSAGES, `${language}.json`)), ...readCatalogue(path.join(MESSAGES, WORD_SET, `${language}.json`)) },
  ]),
);

/** The words of one language: `key` with `{name}` placeholders filled (the caller escapes for HTML). */
export type Words = (key: string, params?: Readonly<Record<string, string | number>>) => string;

/** The first language of `preferred` the screens speak (exact tag, else its primary subtag), else English. */
export function pickPageLanguage(preferred: ReadonlyArray<string | undefined>): string {
  for (const tag of preferred) {
    if (!tag) continue;
    const lower = tag.trim().toLowerCase();
    if (catalogues.has(lower)) return lower;
    const primary = lower.split('-')[0] ?? '';
    if (catalogues.has(primary)) return primary;
  }
  return 'en';
}

/** An Accept-Language header's tags, most wanted first. */
export function acceptedLanguages(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...options] = part.split(';');
      const q = Number(options.find((option) => option.trim().startsWith('q='))?.trim().slice(2) ?? '1');
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}

/** The words of `language`, English where it has none. */
export function wordsFor(language: string): Words {
  const catalogue = catalogues.get(language) ?? {};
  const english = catalogues.get('en') ?? {};
  return (key, params = {}) => {
    const text = catalogue[key] ?? english[key];
    if (text === undefined) throw new Error(`flows/messages has no "${key}" (word set ${WORD_SET})`);
    return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
  };
}
