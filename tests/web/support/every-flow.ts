/** Loads every flow file the app fetches lazily, for tests that read whole steps of every flow. */
import { stepRegistry } from '../../../src/engine/step-registry.ts';

/** Resolves once every step of every flow file is whole in the registry. */
export async function loadEveryFlow(): Promise<void> {
  await Promise.all([...stepRegistry.steps.keys()].map((id) => stepRegistry.load(id)));
}
