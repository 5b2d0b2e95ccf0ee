/** The loaded feature flags as a jotai atom (the spec's store field `featureFlags`), kept in step with src/services. */
import { atom } from 'jotai';
import type { Flags } from '../../contract/conditions.ts';
import { loadedFlags, onFlagsApplied } from '../services/feature-flags/active-flags.ts';

/** The flags the flag service brought; null until it has answered, when the defaults are in force. */
export const featureFlagsAtom = atom<Flags | null>(loadedFlags());

featureFlagsAtom.onMount = (set) => {
  // Flags may have loaded before the first subscriber arrived.
  set(loadedFlags());
  return onFlagsApplied(set);
};
