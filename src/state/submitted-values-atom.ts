/**
 * Values the user submitted earlier in a flow (the spec's recoverPassword `{ email }` is one), by
 * flow id. Kept in the tab's sessionStorage as well as memory, so reloading a later step of the
 * flow still has them; src/engine/submitted-values.ts decides which fields are kept at all.
 */
import { atom } from 'jotai';
import { config } from '../config.ts';
import type { SubmittedValues } from '../engine/submitted-values.ts';

function readStored(): SubmittedValues {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(config.submittedStorageKey) ?? '{}');
    return parsed !== null && typeof parsed === 'object' ? (parsed as SubmittedValues) : {};
  } catch {
    return {};
  }
}

function writeStored(values: SubmittedValues): void {
  try {
    sessionStorage.setItem(config.submittedStorageKey, JSON.stringify(values));
  } catch {
    // Storage blocked or full: memory still serves this page view.
  }
}

/** What this page view has recorded; undefined until the first write, when storage is the source. */
const recordedAtom = atom<SubmittedValues | undefined>(undefined);

/** An update: the values one flow keeps from a submit, merged over what it kept before. */
export interface SubmittedUpdate {
  flowId: string;
  values: Readonly<Record<string, unknown>>;
}

/** Submitted values by flow id; write a `SubmittedUpdate` to record a submit. */
export const submittedValuesAtom = atom(
  (get): SubmittedValues => get(recordedAtom) ?? readStored(),
  (get, set, update: SubmittedUpdate) => {
    const current = get(recordedAtom) ?? readStored();
    const next = { ...current, [update.flowId]: { ...current[update.flowId], ...update.values } };
    set(recordedAtom, next);
    writeStored(next);
  },
);
