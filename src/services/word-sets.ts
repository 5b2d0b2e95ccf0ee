/**
 * Word sets: the words only one flow names (the help page's, the second factor's, registration's, …), in
 * flows/messages/<set>/<language>.json, fetched alongside that flow's file so the login screen's download does not
 * carry them. Every language of a set loads at once (a few
 * KB), so a later language switch needs nothing more.
 */
import { addWords, type Catalogue } from './messages.ts';

// The account page's words are its own chunk's (src/account/account-messages.ts), not a word set.
const loaders = import.meta.glob<Catalogue>(['../../flows/messages/*/*.json', '!../../flows/messages/account/*.json'], { import: 'default' });

/** Loads every language of word set `name` and hands its words to the catalogues. */
export async function loadWordSet(name: string): Promise<void> {
  const folder = `/flows/messages/${name}/`;
  const files = Object.entries(loaders).filter(([path]) => path.includes(folder));
  if (files.length === 0) throw new Error(`No word set "${name}" in flows/messages/`);
  await Promise.all(files.map(async ([path, load]) => addWords(path.slice(path.indexOf(folder) + folder.length).replace(/\.json$/, ''), await load())));
}
