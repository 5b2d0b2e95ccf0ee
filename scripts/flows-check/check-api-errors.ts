/**
 * Guards the translations of server errors: every code in server/errors.ts has an
 * `apiError.<code>` text, whose English is the server's wording word for word (the web app swaps
 * in a translation only when the server sent exactly that wording), and no such key outlives its code.
 */
import type { Problem, Project } from './types.ts';

const PREFIX = 'apiError.';
const FILE = 'flows/messages/en.json';

/** Problems with apiError.* keys of the English catalogue. */
export function checkApiErrors(project: Project): Problem[] {
  const english = project.catalogues.get('en') ?? {};
  const problems: Problem[] = [];
  for (const [code, { message }] of Object.entries(project.apiErrors)) {
    const key = `${PREFIX}${code}`;
    const text = english[key];
    if (text === undefined) problems.push({ file: FILE, path: key, message: `is missing for the server's error code ${code}`, fix: `add it to every catalogue, in English ${JSON.stringify(message)}` });
    else if (text !== message) problems.push({ file: FILE, path: key, message: `says ${JSON.stringify(text)} but server/errors.ts says ${JSON.stringify(message)}`, fix: "copy the server's wording exactly" });
  }
  for (const key of Object.keys(english)) {
    if (key.startsWith(PREFIX) && !Object.hasOwn(project.apiErrors, key.slice(PREFIX.length))) {
      problems.push({ file: FILE, path: key, message: `names no error code of server/errors.ts`, fix: 'remove it from every catalogue' });
    }
  }
  return problems;
}
