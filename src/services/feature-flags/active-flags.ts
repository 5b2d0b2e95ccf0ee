/**
 * The flags `next` rules read: the defaults until the flag loader brings others. One object,
 * updated in place, so the flow controller built at start sees what loads later.
 */
import { config } from '../../config.ts';
import type { Flags } from '../../../contract/conditions.ts';

/** The flags in force. */
export const activeFlags: Record<string, boolean> = { ...config.featureFlagDefaults };

/** The flags as last loaded, or null while only the defaults are in force (the spec's store: "null until loaded"). */
let loaded: Flags | null = null;
const listeners = new Set<(flags: Flags) => void>();

/** Puts loaded flags in force for the steps that follow, and tells whoever listens (the store, so screens re-render). */
export function applyFlags(flags: Flags): void {
  Object.assign(activeFlags, flags);
  loaded = { ...activeFlags };
  for (const listener of listeners) listener(loaded);
}

/** The flags as last loaded, or null before the flag service has answered. */
export function loadedFlags(): Flags | null {
  return loaded;
}

/** Calls `listener` each time flags are put in force; returns the unsubscribe. */
export function onFlagsApplied(listener: (flags: Flags) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
