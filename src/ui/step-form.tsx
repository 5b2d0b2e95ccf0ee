/**
 * A step's form: rjsf over the step's schema and ui schema, with the widget registry, catalogue
 * validation messages and a precompiled validator. Validation shows on submit, then live.
 */
import { useMemo, useState } from 'react';
import Form from '@rjsf/core';
import type { NameGeneratorFunction, UiSchema } from '@rjsf/utils';
import type { StepForm as StepFormDefinition } from '../core/flow-types.ts';
import { t } from '../core/messages.ts';
import { createErrorTransformer } from '../core/validation-messages.ts';
import { formAssets } from './form-registry.ts';
import { FieldErrorTemplate } from './templates/field-error-template.tsx';
import { FieldTemplate } from './templates/field-template.tsx';
import { widgetRegistry } from './widgets/registry.ts';

/** Form values as rjsf hands them over. */
export type FormValues = Record<string, unknown>;

/** Props of a step form. */
export interface StepFormProps {
  form: StepFormDefinition;
  /** The page query, for `prefill` values. */
  query: URLSearchParams;
  /** True while the submit is in flight: the button is disabled so one click sends once. */
  busy: boolean;
  onSubmit: (values: FormValues) => void;
}

const templates = { FieldTemplate, FieldErrorTemplate };

// Plain field names ("email", "password") rather than rjsf's "root_email", for password managers.
const fieldName: NameGeneratorFunction = (path) => path.map(String).join('.');

/** Starting values taken from the page query, as the form's `prefill` lists. */
export function prefillValues(form: StepFormDefinition, query: URLSearchParams): FormValues {
  const values: FormValues = {};
  for (const [field, source] of Object.entries(form.prefill ?? {})) {
    const value = query.get(source.query);
    if (value) values[field] = value;
  }
  return values;
}

/** Renders the form of a step. */
export function StepForm({ form, query, busy, onSubmit }: StepFormProps) {
  const { schema, validator } = formAssets(form.schema);
  const [formData, setFormData] = useState<FormValues>(() => prefillValues(form, query));
  const [attempted, setAttempted] = useState(false);
  const transformErrors = useMemo(() => createErrorTransformer(form.messages), [form.messages]);
  const uiSchema = useMemo<UiSchema>(
    () => ({
      ...form.ui,
      'ui:submitButtonOptions': { submitText: t(form.submit), props: { disabled: busy, className: 'button-primary' } },
    }),
    [form.ui, form.submit, busy],
  );

  return (
    <Form
      className="step-form"
      schema={schema}
      uiSchema={uiSchema}
      validator={validator}
      widgets={widgetRegistry}
      templates={templates}
      nameGenerator={fieldName}
      formData={formData}
      transformErrors={transformErrors}
      showErrorList={false}
      noHtml5Validate
      focusOnFirstError
      // Quiet while the user first types; once a submit has shown errors, fix them live.
      liveValidate={attempted ? 'onChange' : undefined}
      onChange={(event) => setFormData((event.formData ?? {}) as FormValues)}
      onError={() => setAttempted(true)}
      onSubmit={(event) => {
        setAttempted(true);
        onSubmit((event.formData ?? {}) as FormValues);
      }}
    />
  );
}
