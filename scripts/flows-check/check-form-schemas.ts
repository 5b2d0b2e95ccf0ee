/** Guards form references: every form names a schema file that exists in schemas/forms/. */
import { useOneOf } from './problem.ts';
import { formEntries } from './step-index.ts';
import type { Problem, Project } from './types.ts';

/** Problems with forms whose schema file is missing. */
export function checkFormSchemas(project: Project): Problem[] {
  return formEntries(project.flows).flatMap(({ file, path, step }) => {
    const schema = step.form?.schema;
    if (schema === undefined || project.formSchemas.has(schema)) return [];
    return [{ file, path: `${path}.form.schema`, message: `names "${schema}", which is not in schemas/forms/`, fix: `create schemas/forms/${schema}, or ${useOneOf(schema, project.formSchemas.keys())}` }];
  });
}
