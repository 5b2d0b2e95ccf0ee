/**
 * One choice out of a list the server sent (ui:options.choices, from the form's `choices`): native radio buttons,
 * so arrow keys, labels and screen readers work as for any radio group. From `ui:options.searchFrom` choices on,
 * a search box narrows the list. What is submitted is always a choice in view: when the search hides the chosen one,
 * the only match left is chosen instead, or else nothing is (and Continue asks for a choice).
 */
import { useState } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { errorId } from '@rjsf/utils';
import type { Choice } from '../../engine/choices.ts';
import { t } from '../../services/messages.ts';
import './choice-list.css';

function choicesOf(options: WidgetProps['options']): Choice[] {
  return Array.isArray(options.choices) ? (options.choices as Choice[]) : [];
}

/** The choices whose label contains `search`, ignoring case and surrounding spaces. */
function matching(choices: readonly Choice[], search: string): readonly Choice[] {
  const needle = search.trim().toLocaleLowerCase();
  return needle === '' ? choices : choices.filter((choice) => choice.label.toLocaleLowerCase().includes(needle));
}

/** The value to keep chosen once only `visible` shows: the chosen one if in view, else the single match, else none. */
function choiceInView(chosen: unknown, visible: readonly Choice[]): string | undefined {
  const inView = visible.find((choice) => choice.value === chosen);
  if (inView) return inView.value;
  return visible.length === 1 ? visible[0]?.value : undefined;
}

/** Renders the radio group, with a search box once the list is long. */
export function ChoiceListWidget(props: WidgetProps) {
  const { id, options } = props;
  const choices = choicesOf(options);
  const searchFrom = typeof options.searchFrom === 'number' ? options.searchFrom : Number.POSITIVE_INFINITY;
  const [search, setSearch] = useState('');
  const visible = matching(choices, search);
  const invalid = (props.rawErrors?.length ?? 0) > 0;
  const name = props.htmlName || id;
  const searchLabel = typeof options.searchLabel === 'string' ? t(options.searchLabel) : undefined;
  // Focus lands on the chosen item (the company used last), else the first: arrow keys then move through the list.
  const focused = visible.some((choice) => choice.value === props.value) ? props.value : visible[0]?.value;

  return (
    <div className="choice-list">
      {choices.length >= searchFrom ? (
        <input
          type="search"
          // Named so a recorded walk can say what was searched (the form's data never holds it).
          name={`${name}-search`}
          className="field-input choice-search"
          aria-label={searchLabel}
          placeholder={searchLabel}
          aria-controls={id}
          value={search}
          onChange={(event) => {
            const next = event.target.value;
            setSearch(next);
            const kept = choiceInView(props.value, matching(choices, next));
            if (kept !== props.value) props.onChange(kept);
          }}
        />
      ) : null}
      <div id={id} role="radiogroup" aria-label={props.label} aria-required={props.required || undefined} aria-invalid={invalid || undefined} aria-describedby={invalid ? errorId(id) : undefined} className="choice-options">
        {visible.map((choice) => (
          <label key={choice.value} className={props.value === choice.value ? 'choice choice-selected' : 'choice'}>
            <input
              type="radio"
              name={name}
              value={choice.value}
              checked={props.value === choice.value}
              autoFocus={props.autofocus && choice.value === focused}
              disabled={props.disabled || props.readonly}
              onChange={() => props.onChange(choice.value)}
              onBlur={() => props.onBlur(id, props.value)}
              onFocus={() => props.onFocus(id, props.value)}
            />
            <span>{choice.label}</span>
          </label>
        ))}
      </div>
      {visible.length === 0 ? (
        <p className="choice-empty" role="status">
          {typeof options.noMatch === 'string' ? t(options.noMatch) : null}
        </p>
      ) : null}
    </div>
  );
}

export default ChoiceListWidget;
