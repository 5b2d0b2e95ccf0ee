import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runScript } from '../server/support/processes.ts';
import { HAPROXY } from './support/cluster.ts';

const databaseUrl = process.env.TEST_DATABASE_URL;

// The benchmark's figures are for people to read (npm run bench:scale); this only proves it runs and reports them.
describe.skipIf(!databaseUrl || !fs.existsSync(HAPROXY))('npm run bench:scale in smoke mode', () => {
  it('completes and prints the one-instance and two-instance rates and their ratio', { timeout: 300_000 }, async () => {
    const result = await runScript('bench/scale.bench.ts', [], { BENCH_SMOKE: '1', TEST_DATABASE_URL: databaseUrl! });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/1 instance, direct: +\d+\.\d\d sign-ins\/s/);
    expect(result.stdout).toMatch(/2 instances behind HAProxy: +\d+\.\d\d sign-ins\/s/);
    expect(result.stdout).toMatch(/ratio 2\/1: \d+\.\d\d \(goal >= 0\.95\)/);
  });
});
