// @vitest-environment node
/**
 * The validator build: every form schema gets a precompiled ES module that validates like ajv,
 * without run-time compilation or CommonJS leftovers.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildValidators, toEsModule, validatorFileName } from '../../scripts/build-validators.ts';

type Validate = ((data: unknown) => boolean) & { errors?: Array<{ keyword: string; instancePath: string }> | null };

describe('buildValidators', () => {
  it('writes one ES module per schema, keyed by the schema $id, that validates', async () => {
    const formsDir = mkdtempSync(join(tmpdir(), 'forms-'));
    const outDir = mkdtempSync(join(tmpdir(), 'validators-'));
    writeFileSync(
      join(formsDir, 'probe.schema.json'),
      JSON.stringify({
        $id: 'https://sso.local/schemas/forms/probe.schema.json',
        type: 'object',
        required: ['email', 'code'],
        properties: { email: { type: 'string', format: 'email' }, code: { type: 'string', minLength: 6, maxLength: 6 } },
      }),
    );
    buildValidators({ formsDir, outDir });
    expect(readdirSync(outDir)).toEqual(['probe.validators.js']);
    const code = readFileSync(join(outDir, 'probe.validators.js'), 'utf8');
    expect(code).not.toMatch(/\brequire\(|module\.exports|new Function|eval\(/);

    const module = (await import(pathToFileURL(join(outDir, 'probe.validators.js')).href)) as { default: Record<string, Validate> };
    const validate = module.default['https://sso.local/schemas/forms/probe.schema.json'];
    expect(validate?.({ email: 'a@b.co', code: '123456' })).toBe(true);
    expect(validate?.({ email: 'nope', code: '12' })).toBe(false);
    expect(validate?.errors?.map((error) => `${error.instancePath} ${error.keyword}`)).toEqual(['/email format', '/code minLength']);
  });

  it('names modules after the schema file', () => {
    expect(validatorFileName('login.schema.json')).toBe('login.validators.js');
  });

  it('refuses a run-time dependency it cannot inline', () => {
    expect(() => toEsModule('"use strict";const x = require("fast-deep-equal");', 'x.schema.json')).toThrow(/fast-deep-equal/);
  });
});
