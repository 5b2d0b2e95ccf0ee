/**
 * The languages the app speaks: English built in, every other flows/messages/*.json loaded on
 * demand as a chunk of its own, so the login page carries only English. Adding a catalogue file
 * adds the language; no code changes.
 */
import { activateCatalogue, builtInCatalogue, currentLanguage, DEFAULT_LANGUAGE, type Catalogue } from './messages.ts';
import { loadWordSet } from './word-sets.ts';

/** The word set of document titles (src/services/document-title.ts). */
const TITLE_WORDS = 'titles';

const loaders = import.meta.glob<Catalogue>(['../../flows/messages/*.json', '!../../flows/messages/en.json'], { import: 'default' });
const loaderFor = new Map(Object.entries(loaders).map(([path, load]) => [path.replace(/^.*\/|\.json$/g, ''), load]));

/** Every language there is a catalogue for, English first. */
export const languages: readonly string[] = [DEFAULT_LANGUAGE, ...[...loaderFor.keys()].sort()];

/**
 * The first of `preferred` (a stored choice, then the browser's languages) the app speaks: the
 * exact tag, else its primary subtag ("de-AT" -> "de"); English when none fits.
 */
export function pickLanguage(preferred: ReadonlyArray<string | null | undefined>, supported: readonly string[] = languages): string {
  for (const tag of preferred) {
    if (!tag) continue;
    const lower = tag.toLowerCase();
    const match = supported.find((language) => language === lower) ?? supported.find((language) => language === lower.split('-')[0]);
    if (match) return match;
  }
  return DEFAULT_LANGUAGE;
}

let latest = 0;

/**
 * Switches the texts to `language`, loading its catalogue first. A language without a catalogue,
 * or one whose chunk fails to load, keeps the texts as they are (English still reads).
 */
export async function loadLanguage(language: string): Promise<void> {
  // Only the last choice counts: a slow chunk must not undo a later switch.
  const ticket = ++latest;
  if (language === DEFAULT_LANGUAGE) {
    if (currentLanguage() !== language) activateCatalogue(language, builtInCatalogue);
    return;
  }
  const load = loaderFor.get(language);
  if (!load) return;
  try {
    // Tab titles in other languages are a word set of their own: English titles are the route table's words as written.
    const [catalogue] = await Promise.all([load(), loadWordSet(TITLE_WORDS)]);
    if (ticket === latest) activateCatalogue(language, catalogue);
  } catch {
    // A failed chunk (offline, deploy in progress) leaves the page readable in its current language.
  }
}
