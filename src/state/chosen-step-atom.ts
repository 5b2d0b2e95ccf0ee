/**
 * The step the engine chose last, with its route: the app renders that step, not one matched back from the address,
 * while the browser is at an address of that route. An address the engine did not give (typed, a reload, Back or
 * Forward to another step) is the router's to resolve.
 */
import { atom } from 'jotai';

/** The engine's chosen step: its id and its route (flow `route`, `:name` segments and all). */
export interface ChosenStep {
  stepId: string;
  route: string;
}

/** Null until the engine has moved the app to a step. */
export const chosenStepAtom = atom<ChosenStep | null>(null);
