/**
 * The field wrapper: label, input, errors, help. Replaces rjsf's default so the required mark is
 * drawn by CSS, out of the label's text: the input carries aria-required, and labels read cleanly.
 */
import type { FieldTemplateProps } from '@rjsf/utils';

/** Renders one form field with its label and messages. */
export function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, errors, help, description, hidden, required, displayLabel, classNames } = props;
  if (hidden) return <div hidden>{children}</div>;
  return (
    <div className={['field', classNames].filter(Boolean).join(' ')}>
      {displayLabel && label ? (
        <label className={required ? 'field-label field-label-required' : 'field-label'} htmlFor={id}>
          {label}
        </label>
      ) : null}
      {displayLabel ? description : null}
      {children}
      {errors}
      {help}
    </div>
  );
}
