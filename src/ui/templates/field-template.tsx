/**
 * The field wrapper: label, input, errors, help. Replaces rjsf's default so the required mark is
 * drawn by CSS, out of the label's text: the input carries aria-required, and labels read cleanly.
 */
import type { FieldTemplateProps } from '@rjsf/utils';

/** Renders one form field with its label and messages. */
export function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, errors, help, description, hidden, required, displayLabel, classNames } = props;
  // A hidden field's value comes from the flow; if it is missing, say so rather than fail silently.
  if (hidden) {
    return (
      <div className="field-hidden">
        <div hidden>{children}</div>
        {errors}
      </div>
    );
  }
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
