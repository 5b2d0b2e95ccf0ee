/**
 * The generated blocks of docs/: each a named stretch of a markdown file between two markers, written
 * from the code or a schema. `npm run docs:generate` rewrites them; `--check` reports any that differ.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENVIRONMENT_VARIABLES } from '../../server/environment-variables.ts';
import { ADD_STEP_FIXTURE, addStepFiles } from './add-step-files.ts';
import { configReference } from './config-reference.ts';
import { flowPropertiesReference, type SchemaNode } from './flow-properties.ts';

/** One generated block: where it lives, what it is written from, and how. */
export interface GeneratedBlock {
  /** The markdown file, relative to the project root. */
  readonly file: string;
  /** The marker name: the block sits between `<!-- name:start … -->` and `<!-- name:end -->`. */
  readonly name: string;
  /** What it is written from, as the start marker says. */
  readonly source: string;
  readonly render: (root: string) => string;
}

/** Every generated block of docs/. */
export const GENERATED_BLOCKS: readonly GeneratedBlock[] = [
  { file: 'docs/configuration.md', name: 'configuration', source: 'server/environment-variables.ts', render: () => configReference(ENVIRONMENT_VARIABLES) },
  {
    file: 'docs/flows.md',
    name: 'flow-properties',
    source: 'schemas/flow.schema.json',
    render: (root) => flowPropertiesReference(JSON.parse(readFileSync(join(root, 'schemas', 'flow.schema.json'), 'utf8')) as SchemaNode),
  },
  { file: 'docs/flows.md', name: 'add-a-step', source: ADD_STEP_FIXTURE, render: addStepFiles },
];

/** The command that rewrites the blocks, as the check prints it. */
const FIX_COMMAND = 'npm run docs:generate';

const startMarker = (block: GeneratedBlock) => `<!-- ${block.name}:start (written by ${FIX_COMMAND} from ${block.source}) -->`;
const endMarker = (block: GeneratedBlock) => `<!-- ${block.name}:end -->`;

/** The file's text with the block rewritten, or undefined when the file lacks either marker. */
export function withBlock(text: string, block: GeneratedBlock, content: string): string | undefined {
  const start = text.indexOf(`<!-- ${block.name}:start`);
  const end = text.indexOf(endMarker(block));
  if (start < 0 || end < start) return undefined;
  return `${text.slice(0, start)}${startMarker(block)}\n${content}\n${text.slice(end)}`;
}

/** What is wrong with one block: nothing, a file or markers missing, or stale content. */
export type BlockState = 'fresh' | 'stale' | 'no-markers' | 'no-file';

/** The state of a block in the project at `root`, and the file's text as it should be. */
export function blockState(root: string, block: GeneratedBlock): { state: BlockState; text?: string } {
  const path = join(root, block.file);
  if (!existsSync(path)) return { state: 'no-file' };
  const current = readFileSync(path, 'utf8');
  const text = withBlock(current, block, block.render(root));
  if (text === undefined) return { state: 'no-markers' };
  return { state: text === current ? 'fresh' : 'stale', text };
}

/** One line per block that is not fresh, `file:block — what is wrong — how to fix it`. */
export function staleBlockLines(root: string, blocks: readonly GeneratedBlock[] = GENERATED_BLOCKS): string[] {
  return blocks.flatMap((block) => {
    const { state } = blockState(root, block);
    const where = `${block.file}:${block.name}`;
    if (state === 'stale') return [`${where} — is stale: ${block.source} changed since it was written — run ${FIX_COMMAND}`];
    if (state === 'no-markers') return [`${where} — has no generated block — add the lines ${startMarker(block)} and ${endMarker(block)}, then run ${FIX_COMMAND}`];
    if (state === 'no-file') return [`${where} — the file is missing — create it with the lines ${startMarker(block)} and ${endMarker(block)}, then run ${FIX_COMMAND}`];
    return [];
  });
}
