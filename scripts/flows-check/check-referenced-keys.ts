/**
 * Guards the words named outside the flows: every key src/ passes to `t('…')` literally, and every
 * key the password policy names, exists in every catalogue (English here; the others follow it,
 * see check-catalogues.ts).
 */
import { missingKey } from './catalogue-lookup.ts';
import type { Problem, Project } from './types.ts';

/** Problems with literal message keys some catalogue lacks. */
export function checkReferencedKeys(project: Project): Problem[] {
  return project.keyReferences.flatMap(({ file, path, key }) => {
    const missing = missingKey(key, project.catalogues);
    return missing ? [{ file, path, ...missing }] : [];
  });
}
