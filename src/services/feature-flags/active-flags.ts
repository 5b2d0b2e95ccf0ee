/**
 * The flags `next` rules read: the defaults until the flag loader brings others. One object,
 * updated in place, so the flow controller built at start sees what loads later.
 */
import { config } from '../../config.ts';

/** Feature flags by name, as `flag` conditions read them. */
export type Flags = Readonly<Record<string, boolean>>;

/** The flags in force. */
export const activeFlags: Record<string, boolean> = { ...config.featureFlagDefaults };

/** Puts loaded flags in force for the steps that follow. */
export function applyFlags(flags: Flags): void {
  Object.assign(activeFlags, flags);
}
