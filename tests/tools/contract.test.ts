/**
 * The flow contract (contract/) is the one source of the challenge kinds: the meta-schema's enum is generated from it,
 * flows:check fails with the command to run when the two drift, and the flows and the server agree with it.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CHALLENGES, CHALLENGE_KINDS, SERVER_CHALLENGE_KINDS } from '../../contract/challenges.ts';
import { committedFlowTypes, flowTypesOf } from '../../scripts/contract/flow-types.ts';
import { withGeneratedChallengeKinds } from '../../scripts/contract/generated-files.ts';
import { checkContractDrift } from '../../scripts/flows-check/check-contract-drift.ts';
import { formatProblem } from '../../scripts/flows-check/problem.ts';
import { SERVER_CHALLENGES } from '../../server/flows/challenges.ts';
import { loadFlowRegistry } from '../../server/flows/flow-registry.ts';
import type { FlowDefinition } from '../../src/engine/flow-types.ts';

const root = join(import.meta.dirname, '..', '..');
const META_SCHEMA = join(root, 'schemas', 'flow.schema.json');
const enumOf = (schemaText: string): string[] => (JSON.parse(schemaText) as { definitions: { challengeKind: { enum: string[] } } }).definitions.challengeKind.enum;
const flows = readdirSync(join(root, 'flows'))
  .filter((name) => name.endsWith('.json'))
  .map((name) => JSON.parse(readFileSync(join(root, 'flows', name), 'utf8')) as FlowDefinition);
const claimed = new Set(flows.flatMap((flow) => Object.values(flow.steps).flatMap((step) => step.challenges ?? [])));

/** The sign-in challenge kinds, in the spec's words and order (section 4). */
const SPEC_CHALLENGE_KINDS = [
  'LOGIN_REQUIRED', 'NEW_PASSWORD_REQUIRED', 'RESET_PASSWORD', 'MFA_SETUP', 'SMS_MFA', 'SETUP_SMS_MFA', 'VERIFY_SETUP_SMS_MFA',
  'SETUP_SOFTWARE_TOKEN_MFA', 'SOFTWARE_TOKEN_MFA', 'SMS_TOKEN_MFA', 'PASSWORD_RECOVERY', 'SELECT_MFA_TYPE', 'RESEND_OTP',
  'PRE_REGISTRATION', 'EMAIL_MFA', 'SUCCESS_REGISTRATION', 'SUCCESS_PASSWORD_RESET', 'MULTIPLE_COMPANIES_REGISTRATION',
];

/** Kinds beyond the spec's list, each added by an issue: passkeys (issue 19), an app's consent (issue 24), a first factor's recovery codes (issue 27). */
const ADDED_CHALLENGE_KINDS = ['PASSKEY_MFA', 'SETUP_PASSKEY_MFA', 'PASSKEY_SIGN_IN', 'CONSENT_REQUIRED', 'SAVE_RECOVERY_CODES'];

describe('the challenge kinds of the contract', () => {
  it("are the spec's, in its order, then the kinds issues added", () => {
    expect(CHALLENGE_KINDS).toEqual([...SPEC_CHALLENGE_KINDS, ...ADDED_CHALLENGE_KINDS]);
  });

  it('are exactly the kinds the flows claim', () => {
    expect([...claimed].sort()).toEqual([...CHALLENGE_KINDS].sort());
  });

  it('are, where marked sent, exactly the kinds the server sends, and each has a step the server enforces', () => {
    const registry = loadFlowRegistry();
    expect(Object.values(SERVER_CHALLENGES)).toEqual(SERVER_CHALLENGE_KINDS);
    for (const kind of SERVER_CHALLENGE_KINDS) expect(registry.challenges().has(kind)).toBe(true);
  });

  it('mark SMS_TOKEN_MFA, which the spec lists but the server never sends, as not sent', () => {
    expect(CHALLENGE_KINDS.filter((kind) => !CHALLENGES[kind].sentByServer)).toEqual(['SMS_TOKEN_MFA']);
  });

  it("are the meta-schema's enum, which the generator leaves as it is", () => {
    const text = readFileSync(META_SCHEMA, 'utf8');
    expect(enumOf(text)).toEqual(CHALLENGE_KINDS);
    expect(withGeneratedChallengeKinds(text)).toBe(text);
  });
});

describe('drift between the contract and what is generated from it', () => {
  const fix = 'run npm run contract:generate (edit contract/challenges.ts, never the enum)';

  it.each([
    { name: 'a kind added to the contract only', contract: [...CHALLENGE_KINDS, 'NEW_KIND'], schema: CHALLENGE_KINDS, what: 'lacks NEW_KIND' },
    { name: 'a kind added to the enum by hand', contract: CHALLENGE_KINDS, schema: [...CHALLENGE_KINDS, 'NEW_KIND'], what: 'has NEW_KIND, which the contract does not' },
    { name: 'the enum reordered by hand', contract: CHALLENGE_KINDS, schema: [...CHALLENGE_KINDS].reverse(), what: 'lists the kinds in another order' },
  ])('is reported for $name, with the command that fixes it', ({ contract, schema, what }) => {
    const problems = checkContractDrift({ contractChallenges: contract, challengeKinds: schema });
    expect(problems.map(formatProblem)).toEqual([`schemas/flow.schema.json:definitions.challengeKind.enum — is generated from contract/challenges.ts but ${what} — ${fix}`]);
  });

  it('is gone once the generator writes a changed contract list into the meta-schema', () => {
    const changed = [...CHALLENGE_KINDS, 'NEW_KIND'];
    const generated = withGeneratedChallengeKinds(readFileSync(META_SCHEMA, 'utf8'), changed);
    expect(enumOf(generated)).toEqual(changed);
    expect(checkContractDrift({ contractChallenges: changed, challengeKinds: enumOf(generated) })).toEqual([]);
  });
});

describe('npm run flows:check and npm run contract:generate on a copy whose enum was edited by hand', () => {
  let copy: string | undefined;
  afterEach(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  const run = (script: string) => spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', script), copy ?? ''], { cwd: root, encoding: 'utf8' });

  it('fails flows:check with the fix, and passes once the generator has run', { timeout: 180_000 }, () => {
    copy = mkdtempSync(join(tmpdir(), 'contract-'));
    for (const dir of ['flows', 'schemas']) cpSync(join(root, dir), join(copy, dir), { recursive: true });
    const schema = join(copy, 'schemas', 'flow.schema.json');
    writeFileSync(schema, readFileSync(schema, 'utf8').replace('"RESEND_OTP", ', '"RESEND_OTP", "SMS_TOKEN", '));

    const drifted = run('flows-check.ts');
    expect(drifted.status).toBe(1);
    expect(drifted.stdout).toContain(
      'schemas/flow.schema.json:definitions.challengeKind.enum — is generated from contract/challenges.ts but has SMS_TOKEN, which the contract does not — run npm run contract:generate',
    );

    expect(run('contract-generate.ts').stdout).toContain('contract:generate: wrote schemas/flow.schema.json');
    expect(enumOf(readFileSync(schema, 'utf8'))).toEqual(CHALLENGE_KINDS);
    expect(run('flows-check.ts').status).toBe(0);
  });
});

describe('the flow file types (contract/flow-file.ts, contract/flow-file/), generated from the meta-schema', () => {
  let copy: string | undefined;
  afterEach(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
  });
  const run = (script: string) => spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', script), copy ?? ''], { cwd: root, encoding: 'utf8' });

  it('are what the meta-schema generates', async () => {
    expect(committedFlowTypes(root)).toEqual(await flowTypesOf(readFileSync(META_SCHEMA, 'utf8')));
  });

  it('come in several files by concern, each under the project\'s 300 lines', async () => {
    const files = await flowTypesOf(readFileSync(META_SCHEMA, 'utf8'));
    expect([...files.keys()]).toEqual(['contract/flow-file/values.ts', 'contract/flow-file/form.ts', 'contract/flow-file/moves.ts', 'contract/flow-file/flow.ts', 'contract/flow-file.ts']);
    for (const text of files.values()) expect(text.split('\n').length).toBeLessThan(300);
  });

  it('fail flows:check when the meta-schema changed since, and pass once the generator has run', { timeout: 180_000 }, () => {
    copy = mkdtempSync(join(tmpdir(), 'contract-types-'));
    for (const dir of ['flows', 'schemas', 'contract']) cpSync(join(root, dir), join(copy, dir), { recursive: true });
    const schema = join(copy, 'schemas', 'flow.schema.json');
    writeFileSync(schema, readFileSync(schema, 'utf8').replace('"terminal": {', '"costCentre": { "type": "string", "description": "A new property." },\n        "terminal": {'));

    const stale = run('flows-check.ts');
    expect(stale.status).toBe(1);
    expect(stale.stdout).toContain('contract/flow-file/flow.ts:1 — is stale: it is generated from schemas/flow.schema.json, which has changed since — run npm run contract:generate');
    writeFileSync(join(copy, 'contract', 'flow-file', 'old.ts'), 'export type Old = string;\n');

    const generated = run('contract-generate.ts').stdout;
    expect(generated).toContain('contract:generate: wrote contract/flow-file/flow.ts');
    expect(generated).toContain('contract:generate: removed contract/flow-file/old.ts');
    expect(readFileSync(join(copy, 'contract', 'flow-file', 'flow.ts'), 'utf8')).toContain('costCentre?: string;');
    expect(run('flows-check.ts').status).toBe(0);
    expect(run('contract-generate.ts').stdout).not.toContain('wrote');
  });
});
