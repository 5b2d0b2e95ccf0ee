/**
 * Guards the catalogues against each other: en.json is the source; every other language has
 * exactly its keys, with the same {placeholders}, and no text is empty or keyed outside the
 * meta-schema's message-key pattern.
 */
import { placeholderNames as placeholders } from '../../contract/message-format.ts';
import type { Catalogue, Problem, Project } from './types.ts';

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });
const list = (names: readonly string[]): string => (names.length ? names.map((name) => `{${name}}`).join(' ') : 'none');

/** Problems of one non-English catalogue measured against English. */
function againstEnglish(language: string, catalogue: Catalogue, english: Catalogue): Problem[] {
  const file = `flows/messages/${language}.json`;
  const problems: Problem[] = [];
  for (const [key, text] of Object.entries(english)) {
    const translated = catalogue[key];
    if (translated === undefined) {
      problems.push({ file, path: key, message: `is missing (en.json: ${JSON.stringify(text)})`, fix: `add the ${languageNames.of(language) ?? language} text` });
    } else if (list(placeholders(translated)) !== list(placeholders(text))) {
      problems.push({ file, path: key, message: `has placeholders ${list(placeholders(translated))}, en.json has ${list(placeholders(text))}`, fix: `use exactly ${list(placeholders(text))}` });
    }
  }
  for (const key of Object.keys(catalogue)) {
    if (!Object.hasOwn(english, key)) problems.push({ file, path: key, message: 'is not in en.json', fix: 'remove it, or add it to en.json first' });
  }
  return problems;
}

/** Problems with the catalogues: missing English, unlike keys or placeholders, empty texts, bad keys. */
export function checkCatalogues(project: Project): Problem[] {
  const english = project.catalogues.get('en');
  if (!english) return [{ file: 'flows/messages/en.json', path: '(file)', message: 'is missing', fix: 'create it: English is the catalogue every language follows' }];
  const problems: Problem[] = [];
  for (const [language, catalogue] of project.catalogues) {
    const file = `flows/messages/${language}.json`;
    for (const [key, text] of Object.entries(catalogue)) {
      if (!project.messageKeyPattern.test(key)) problems.push({ file, path: key, message: `is not a valid message key (${project.messageKeyPattern.source})`, fix: 'use dot-separated camelCase words, e.g. "login.headline"' });
      if (typeof text !== 'string' || text.trim() === '') problems.push({ file, path: key, message: 'is empty', fix: 'write the text' });
    }
    if (language !== 'en') problems.push(...againstEnglish(language, catalogue, english));
  }
  return problems;
}
