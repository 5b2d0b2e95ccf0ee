/**
 * Recorded server answers, named by flow, call and outcome
 * (tests/web/fixtures/password-recovery/reset-confirmation-invalid-code.json).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeAnswer } from './fake-server.ts';

const root = join(import.meta.dirname, '..', 'fixtures');

/** The answer recorded in fixtures/<flow>/<name>.json. */
export function fixture(flow: string, name: string): FakeAnswer {
  return JSON.parse(readFileSync(join(root, flow, `${name}.json`), 'utf8')) as FakeAnswer;
}

/** The names of a flow's fixtures starting with `prefix` (for it.each tables). */
export function fixtureNames(flow: string, prefix: string): string[] {
  return readdirSync(join(root, flow))
    .filter((file) => file.startsWith(prefix) && file.endsWith('.json'))
    .map((file) => file.replace(/\.json$/, ''))
    .sort();
}
