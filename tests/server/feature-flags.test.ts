import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../server/config-readers.ts';
import { FLAG_DEFAULTS } from '../../contract/product.ts';
import { createFeatureFlags, DEFAULT_FLAGS_FILE, readFlagFile } from '../../server/flags/feature-flags.ts';

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

describe('flags a running server enforces', () => {
  it('follows an edit of the flag file on the next re-read, without a restart', () => {
    vi.useFakeTimers();
    try {
      const file = flagFile('{"sms-mfa-disable": false}');
      const flags = createFeatureFlags({ read: () => readFlagFile(file), intervalMs: 30_000 });
      expect(flags.isOn('sms-mfa-disable')).toBe(false);
      fs.writeFileSync(file, '{"sms-mfa-disable": true}');
      expect(flags.isOn('sms-mfa-disable')).toBe(false);
      vi.advanceTimersByTime(30_000);
      expect(flags.isOn('sms-mfa-disable')).toBe(true);
      flags.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the last good values when an edit breaks the file, and reports it', () => {
    const file = flagFile('{"sms-mfa-disable": true}');
    const warnings: string[] = [];
    const flags = createFeatureFlags({ read: () => readFlagFile(file), log: { warn: (_details, text) => warnings.push(text) } });
    fs.writeFileSync(file, '{"sms-mfa-disable": tru');
    flags.refresh();
    expect(flags.isOn('sms-mfa-disable')).toBe(true);
    expect(warnings).toHaveLength(1);
    fs.writeFileSync(file, '{"sms-mfa-disable": false}');
    flags.refresh();
    expect(flags.isOn('sms-mfa-disable')).toBe(false);
  });

  it('lets a test override win over the file on every re-read', () => {
    const file = flagFile('{"sms-mfa-disable": false}');
    const flags = createFeatureFlags({ read: () => readFlagFile(file), overrides: { 'sms-mfa-disable': true } });
    flags.refresh();
    expect(flags.isOn('sms-mfa-disable')).toBe(true);
  });
});
