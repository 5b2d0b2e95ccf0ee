/**
 * Reading a step's screen the same way everywhere (the recorder, the engine replay, the browser
 * replay): which messages it shows, and what a form field is.
 */
import type { FieldFacts } from './placeholders.ts';

/** The messages a fixture records: alerts (a failed call) and the messages under fields. */
export const MESSAGE_SELECTOR = '[role="alert"], .field-errors li';

/** The step's headline (loaded-step.tsx and step-view.tsx render it as the page's one h1). */
export const HEADLINE_SELECTOR = 'h1';

/** Text as a reader sees it: runs of white space as one space, trimmed. */
export function normalizeText(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * A button's or link's name as a screen reader says it, which is how the replays find it again: its aria-label, else
 * its text without the parts hidden from readers (the arrow of "← Back").
 */
export function spokenName(element: Element): string {
  const label = element.getAttribute('aria-label');
  if (label) return normalizeText(label);
  const spoken = element.cloneNode(true) as Element;
  for (const hidden of Array.from(spoken.querySelectorAll('[aria-hidden="true"]'))) hidden.remove();
  return normalizeText(spoken.textContent);
}

/** The messages on show under `root`, in page order, empty ones left out. */
export function shownMessages(root: ParentNode): string[] {
  return Array.from(root.querySelectorAll(MESSAGE_SELECTOR), (element) => normalizeText(element.textContent)).filter(Boolean);
}

/** The headline on show under `root`, if any. */
export function shownHeadline(root: ParentNode): string | undefined {
  return normalizeText(root.querySelector(HEADLINE_SELECTOR)?.textContent) || undefined;
}

/**
 * What a field holds, as a fixture writes it: a checkbox "true" or "false", a radio group the value of its checked
 * button ("" when none is), anything else its value. `root` is searched for the group's other buttons.
 */
export function fieldValue(element: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, root: ParentNode): string {
  if (!(element instanceof HTMLInputElement)) return element.value;
  if (element.type === 'checkbox') return String(element.checked);
  if (element.type !== 'radio') return element.value;
  const group = Array.from(root.querySelectorAll<HTMLInputElement>('input[type="radio"]')).filter((radio) => radio.name === element.name);
  return group.find((radio) => radio.checked)?.value ?? '';
}

/** What a field is, for choosing its placeholder; `encrypted` lists the fields the step encrypts. */
export function fieldFacts(element: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, encrypted: readonly string[]): FieldFacts {
  return {
    name: element.name,
    type: element instanceof HTMLInputElement ? element.type : element.tagName.toLowerCase(),
    autocomplete: element.getAttribute('autocomplete') ?? '',
    encrypted: encrypted.includes(element.name),
  };
}

/** The named form field `target` is, if it is one inside `root`. */
export function formField(target: EventTarget | null, root: Element): HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | undefined {
  const isField = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
  return isField && target.name && root.contains(target) ? target : undefined;
}
