/**
 * The docs: the generated references are current, the check fails on a stale one and prints the
 * command that fixes it, the server's variable table lists exactly what it reads, and every link
 * of README.md and docs/ reaches a file (and heading) that exists.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { ENVIRONMENT_VARIABLES } from '../../server/environment-variables.ts';
import { GENERATED_BLOCKS, staleBlockLines, withBlock } from '../../scripts/docs-generate/blocks.ts';
import { flowPropertiesReference } from '../../scripts/docs-generate/flow-properties.ts';

const root = join(import.meta.dirname, '..', '..');

describe('the generated references', () => {
  it('are up to date in this project', () => {
    expect(staleBlockLines(root)).toEqual([]);
  });

  it('document exactly the environment variables the server reads', () => {
    const read = new Set<string>();
    const watched = new Proxy<Record<string, string | undefined>>(
      {},
      {
        get: (_target, name) => {
          if (typeof name === 'string') read.add(name);
          return undefined;
        },
      },
    );
    loadConfig(watched);
    expect(ENVIRONMENT_VARIABLES.map((variable) => variable.name).sort()).toEqual([...read].sort());
  });

  it('rewrite only what lies between the markers', () => {
    const block = GENERATED_BLOCKS[0]!;
    const text = `# Title\n\n<!-- ${block.name}:start (old words) -->\nold table\n<!-- ${block.name}:end -->\n\nHand-written text.\n`;
    expect(withBlock(text, block, 'new table')).toBe(
      `# Title\n\n<!-- ${block.name}:start (written by npm run docs:generate from ${block.source}) -->\nnew table\n<!-- ${block.name}:end -->\n\nHand-written text.\n`,
    );
    expect(withBlock('# No markers\n', block, 'new table')).toBeUndefined();
  });

  it('describe each flow property with its type, whether it is required, and its words', () => {
    const reference = flowPropertiesReference({
      type: 'object',
      required: ['steps'],
      properties: { steps: { type: 'object', description: 'step id -> step.', additionalProperties: { $ref: '#/definitions/step' } } },
      definitions: {
        step: { type: 'object', properties: { go: { $ref: '#/definitions/stepId', description: 'Where | to go.' }, style: { enum: ['link', 'button'], default: 'link' } } },
        stepId: { type: 'string', pattern: '^[a-z]+$' },
      },
    });
    expect(reference).toContain('| `steps` | map of [step](#step) | yes | step id -> step. |');
    expect(reference).toContain('| `go` | [stepId](#value-types) |  | Where \\| to go. |');
    expect(reference).toContain('| `style` | `"link"` or `"button"` |  | Default: `"link"`. |');
    expect(reference).toContain('| `stepId` | string | Pattern `^[a-z]+$`. |');
  });
});

describe('npm run docs:generate -- --check on a copy of the docs', () => {
  let copy: string | undefined;
  afterEach(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  /** Copies docs/, schemas/ and the add-a-step fixture to a temp folder, lets `edit` change it, and runs the script there. */
  function runOnCopy(edit: (dir: string) => void, ...args: string[]): { status: number | null; lines: string[] } {
    copy = mkdtempSync(join(tmpdir(), 'docs-check-'));
    for (const dir of ['docs', 'schemas', 'tests/fixtures/cost-centre']) cpSync(join(root, dir), join(copy, dir), { recursive: true, filter: (path) => !path.includes('screenshots') });
    edit(copy);
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'docs-generate.ts'), ...args, copy], { cwd: root, encoding: 'utf8' });
    return { status: run.status, lines: run.stdout.trim().split('\n') };
  }

  const editFile = (dir: string, file: string, change: (text: string) => string) => writeFileSync(join(dir, file), change(readFileSync(join(dir, file), 'utf8')));

  it('fails on a hand-edited configuration table and names the fix', () => {
    const { status, lines } = runOnCopy((dir) => editFile(dir, 'docs/configuration.md', (text) => text.replace('| `PORT` | `8080` |', '| `PORT` | `3000` |')), '--check');
    expect(status).toBe(1);
    expect(lines).toEqual([
      'docs/configuration.md:configuration — is stale: server/environment-variables.ts changed since it was written — run npm run docs:generate',
      'docs:check: 3 generated blocks, 1 to regenerate',
    ]);
  });

  it('fails when the flow meta-schema changed after the reference was written', () => {
    const { status, lines } = runOnCopy(
      (dir) => editFile(dir, 'schemas/flow.schema.json', (text) => text.replace('"description": "The document title, in the spec\'s words."', '"description": "The tab title."')),
      '--check',
    );
    expect(status).toBe(1);
    expect(lines[0]).toBe('docs/flows.md:flow-properties — is stale: schemas/flow.schema.json changed since it was written — run npm run docs:generate');
  });

  it('fails on a doc that lost its markers, saying which lines to add', () => {
    const { status, lines } = runOnCopy((dir) => editFile(dir, 'docs/flows.md', (text) => text.replace('<!-- flow-properties:end -->', '')), '--check');
    expect(status).toBe(1);
    expect(lines[0]).toMatch(/^docs\/flows\.md:flow-properties — has no generated block — add the lines <!-- flow-properties:start .* -->, then run npm run docs:generate$/);
  });

  it('passes once the fix command has run', () => {
    const stale = (dir: string) => editFile(dir, 'schemas/flow.schema.json', (text) => text.replace('"description": "The document title, in the spec\'s words."', '"description": "The tab title."'));
    const generated = runOnCopy(stale);
    expect(generated.status).toBe(0);
    expect(generated.lines).toEqual(['docs:generate: wrote docs/flows.md (flow-properties)', 'docs:generate: 3 generated blocks, all up to date']);
    const check = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'docs-generate.ts'), '--check', copy!], { cwd: root, encoding: 'utf8' });
    expect(check.status).toBe(0);
    expect(readFileSync(join(copy!, 'docs', 'flows.md'), 'utf8')).toContain('| `title` | string | yes | The tab title. |');
  });
});

/** The markdown files a newcomer reads: the README and every page of docs/. */
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
const anchorOf = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');

describe('the links of README.md and docs/', () => {
  it.each(pages)('in %s reach files and headings that exist', (page) => {
    const text = readFileSync(join(root, page), 'utf8').replace(/```[\s\S]*?```/g, '');
    const broken = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => match[1]!)
      .filter((link) => !/^[a-z]+:/.test(link))
      .filter((link) => {
        const [file, anchor] = link.split('#');
        const target = file ? join(root, dirname(page), file) : join(root, page);
        if (!existsSync(target)) return true;
        if (!anchor) return false;
        const headings = readFileSync(target, 'utf8').match(/^#+ .+$/gm) ?? [];
        return !headings.some((heading) => anchorOf(heading.replace(/^#+ /, '')) === anchor);
      });
    expect(broken).toEqual([]);
  });
});
