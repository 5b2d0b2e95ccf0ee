/** The context of the step on screen: the server answer that led to it, or its failure. */
import { atom } from 'jotai';
import type { StepContext } from '../engine/flow-controller.ts';

/** Null until a step has run a call or been reached through the engine. */
export const stepContextAtom = atom<StepContext | null>(null);
