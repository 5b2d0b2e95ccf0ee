/** A field's validation messages, under the id its input's aria-describedby points at. */
import { errorId, type FieldErrorProps } from '@rjsf/utils';

/** Renders the messages of one field, or nothing when it has none. */
export function FieldErrorTemplate({ errors = [], fieldPathId }: FieldErrorProps) {
  const shown = errors.filter(Boolean);
  if (shown.length === 0) return null;
  return (
    <ul id={errorId(fieldPathId)} className="field-errors">
      {shown.map((error, index) => (
        <li key={index}>{error}</li>
      ))}
    </ul>
  );
}
