// @vitest-environment node
/**
 * Guards the flow data the web app runs on: every flow validates against its meta-schema, every
 * reference resolves, every challenge kind has a step, every message key exists.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { CHALLENGE_KINDS } from '../../contract/challenges.ts';
import { stepMessageKeys } from '../../scripts/flows-check/message-references.ts';
import { sourceMessageKeys } from '../../scripts/flows-check/source-keys.ts';
import { config } from '../../src/config.ts';
import { fieldChecks } from '../../src/engine/field-checks.ts';
import type { FlowDefinition, Step, ValueSources } from '../../src/engine/flow-types.ts';
import { stepRegistry } from '../../src/engine/step-registry.ts';
import { hasMessage } from '../../src/services/messages.ts';
import { sourceList } from '../../src/engine/value-sources.ts';
import { loadFormAssets, loadFormSchema } from '../../src/ui/form-registry.ts';
import { loadEveryFlow } from './support/every-flow.ts';

const root = join(import.meta.dirname, '..', '..');
const flowFiles = readdirSync(join(root, 'flows')).filter((name) => name.endsWith('.json'));
const readJson = (...parts: string[]): unknown => JSON.parse(readFileSync(join(root, ...parts), 'utf8'));
const flowSchema = readJson('schemas', 'flow.schema.json') as {
  definitions: { challengeKind: { enum: string[] }; form: { properties: { checks: { additionalProperties: { enum: string[] } } } } };
};
const challengeKinds = flowSchema.definitions.challengeKind.enum;
// The app fetches flow files as their steps show; these tests read every step whole.
await loadEveryFlow();
const steps: Step[] = [...stepRegistry.steps.values()];

/** Every file under src/ except generated code, with its text. */
function sourceFiles(dir = join(root, 'src')): Array<{ path: string; text: string }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return /\.(ts|tsx|css)$/.test(entry.name) ? [{ path, text: readFileSync(path, 'utf8') }] : [];
  });
}

describe('flow files', () => {
  const validate = new Ajv({ allErrors: true, allowUnionTypes: true }).compile(flowSchema);

  it.each(flowFiles)('%s validates against schemas/flow.schema.json', (file) => {
    const valid = validate(readJson('flows', file));
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('are all loaded by the app (the glob picks up every file)', () => {
    const onDisk = flowFiles.flatMap((file) => Object.keys((readJson('flows', file) as FlowDefinition).steps));
    expect([...stepRegistry.steps.keys()].sort()).toEqual(onDisk.sort());
  });
});

describe('steps', () => {
  it("the flow meta-schema names exactly the contract's challenge kinds (the spec's, pinned in tests/tools/contract.test.ts)", () => {
    expect(challengeKinds).toEqual(CHALLENGE_KINDS);
  });

  it.each(challengeKinds)('challenge kind %s resolves to a step', (kind) => {
    expect(stepRegistry.forChallenge(kind)).toBeDefined();
  });

  it.each(steps.flatMap((step) => (step.next ?? []).map((rule) => [step.id, rule.go] as const)))(
    'next rule of %s points at an existing step (%s)',
    (_from, to) => {
      expect(stepRegistry.steps.has(to)).toBe(true);
    },
  );

  it('have distinct routes, aliases included', () => {
    const routes = steps.flatMap((step) => [step.route, ...(step.aliases ?? [])]);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it.each(steps.flatMap((step) => (step.links ?? []).map((link) => [step.id, link.go] as const)))(
    'link of %s points at an existing step (%s)',
    (_from, to) => {
      expect(stepRegistry.steps.has(to)).toBe(true);
    },
  );

  it("the meta-schema's check names are exactly the registered field checks", () => {
    expect([...flowSchema.definitions.form.properties.checks.additionalProperties.enum].sort()).toEqual(Object.keys(fieldChecks).sort());
  });

  it('include the configured entry and error steps', () => {
    expect(stepRegistry.steps.has(config.entryStep)).toBe(true);
    expect(stepRegistry.steps.has(config.errorStep)).toBe(true);
  });

  it.each(steps.filter((step) => step.form).map((step) => [step.id, step.form?.schema ?? ''] as const))(
    'form of %s has its schema and a precompiled validator (%s)',
    async (_id, schemaFile) => {
      await expect(loadFormAssets(schemaFile)).resolves.toHaveProperty('validator');
    },
  );
});

// Form schemas after the first screen's are chunks too; these tests read every one.
const formSchemas = new Map(
  await Promise.all(steps.flatMap((step) => (step.form ? [step.form.schema] : [])).map(async (file) => [file, await loadFormSchema(file)] as const)),
);

/** The properties of a step's form schema. */
function formFields(step: Step): string[] {
  return step.form ? Object.keys((formSchemas.get(step.form.schema)?.properties ?? {}) as object) : [];
}

/** Every value source of a step (prefills and link queries) with the kind and name it reads. */
function sourcesOf(step: Step): Array<{ kind: string; name: string }> {
  const maps: Array<Record<string, ValueSources> | undefined> = [step.form?.prefill, ...(step.links ?? []).map((link) => link.query)];
  return maps.flatMap((map) =>
    Object.values(map ?? {}).flatMap((sources) =>
      sourceList(sources).flatMap((source) => Object.entries(source).map(([kind, name]) => ({ kind, name: String(name) }))),
    ),
  );
}

describe('value sources', () => {
  it.each(steps.flatMap((step) => sourcesOf(step).filter((source) => source.kind === 'submitted').map((source) => [step.id, source.name] as const)))(
    'step %s reads submitted %s, which a step of its flow submits',
    (id, name) => {
      const flowId = stepRegistry.get(id).flowId;
      const submitters = steps.filter((step) => step.flowId === flowId && step.call && formFields(step).includes(name));
      expect(submitters.map((step) => step.id)).not.toEqual([]);
    },
  );

  it.each(steps.flatMap((step) => sourcesOf(step).filter((source) => source.kind === 'field').map((source) => [step.id, source.name] as const)))(
    "step %s reads field %s of its own form",
    (id, name) => {
      expect(formFields(stepRegistry.get(id))).toContain(name);
    },
  );

  it.each(steps.flatMap((step) => Object.keys(step.form?.prefill ?? {}).map((field) => [step.id, field] as const)))(
    'step %s prefills %s, a field of its form',
    (id, field) => {
      expect(formFields(stepRegistry.get(id))).toContain(field);
    },
  );
});

describe('message keys', () => {
  // The same list flows:check reads: headline, body, submit, labels, validation messages, link labels.
  const keysOf = (step: Step): string[] => stepMessageKeys(step).map(({ key }) => key);
  const catalogueFiles = readdirSync(join(root, 'flows', 'messages')).filter((name) => name.endsWith('.json'));
  const english = readJson('flows', 'messages', 'en.json') as Record<string, string>;
  const accountEnglish = readJson('flows', 'messages', 'account', 'en.json') as Record<string, string>;

  it.each(steps.flatMap((step) => keysOf(step).map((key) => [step.id, key] as const)))('step %s uses existing key %s', (_id, key) => {
    expect(hasMessage(key)).toBe(true);
  });

  it('used literally in src/ all exist', () => {
    const accountDir = join(root, 'src', 'account');
    const used = sourceFiles().flatMap(({ path, text }) => sourceMessageKeys(text).map(({ key }) => ({ key, account: path.startsWith(accountDir) })));
    expect(used.length).toBeGreaterThan(0);
    // The account page's words load with its own chunk, from flows/messages/account/; every other screen's from the main catalogue.
    const missing = used.filter(({ key, account }) => !(account ? key in accountEnglish || hasMessage(key) : hasMessage(key))).map(({ key }) => key);
    expect(missing).toEqual([]);
  });

  it.each(readdirSync(join(root, 'flows', 'messages', 'account')).filter((name) => name.endsWith('.json')))('flows/messages/account/%s has exactly the keys of account/en.json', (file) => {
    const catalogue = readJson('flows', 'messages', 'account', file) as Record<string, string>;
    expect(Object.keys(catalogue).sort()).toEqual(Object.keys(accountEnglish).sort());
  });

  it.each(catalogueFiles)('flows/messages/%s has exactly the keys of en.json', (file) => {
    const catalogue = readJson('flows', 'messages', file) as Record<string, string>;
    expect(Object.keys(catalogue).sort()).toEqual(Object.keys(english).sort());
  });
});

describe('src/', () => {
  it('never names a challenge kind (the renderer must stay flow-agnostic)', () => {
    const offenders = sourceFiles().flatMap(({ path, text }) =>
      challengeKinds.filter((kind) => new RegExp(`['"\`]${kind}['"\`]`).test(text)).map((kind) => `${path}: ${kind}`),
    );
    expect(offenders).toEqual([]);
  });
});
