import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../server/config.ts';
import { FLAG_DEFAULTS } from '../../contract/product.ts';
import { DEFAULT_FLAGS_FILE, readFlagFile } from '../../server/flags/feature-flags.ts';

function flagFile(content: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sso-flags-')), 'flags.json');
  fs.writeFileSync(file, content);
  return file;
}

describe('feature flag file', () => {
  it('ships the spec defaults: company-selection-removal on, the others off', () => {
    expect(readFlagFile(DEFAULT_FLAGS_FILE)).toEqual(FLAG_DEFAULTS);
    expect(FLAG_DEFAULTS).toEqual({ 'company-selection-removal': true, 'test-flag': false, 'sms-mfa-disable': false, 'mfa-disable-skip-registration': false });
  });

  it('takes a missing flag from the defaults', () => {
    expect(readFlagFile(flagFile('{"sms-mfa-disable": true}'))).toEqual({ ...FLAG_DEFAULTS, 'sms-mfa-disable': true });
  });

  it('refuses an unknown flag, a non-boolean value and broken JSON by name', () => {
    expect(() => readFlagFile(flagFile('{"sms-mfa-disabled": true}'))).toThrow(/unknown flag "sms-mfa-disabled"/);
    expect(() => readFlagFile(flagFile('{"test-flag": "yes"}'))).toThrow(/"test-flag" must be true or false/);
    expect(() => readFlagFile(flagFile('{'))).toThrow(ConfigError);
  });
});
