import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { ConfigError } from '../../server/config-readers.ts';
import { ENVIRONMENT_VARIABLES } from '../../server/environment-variables.ts';
import { runScript } from './support/processes.ts';

const MISTAKES = { NODE_ENV: 'test', PORT: 'eighty', LOG_LEVEL: 'loud', TRUST_PROXY: 'true', MIGRATE_ON_START: 'maybe', METRICS_PORT: '-1' };

describe('configuration checked at boot', () => {
  it('reports every mistake at once, one line each naming its variable', () => {
    let error: unknown;
    try {
      loadConfig(MISTAKES);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems.map((line) => line.split(' ')[0])).toEqual(['PORT', 'LOG_LEVEL', 'TRUST_PROXY', 'MIGRATE_ON_START', 'METRICS_PORT']);
    for (const line of problems) expect(line).not.toContain('\n');
  });

  it('keeps the metrics off the public port', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', PORT: '9000', METRICS_PORT: '9000' })).toThrow('METRICS_PORT must differ from PORT');
    expect(loadConfig({ NODE_ENV: 'test', PORT: '9000', METRICS_PORT: '9100' }).metrics).toEqual({ host: '127.0.0.1', port: 9100 });
  });

  it('documents every setting it reads', () => {
    const names = ENVIRONMENT_VARIABLES.map((variable) => variable.name);
    for (const name of ['TRUST_PROXY', 'MIGRATE_ON_START', 'METRICS_PORT', 'METRICS_HOST', 'LOG_LEVEL']) expect(names).toContain(name);
  });

  it('stops the server with one line per mistake on stderr, and no stack trace', { timeout: 60_000 }, async () => {
    const result = await runScript('server/main.ts', [], MISTAKES);
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(5);
    for (const line of lines) expect(line).toMatch(/^error: [A-Z_]+ /);
  });
});
