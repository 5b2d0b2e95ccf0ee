/**
 * Whether the browser is where the engine put it: the engine's chosen step is shown as it is while the address is one
 * of its route's; any other address (typed, a reload, Back or Forward to another step) is the router's to resolve.
 */
import { matchRoute, type Parser } from 'wouter';
import { decodeRouteParams, toRoutePattern } from '../engine/routes.ts';
import type { ChosenStep } from '../state/chosen-step-atom.ts';

/** The chosen step and its route's parameters at `location` (relative to the app's base), or undefined when the browser is elsewhere. */
export function chosenStepAt(chosen: ChosenStep | null, location: string, parser: Parser): { id: string; params: Record<string, string | undefined> } | undefined {
  if (!chosen) return undefined;
  const [here, params] = matchRoute(parser, toRoutePattern(chosen.route), location);
  return here ? { id: chosen.stepId, params: decodeRouteParams(params ?? {}) } : undefined;
}
