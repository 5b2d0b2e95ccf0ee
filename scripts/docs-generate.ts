/**
 * npm run docs:generate [--check] [root]: rewrites the generated references in docs/ (the configuration
 * from server/environment-variables.ts, the flow properties from schemas/flow.schema.json). With --check it writes
 * nothing, prints one line per stale block with the command that fixes it, and exits 1 if any.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { blockState, GENERATED_BLOCKS, staleBlockLines } from './docs-generate/blocks.ts';

const args = process.argv.slice(2);
const check = args.includes('--check');
const root = resolve(args.find((arg) => arg !== '--check') ?? fileURLToPath(new URL('..', import.meta.url)));

if (check) {
  const lines = staleBlockLines(root);
  const count = `${GENERATED_BLOCKS.length} generated blocks`;
  process.stdout.write(`${[...lines, `docs:check: ${count}, ${lines.length === 0 ? 'all up to date' : `${lines.length} to regenerate`}`].join('\n')}\n`);
  process.exitCode = lines.length === 0 ? 0 : 1;
} else {
  for (const block of GENERATED_BLOCKS) {
    const { state, text } = blockState(root, block);
    if (state === 'stale' && text !== undefined) {
      writeFileSync(join(root, block.file), text);
      process.stdout.write(`docs:generate: wrote ${block.file} (${block.name})\n`);
    }
  }
  const problems = staleBlockLines(root);
  process.stdout.write(`${[...problems, `docs:generate: ${GENERATED_BLOCKS.length} generated blocks, ${problems.length === 0 ? 'all up to date' : `${problems.length} not written`}`].join('\n')}\n`);
  process.exitCode = problems.length === 0 ? 0 : 1;
}
