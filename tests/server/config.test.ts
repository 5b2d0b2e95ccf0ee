import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { ConfigError } from '../../server/config-readers.ts';

describe('configuration', () => {
  it('defaults to the embedded database on 127.0.0.1:8080 with a localhost public URL', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ host: '127.0.0.1', port: 8080, publicUrl: 'http://localhost:8080', databaseUrl: undefined, env: 'development', seedDemo: true });
  });

  it.each([
    [{}, false],
    [{ TRUST_PROXY: '1' }, 1],
    [{ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1' }, ['127.0.0.1', '10.0.0.0/8', '::1']],
  ])('reads TRUST_PROXY %o as %o (off by default)', (env, expected) => {
    expect(loadConfig(env).trustProxy).toEqual(expected);
  });

  it.each([
    [{ PORT: 'eighty' }, /^PORT /],
    [{ PORT: '70000' }, /^PORT /],
    [{ DATABASE_URL: 'not a url' }, /^DATABASE_URL /],
    [{ DATABASE_URL: 'mysql://localhost/db' }, /^DATABASE_URL /],
    [{ PUBLIC_URL: 'ftp://example.com' }, /^PUBLIC_URL /],
    [{ PUBLIC_URL: 'https://example.com/sso' }, /^PUBLIC_URL /],
    [{ NODE_ENV: 'staging' }, /^NODE_ENV /],
    [{ NODE_ENV: 'production' }, /^MASTER_KEY /],
    [{ MASTER_KEY: 'short' }, /^MASTER_KEY /],
    [{ SEED_DEMO: 'maybe' }, /^SEED_DEMO /],
    [{ TRUST_PROXY: 'yes please' }, /^TRUST_PROXY /],
    [{ TRUST_PROXY: '10.0.0.300' }, /^TRUST_PROXY /],
    [{ TRUST_PROXY: '10.0.0.0/40' }, /^TRUST_PROXY /],
    [{ KEY_REFRESH_SECONDS: '0' }, /^KEY_REFRESH_SECONDS /],
  ])('refuses %o with one line naming the variable', (env, pattern) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (error) {
      expect((error as Error).message).toMatch(pattern);
      expect((error as Error).message).not.toContain('\n');
    }
  });

  describe('production refuses weak settings, naming the setting and the fix', () => {
    const STRONG = { NODE_ENV: 'production', MASTER_KEY: randomBytes(32).toString('base64url'), PUBLIC_URL: 'https://sso.example.com', SMTP_URL: 'smtps://user:secret@mail.example.com' };

    it('starts with strong settings', () => {
      expect(loadConfig(STRONG)).toMatchObject({ env: 'production', seedDemo: false });
    });

    it.each([
      [{ MASTER_KEY: Buffer.alloc(32).toString('base64url') }, /^MASTER_KEY has too little entropy .*generate one with node -e/],
      [{ MASTER_KEY: Buffer.alloc(32, 'ab').toString('base64url') }, /^MASTER_KEY has too little entropy/],
      [{ PUBLIC_URL: 'http://sso.example.com' }, /^PUBLIC_URL must use https:\/\/ in production .*serve the product over TLS/],
      [{ SMTP_URL: 'smtp://user:secret@mail.example.com:587' }, /^SMTP_URL sends its credentials without TLS: use smtps:\/\/.*requireTLS=true/],
      [{ SEED_DEMO: 'true' }, /^SEED_DEMO must be off in production: .*unset SEED_DEMO/],
    ])('refuses %o', (weak, pattern) => {
      expect(() => loadConfig({ ...STRONG, ...weak })).toThrow(ConfigError);
      try {
        loadConfig({ ...STRONG, ...weak });
      } catch (error) {
        expect((error as ConfigError).problems).toHaveLength(1);
        expect((error as ConfigError).problems[0]).toMatch(pattern);
      }
    });

    it('takes SMTP credentials over STARTTLS when it is required, and plain SMTP without credentials', () => {
      expect(loadConfig({ ...STRONG, SMTP_URL: 'smtp://user:secret@mail.example.com:587?requireTLS=true' }).smtpUrl).toContain('requireTLS=true');
      expect(loadConfig({ ...STRONG, SMTP_URL: 'smtp://relay.internal:25' }).env).toBe('production');
    });
  });
});
