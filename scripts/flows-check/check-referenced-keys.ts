/**
 * Guards the words named outside the flows: every key src/ passes to `t('…')` literally, and every
 * key the password policy names, exists in every catalogue (English here; the others follow it,
 * see check-catalogues.ts). The account page (src/account/) also has its own words,
 * flows/messages/account/<language>.json, which load with its chunk rather than the login screen.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { missingKey } from './catalogue-lookup.ts';
import type { Catalogue, Problem, Project } from './types.ts';

const ACCOUNT_SOURCES = 'src/account/';
const ACCOUNT_CATALOGUES = 'flows/messages/account';

/** The main catalogues with the account page's words added, language by language. */
function withAccountWords(catalogues: ReadonlyMap<string, Catalogue>): ReadonlyMap<string, Catalogue> {
  return new Map(
    [...catalogues].map(([language, catalogue]) => {
      const file = join(process.cwd(), ACCOUNT_CATALOGUES, `${language}.json`);
      const words = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Catalogue) : {};
      return [language, { ...catalogue, ...words }];
    }),
  );
}

/** Problems with literal message keys some catalogue lacks. */
export function checkReferencedKeys(project: Project): Problem[] {
  const accountCatalogues = withAccountWords(project.catalogues);
  return project.keyReferences.flatMap(({ file, path, key }) => {
    const missing = missingKey(key, file.replace(/\\/g, '/').includes(ACCOUNT_SOURCES) ? accountCatalogues : project.catalogues);
    return missing ? [{ file, path, ...missing }] : [];
  });
}
