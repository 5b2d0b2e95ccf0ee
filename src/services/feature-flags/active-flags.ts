/**
 * The flags `next` rules read: the defaults until the flag loader brings others. One object,
 * updated in place, so the flow controller built at start sees what loads later.
 */
import { config } from '../../config.ts';
import type { Flags } from '../../../contract/conditions.ts';

/** The flags in force. */
export const activeFlags: Record<string, boolean> = { ...config.featureFlagDefaults };

/** Puts loaded flags in force for the steps that follow. */
export function applyFlags(flags: Flags): void {
  Object.assign(activeFlags, flags);
}
