/**
 * docs/flows.md "Add a step": the files a step added as data touches, counted from the cost-centre fixture
 * (tests/fixtures/cost-centre/: the step, its form schema, its words), which the tests install in a copy of the
 * project and walk with no code change. So the doc's list and counts are those of a step that is proven to work.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The fixture, relative to the project root. */
export const ADD_STEP_FIXTURE = 'tests/fixtures/cost-centre';

interface FixtureStep {
  route: string;
  title: string;
  form: { schema: string };
  guard: { from: string[] };
}

/** The markdown of the block: one row per file touched, then the counts. */
export function addStepFiles(root: string): string {
  const fixture = join(root, ADD_STEP_FIXTURE);
  const step = JSON.parse(readFileSync(join(fixture, 'step.json'), 'utf8')) as FixtureStep;
  const words = JSON.parse(readFileSync(join(fixture, 'words.json'), 'utf8')) as Record<string, Record<string, string>>;
  const before = step.guard.from[0];
  const rows: [string, string][] = [
    [`schemas/forms/${step.form.schema}`, 'the form schema (a new file)'],
    ['flows/registration.json', `the step \`cost-centre\` under \`steps\`, and the \`next\` rule of \`${before}\` now going to it`],
    ['flows/shell/routes.json', `its route: \`{"path": "${step.route}", "title": "${step.title.replaceAll('|', '\\|')}"}\``],
    ...Object.entries(words).map(([file, added]): [string, string] => [file, `${Object.keys(added).length} word${Object.keys(added).length === 1 ? '' : 's'}: ${Object.keys(added).map((key) => `\`${key}\``).join(', ')}`]),
  ];
  const wordCount = Object.values(words).reduce((total, added) => total + Object.keys(added).length, 0);
  return [
    '| file | what changes |',
    '|---|---|',
    ...rows.map(([file, what]) => `| \`${file}\` | ${what} |`),
    '',
    `${rows.length} files, all data: 1 form schema, 2 flow files, ${Object.keys(words).length} word files (${wordCount} words, English and German); 0 lines of code in \`src/\`, \`server/\`, \`contract/\` or \`scripts/\`. With these alone \`npm run flows:check\` passes, the server serves and enforces the step (\`tests/server/cost-centre-fixture.test.ts\`), the web registration tests and the route table walk, reload and open it by its address (\`tests/server/cost-centre-web-walk.test.ts\`), and the browser tests' sign-up walk, navigation test and registration spec fill it from its example inputs (\`tests/server/cost-centre-e2e-walk.test.ts\`).`,
  ].join('\n');
}
