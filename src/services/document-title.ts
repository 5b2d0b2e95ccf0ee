/**
 * Document titles in the language shown. Titles are written in the spec's English words ("Register | Job Details");
 * each part between " | " has its words in the `titles` word set (flows/messages/titles/, loaded with any language
 * but English) as `title.<camelCase of the part>`, and the legacy routes' "Old " prefix as `title.old`. A part
 * without words, as every part is in English until another language has been shown, stays as written.
 */
import { hasMessage, t } from './messages.ts';

const SEPARATOR = ' | ';
const LEGACY_PREFIX = 'Old ';
/** The words around a legacy title, `{title}` the rest (a key of the titles word set, so not named inline). */
const LEGACY_KEY = 'title.old';

/** The catalogue key of one part of a title: "Set Up SMS MFA" -> "title.setUpSmsMfa". */
export function titlePartKey(part: string): string {
  const words = part.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  return `title.${words.map((word, index) => (index === 0 ? word : word[0]!.toUpperCase() + word.slice(1))).join('')}`;
}

function localPart(part: string): string {
  const key = titlePartKey(part);
  return hasMessage(key) ? t(key) : part;
}

/** `title` in the current language, part by part: each part's key given by its step (`titleKeys`), or else found by its words. */
export function localTitle(title: string, keys?: readonly string[]): string {
  if (keys) return title.split(SEPARATOR).map((part, index) => (keys[index] !== undefined && hasMessage(keys[index]) ? t(keys[index]) : part)).join(SEPARATOR);
  const legacy = title.startsWith(LEGACY_PREFIX);
  const local = (legacy ? title.slice(LEGACY_PREFIX.length) : title).split(SEPARATOR).map(localPart).join(SEPARATOR);
  if (!legacy) return local;
  return hasMessage(LEGACY_KEY) ? t(LEGACY_KEY, { title: local }) : title;
}
