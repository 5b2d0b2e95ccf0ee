/**
 * Guards what a form says about its fields: every field named by prefill, labels, messages,
 * checks, the ui schema and the call's `encrypt` exists in the form's schema, and every visible
 * field has a label key (else it shows the schema's English title in every language).
 */
import { useOneOf } from './problem.ts';
import { formEntries, formFields, isHiddenField } from './step-index.ts';
import type { Problem, Project } from './types.ts';

/** Problems with fields a form names but its schema lacks, and visible fields without a label. */
export function checkFormFields(project: Project): Problem[] {
  return formEntries(project.flows).flatMap(({ file, path, step }) => {
    const form = step.form;
    if (!form || !project.formSchemas.has(form.schema)) return [];
    const fields = formFields(step, project.formSchemas);
    const uiOrder = form.ui?.['ui:order'];
    const named = [
      ...Object.keys(form.prefill ?? {}).map((field) => ({ at: `form.prefill.${field}`, field })),
      ...Object.keys(form.labels ?? {}).map((field) => ({ at: `form.labels.${field}`, field })),
      ...Object.keys(form.messages ?? {}).map((field) => ({ at: `form.messages.${field}`, field })),
      ...Object.keys(form.checks ?? {}).map((field) => ({ at: `form.checks.${field}`, field })),
      ...Object.keys(form.ui ?? {}).filter((key) => !key.startsWith('ui:')).map((field) => ({ at: `form.ui.${field}`, field })),
      ...(Array.isArray(uiOrder) ? uiOrder : []).map(String).filter((field) => field !== '*').map((field, index) => ({ at: `form.ui.ui:order[${index}]`, field })),
      ...(step.call?.encrypt ?? []).map((field, index) => ({ at: `call.encrypt[${index}]`, field })),
    ];
    const unknown = named
      .filter(({ field }) => !fields.includes(field))
      .map(({ at, field }) => ({ file, path: `${path}.${at}`, message: `names field "${field}", which ${form.schema} does not have`, fix: useOneOf(field, fields) }));
    const unlabelled = fields
      .filter((field) => !isHiddenField(step, field) && !form.labels?.[field])
      .map((field) => ({
        file,
        path: `${path}.form.labels`,
        message: `has no label for field "${field}", so it shows ${JSON.stringify(project.formSchemas.get(form.schema)?.properties?.[field]?.title ?? field)} in every language`,
        fix: `add "${field}": "<message key>" and that key to every catalogue`,
      }));
    return [...unknown, ...unlabelled];
  });
}
