/**
 * Guards the tab titles: each step (and each variant with a title of its own) names the words of every part of its
 * title as keys of the titles word set (flows/messages/titles/), one key per part; every key is in every language, and
 * the English words are the title's own, so no German tab shows an English part.
 */
import { stepEntries } from './step-index.ts';
import type { Problem, Project } from './types.ts';

const SEPARATOR = ' | ';
const TITLES = 'flows/messages/titles';

/** Problems with one title and its keys, at `at` in `file`. */
function titleProblems(project: Project, file: string, at: string, title: string, keys: readonly string[] | undefined): Problem[] {
  const parts = title.split(SEPARATOR);
  if (!keys || keys.length !== parts.length) {
    return [{ file, path: `${at}.titleKeys`, message: `the title "${title}" has ${parts.length} part(s) but ${keys?.length ?? 0} title key(s)`, fix: `give one key of ${TITLES}/ per part of the title, in order` }];
  }
  return keys.flatMap((key, index) => {
    const missing = [...project.catalogues].filter(([, catalogue]) => catalogue[key] === undefined).map(([language]) => language);
    if (missing.length > 0) {
      return [{ file, path: `${at}.titleKeys[${index}]`, message: `the title part "${parts[index]}" (${key}) has no words in ${missing.map((language) => `${TITLES}/${language}.json`).join(', ')}`, fix: `add "${key}" to the titles word set of every language, the English as the spec words it` }];
    }
    const english = project.catalogues.get('en')?.[key];
    if (english !== parts[index]) {
      return [{ file, path: `${at}.titleKeys[${index}]`, message: `the key ${key} reads "${english}" in English, but the title's part is "${parts[index]}"`, fix: `name the key whose English words are "${parts[index]}", or correct ${TITLES}/en.json` }];
    }
    return [];
  });
}

/** Problems with the title keys of every step and variant. */
export function checkTitles(project: Project): Problem[] {
  return stepEntries(project.flows).flatMap(({ file, path, step }) => [
    ...titleProblems(project, file, path, step.title, step.titleKeys),
    ...(step.variants ?? []).flatMap((variant, index) =>
      variant.title === undefined ? [] : titleProblems(project, file, `${path}.variants[${index}]`, variant.title, variant.titleKeys),
    ),
  ]);
}
