import fs from 'node:fs';
import path from 'node:path';
import { fixtureFlows, type FixtureFiles } from './fixture-flows.ts';

const FIXTURE = path.resolve(import.meta.dirname, '../../fixtures/cost-centre');
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(FIXTURE, file), 'utf8')) as Record<string, unknown>;

type Flow = { steps: Record<string, { next?: { go: string }[] }> };

/**
 * The project's flows with a required "cost centre" step after job details, added as product staff would: the step in
 * flows/registration.json (tests/fixtures/cost-centre/step.json), its form schema, its words in English and German,
 * and its route in the route table. Nothing else: no code.
 */
export function costCentreFlows(): { root: string; remove(): void } {
  const words = read('words.json') as Record<string, Record<string, string>>;
  const edits: FixtureFiles = {
    'flows/registration.json': (flow) => {
      const { steps } = flow as Flow;
      steps['job-details']!.next = [{ ...steps['job-details']!.next![0]!, go: 'cost-centre' }];
      const entries = Object.entries(steps);
      const at = entries.findIndex(([id]) => id === 'job-details') + 1;
      (flow as Flow).steps = Object.fromEntries([...entries.slice(0, at), ['cost-centre', read('step.json')], ...entries.slice(at)]);
    },
    'flows/shell/routes.json': (table) => {
      (table.routes as { path: string; title: string }[]).push({ path: 'cost-centre', title: 'Register | Cost Centre' });
    },
    ...Object.fromEntries(Object.entries(words).map(([file, added]) => [file, (catalogue: Record<string, unknown>) => Object.assign(catalogue, added)])),
  };
  return fixtureFlows(edits, { 'schemas/forms/cost-centre.schema.json': path.join(FIXTURE, 'cost-centre.schema.json') });
}
