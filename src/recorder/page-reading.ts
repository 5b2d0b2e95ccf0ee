/**
 * Reading a step's screen the same way everywhere (the recorder, the engine replay, the browser
 * replay): which messages it shows, and what a form field is.
 */
import type { FieldFacts } from './placeholders.ts';

/** The messages a fixture records: alerts (a failed call) and the messages under fields. */
export const MESSAGE_SELECTOR = '[role="alert"], .field-errors li';

/** Text as a reader sees it: runs of white space as one space, trimmed. */
export function normalizeText(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

/** The messages on show under `root`, in page order, empty ones left out. */
export function shownMessages(root: ParentNode): string[] {
  return Array.from(root.querySelectorAll(MESSAGE_SELECTOR), (element) => normalizeText(element.textContent)).filter(Boolean);
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
