/**
 * What was typed, not yet submitted, on a form that opens a page beside it (the terms beside the register form). Where
 * the browser opens that page in the same tab (an in-app browser, a pasted link), coming Back finds the form as it
 * was left. Kept in the tab's sessionStorage by step id, never a field the step encrypts (no password), and dropped
 * once the form is submitted.
 */
import { config } from '../config.ts';
import type { Step } from '../engine/flow-types.ts';

type Drafts = Record<string, Record<string, unknown>>;

function readAll(): Drafts {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(config.draftStorageKey) ?? '{}');
    return parsed !== null && typeof parsed === 'object' ? (parsed as Drafts) : {};
  } catch {
    return {};
  }
}

function writeAll(drafts: Drafts): void {
  try {
    sessionStorage.setItem(config.draftStorageKey, JSON.stringify(drafts));
  } catch {
    // Storage blocked or full: the form simply starts empty after a return.
  }
}

/** Whether `step` keeps drafts: a form with a link that opens a page beside it. */
export function keepsDraft(step: Step): boolean {
  return step.form !== undefined && (step.links ?? []).some((link) => link.newTab === true);
}

/** The draft of `step`, if one was kept. */
export function readDraft(step: Step): Record<string, unknown> | undefined {
  return keepsDraft(step) ? readAll()[step.id] : undefined;
}

/** Keeps `values` as the draft of `step`, without the fields the step encrypts. */
export function writeDraft(step: Step, values: Readonly<Record<string, unknown>>): void {
  if (!keepsDraft(step)) return;
  const encrypted = new Set(step.call?.encrypt ?? []);
  const kept = Object.fromEntries(Object.entries(values).filter(([field, value]) => !encrypted.has(field) && value !== undefined));
  writeAll({ ...readAll(), [step.id]: kept });
}

/** Drops the draft of `step` (it was submitted). */
export function clearDraft(step: Step): void {
  const drafts = readAll();
  delete drafts[step.id];
  writeAll(drafts);
}
