/**
 * Guards the example inputs the tests walk with: a step's valid example passes its form's schema, and each invalid
 * one fails it with the message it names (the first the form's `messages` give for the errors, as the server words it).
 */
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { stepEntries } from './step-index.ts';
import type { Problem, Project } from './types.ts';

/** The first message key the form's `messages` give for `errors`, as the server picks it (server/flows/flow-registry.ts). */
function firstMessage(errors: readonly ErrorObject[], messages: Readonly<Record<string, Readonly<Record<string, string>>>>): string | undefined {
  for (const error of errors) {
    const field = error.keyword === 'required' ? String((error.params as { missingProperty: string }).missingProperty) : (error.instancePath.replace(/^\//, '').split('/')[0] ?? '');
    const key = messages[field]?.[error.keyword];
    if (key) return key;
  }
  return undefined;
}

/** Problems with the examples of every step that declares them. */
export function checkExamples(project: Project): Problem[] {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats.default(ajv, ['email', 'uri', 'date']);
  return stepEntries(project.flows).flatMap(({ file, path, step }) => {
    if (!step.examples) return [];
    const schema = step.form ? project.formSchemas.get(step.form.schema) : undefined;
    if (!step.form || !schema) return [{ file, path: `${path}.examples`, message: 'the step has examples but no form to try them on', fix: 'remove the examples, or give the step its form' }];
    const { $schema: _schema, $id: _id, ...rules } = schema as Record<string, unknown>;
    const validate = ajv.compile(rules);
    const problems: Problem[] = [];
    if (!validate(step.examples.valid)) {
      problems.push({ file, path: `${path}.examples.valid`, message: `the form's schema refuses it: ${ajv.errorsText(validate.errors)}`, fix: `give values ${step.form.schema} accepts` });
    }
    (step.examples.invalid ?? []).forEach(({ values, message }, index) => {
      const at = `${path}.examples.invalid[${index}]`;
      if (validate(values)) problems.push({ file, path: at, message: "the form's schema accepts these values", fix: 'give values the form refuses' });
      else if (firstMessage(validate.errors ?? [], step.form?.messages ?? {}) !== message) {
        problems.push({ file, path: `${at}.message`, message: `the form refuses these values with ${firstMessage(validate.errors ?? [], step.form?.messages ?? {}) ?? 'no message of its own'}, not ${message}`, fix: 'name the message the refusal shows, or change the values' });
      }
    });
    return problems;
  });
}
