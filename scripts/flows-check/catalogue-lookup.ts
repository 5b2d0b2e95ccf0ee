/**
 * Whether a named message key is missing, and how to say so in one problem line. Only keys
 * English lacks are reported here: a key English has but another catalogue lacks is reported
 * once, by the catalogues check, with the English text to translate.
 */
import { useOneOf } from './problem.ts';
import type { Catalogue } from './types.ts';

/** The languages whose catalogue has no text for `key`, in catalogue order. */
export function languagesMissing(key: string, catalogues: ReadonlyMap<string, Catalogue>): string[] {
  return [...catalogues].filter(([, catalogue]) => !Object.hasOwn(catalogue, key)).map(([language]) => language);
}

/** The message and fix for a key English lacks; undefined when English has it. */
export function missingKey(key: string, catalogues: ReadonlyMap<string, Catalogue>): { message: string; fix: string } | undefined {
  const english = catalogues.get('en') ?? {};
  if (Object.hasOwn(english, key)) return undefined;
  const missing = languagesMissing(key, catalogues);
  const message = `names message key "${key}", missing from ${missing.map((language) => `${language}.json`).join(', ')}`;
  if (missing.length < catalogues.size) return { message, fix: `add it to ${missing.map((language) => `flows/messages/${language}.json`).join(', ')}` };
  return { message, fix: `add it to every catalogue, or ${useOneOf(key, Object.keys(english))}` };
}
