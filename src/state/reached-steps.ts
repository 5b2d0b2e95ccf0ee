/**
 * The guarded steps this tab reached properly, each with the step that led there, kept in sessionStorage so a
 * reload, Back or Forward finds such a step again instead of being sent on as a typed address would be.
 */
import { config } from '../config.ts';

function readReached(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(config.reachedStorageKey) ?? '{}');
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** The step that led to `stepId` in this tab, if it was reached properly. */
export function reachedFrom(stepId: string): string | undefined {
  return readReached()[stepId];
}

/** Records that `from` led to `stepId` in this tab. */
export function rememberReached(stepId: string, from: string | undefined): void {
  if (from === undefined || readReached()[stepId] === from) return;
  try {
    sessionStorage.setItem(config.reachedStorageKey, JSON.stringify({ ...readReached(), [stepId]: from }));
  } catch {
    // Storage blocked or full: the step is then guarded as if typed in.
  }
}
