/**
 * The compiled flow graph as the web build carries it (scripts/vite/flow-graph-plugin.ts, from the same compile the
 * server enforces): which steps a guarded step may be entered from.
 */
import { guards } from 'virtual:flow-graph';

/** Whether step `stepId`, entered from step `from`, may show: it has no guard, its guard names no steps, or names `from`. */
export function guardAdmits(stepId: string, from: string | undefined): boolean {
  const guard = guards[stepId];
  if (!guard) return true;
  return from !== undefined && (from === stepId || guard.from === undefined || guard.from.includes(from));
}
