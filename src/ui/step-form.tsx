/**
 * A step's form: rjsf over the step's schema and ui schema, with the widget registry, catalogue
 * validation messages, the form's named field checks and a precompiled validator. Validation
 * shows on submit, then live. The values are held by the step view, which its links read.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import Form from '@rjsf/core';
import type { CustomValidator, ErrorSchema, NameGeneratorFunction, UiSchema } from '@rjsf/utils';
import type { Choice } from '../engine/choices.ts';
import { runFieldChecks } from '../engine/field-checks.ts';
import { withoutHidden } from '../engine/hidden-fields.ts';
import type { StepForm as StepFormDefinition } from '../engine/flow-types.ts';
import { t } from '../services/messages.ts';
import { createErrorTransformer } from '../engine/validation-messages.ts';
import { useFormAssets } from './form-registry.ts';
import { Spinner } from './spinner.tsx';
import { useLanguage } from './language-preference.ts';
import { FieldErrorTemplate } from './templates/field-error-template.tsx';
import { FieldTemplate } from './templates/field-template.tsx';
import { widgetRegistry } from './widgets/registry.ts';

/** What every widget of a step form may read from rjsf's formContext. */
interface StepFormContext {
  language: string;
  /** The id of the step's error message while one shows. */
  errorMessageId?: string;
}

/** Form values as rjsf hands them over. */
export type FormValues = Record<string, unknown>;

/** Props of a step form. */
export interface StepFormProps {
  form: StepFormDefinition;
  values: FormValues;
  onChange: (values: FormValues) => void;
  /** True while the submit is in flight: the button is disabled so one click sends once. */
  busy: boolean;
  onSubmit: (values: FormValues) => void;
  /** field -> the choices the answer offered it (the form's `choices`), handed to its widget in ui:options. */
  choices?: Readonly<Record<string, Choice[]>>;
  /** The id of the step's error message while one shows (a wrong code): every field names it in aria-describedby. */
  errorMessageId?: string;
  /** Fields the form's `hide` rules keep from the user: rendered hidden and left out of the submit. */
  hidden?: readonly string[];
  /** A server error about one field: shown on it (marked invalid) and focused, until the field is changed. A new object for each failure. */
  fieldError?: { field: string; message: string };
}

const templates = { FieldTemplate, FieldErrorTemplate };

// A schema's `const` is a rule the user must meet (ticking "I accept the terms"), never a value to fill in for them.
const defaultFormStateBehavior = { constAsDefaults: 'never' } as const;

// Plain field names ("email", "password") rather than rjsf's "root_email", for password managers.
const fieldName: NameGeneratorFunction = (path) => path.map(String).join('.');

/** An rjsf `customValidate` running the form's `checks` on fields the schema found no fault with. */
function createCheckValidator(checks: StepFormDefinition['checks']): CustomValidator | undefined {
  if (!checks) return undefined;
  return (formData, errors, _uiSchema, errorSchema) => {
    const values = (formData ?? {}) as FormValues;
    for (const [field, key] of Object.entries(runFieldChecks(checks, values))) {
      // One message per field: "required" or a schema rule speaks first.
      if (errorSchema?.[field]?.__errors?.length) continue;
      errors[field]?.addError(t(key));
    }
    return errors;
  };
}

const noHiddenFields: readonly string[] = [];

/**
 * rjsf's extra errors for a server error about one field, and the focus on that field: the message stays on it
 * until the person changes the field's value.
 */
function useServerFieldError(fieldError: StepFormProps['fieldError'], values: FormValues): ErrorSchema | undefined {
  const [valueAtError, setValueAtError] = useState<{ error: StepFormProps['fieldError']; value: unknown }>();
  if (fieldError && valueAtError?.error !== fieldError) setValueAtError({ error: fieldError, value: values[fieldError.field] });
  useEffect(() => {
    // rjsf names a field root_<field>: an input, or a group (a list of choices) whose chosen or first input takes the
    // focus. The message is the field's accessible description, so focusing it reads both.
    const element = fieldError ? document.getElementById(`root_${fieldError.field}`) : null;
    const input = element?.matches('input, select, textarea') ? element : element?.querySelector<HTMLElement>('input:checked, input');
    input?.focus();
  }, [fieldError]);
  if (!fieldError || valueAtError?.error !== fieldError || valueAtError.value !== values[fieldError.field]) return undefined;
  return { [fieldError.field]: { __errors: [fieldError.message] } } as ErrorSchema;
}

/** Renders the form of a step. */
export function StepForm({ form, values, onChange, busy, onSubmit, choices, errorMessageId, hidden = noHiddenFields, fieldError }: StepFormProps) {
  const assets = useFormAssets(form.schema);
  const serverErrors = useServerFieldError(fieldError, values);
  const [attempted, setAttempted] = useState(false);
  const language = useLanguage();
  // `language` is a dependency so texts follow a switch; the memos read the catalogue through t().
  const transformErrors = useMemo(() => createErrorTransformer(form.messages), [form.messages, language]);
  const customValidate = useMemo(() => createCheckValidator(form.checks), [form.checks, language]);
  const uiSchema = useMemo<UiSchema>(() => {
    const labelled: UiSchema = { ...form.ui };
    for (const [field, key] of Object.entries(form.labels ?? {})) labelled[field] = { ...(form.ui?.[field] as UiSchema | undefined), 'ui:title': t(key) };
    for (const [field, list] of Object.entries(choices ?? {})) {
      const fieldUi = (labelled[field] ?? {}) as UiSchema;
      labelled[field] = { ...fieldUi, 'ui:options': { ...(fieldUi['ui:options'] as object | undefined), choices: list } };
    }
    for (const field of hidden) labelled[field] = { ...((labelled[field] ?? {}) as UiSchema), 'ui:widget': 'hidden' };
    const submitButton = form.submit ? { submitText: t(form.submit), props: { disabled: busy, className: 'button-primary' } } : { norender: true };
    return { ...labelled, 'ui:submitButtonOptions': submitButton };
  }, [form.ui, form.labels, form.submit, busy, language, choices, hidden]);
  // A new formContext makes rjsf re-render every field, so widget texts (show/hide) switch too.
  const formContext = useMemo<StepFormContext>(() => ({ language, errorMessageId }), [language, errorMessageId]);
  const formRef = useRef<Form>(null);
  // The errors a submit showed are words rjsf keeps as it wrote them: a switch of language words them again, by the
  // same check of the same values, without taking the focus from the language picker as a submit's check would.
  const rewording = useRef(false);
  const shownIn = useRef(language);
  useEffect(() => {
    if (shownIn.current === language) return;
    shownIn.current = language;
    if (!attempted) return;
    rewording.current = true;
    try {
      formRef.current?.validateForm();
    } finally {
      rewording.current = false;
    }
  }, [language, attempted]);

  if (!assets) return <Spinner />;
  return (
    <Form
      className="step-form"
      schema={assets.schema}
      uiSchema={uiSchema}
      validator={assets.validator}
      widgets={widgetRegistry}
      templates={templates}
      formContext={formContext}
      experimental_defaultFormStateBehavior={defaultFormStateBehavior}
      nameGenerator={fieldName}
      formData={values}
      extraErrors={serverErrors}
      transformErrors={transformErrors}
      customValidate={customValidate}
      showErrorList={false}
      noHtml5Validate
      ref={formRef}
      focusOnFirstError={(error) => rewording.current || formRef.current?.focusOnError(error)}
      // Quiet while the user first types; once a submit has shown errors, fix them live.
      liveValidate={attempted ? 'onChange' : undefined}
      onChange={(event) => onChange((event.formData ?? {}) as FormValues)}
      onError={() => setAttempted(true)}
      onSubmit={(event) => {
        setAttempted(true);
        onSubmit(withoutHidden((event.formData ?? {}) as FormValues, hidden));
      }}
    />
  );
}
