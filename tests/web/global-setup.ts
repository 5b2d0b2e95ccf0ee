/** Writes the precompiled form validators before the web tests, as npm run build does. */
import { buildValidators } from '../../scripts/build-validators.ts';

/** Vitest global setup hook. */
export default function setup(): void {
  buildValidators();
}
