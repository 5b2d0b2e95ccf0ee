/**
 * Guards form references: every form names a schema file that exists in schemas/forms/, and none carries a
 * `description`, which the form renderer would show users (notes for developers go in `$comment`).
 */
import { useOneOf } from './problem.ts';
import { formEntries } from './step-index.ts';
import type { Problem, Project } from './types.ts';

/** Problems with forms whose schema file is missing, or would show a developer's note to users. */
export function checkFormSchemas(project: Project): Problem[] {
  return formEntries(project.flows).flatMap(({ file, path, step }): Problem[] => {
    const schema = step.form?.schema;
    if (schema === undefined) return [];
    const found = project.formSchemas.get(schema);
    if (found?.description !== undefined) {
      return [{ file: `schemas/forms/${schema}`, path: 'description', message: 'would be shown to users under the form', fix: 'write notes for developers in "$comment"' }];
    }
    if (found !== undefined) return [];
    return [{ file, path: `${path}.form.schema`, message: `names "${schema}", which is not in schemas/forms/`, fix: `create schemas/forms/${schema}, or ${useOneOf(schema, project.formSchemas.keys())}` }];
  });
}
