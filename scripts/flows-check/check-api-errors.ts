/**
 * Guards the words of the API's errors: every code of contract/error-codes.ts has an `apiError.<code>` text in every
 * catalogue (the server sends the English one as `error_message`, the web app shows the user's language by code),
 * no such text outlives its code, and a text's `{placeholders}` are parameters its code declares.
 */
import { ERROR_MESSAGE_PREFIX } from '../../contract/error-codes.ts';
import { placeholderNames } from '../../contract/message-format.ts';
import type { Problem, Project } from './types.ts';

const CONTRACT_FILE = 'contract/error-codes.ts';

/** Problems with the apiError.* keys of the catalogues. */
export function checkApiErrors(project: Project): Problem[] {
  const problems: Problem[] = [];
  for (const [language, catalogue] of project.catalogues) {
    const file = `flows/messages/${language}.json`;
    for (const [code, { params = [] }] of Object.entries(project.apiErrors)) {
      const key = `${ERROR_MESSAGE_PREFIX}${code}`;
      const text = catalogue[key];
      if (text === undefined) {
        problems.push({ file, path: key, message: `is missing for the error code ${code} (${CONTRACT_FILE})`, fix: 'add its text: the server sends the English one, the web app shows it by code' });
        continue;
      }
      for (const name of placeholderNames(text)) {
        if (!params.includes(name)) {
          problems.push({ file, path: key, message: `uses {${name}}, which is no parameter of ${code}`, fix: `add "${name}" to its params in ${CONTRACT_FILE}, or drop the placeholder` });
        }
      }
    }
    for (const key of Object.keys(catalogue)) {
      if (key.startsWith(ERROR_MESSAGE_PREFIX) && !Object.hasOwn(project.apiErrors, key.slice(ERROR_MESSAGE_PREFIX.length))) {
        problems.push({ file, path: key, message: `names no error code of ${CONTRACT_FILE}`, fix: 'remove it from every catalogue, or add the code to the contract' });
      }
    }
  }
  return problems;
}
