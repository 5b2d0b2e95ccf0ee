import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runScript } from '../server/support/processes.ts';
import { HAPROXY, startCluster } from './support/cluster.ts';

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

describe('npm run bench:scale without HAProxy', () => {
  it('says what is missing and how to install it, and starts nothing', { timeout: 60_000 }, async () => {
    const result = await runScript('bench/scale.bench.ts', [], { BENCH_SMOKE: '1', HAPROXY_PATH: '/nonexistent/sbin/haproxy' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('HAProxy is missing: /nonexistent/sbin/haproxy does not exist');
    expect(result.stderr).toContain('apt-get install -y haproxy');
    expect(result.stderr).not.toContain('ENOENT');
  });
});

/** The processes this test process started that are still running (not yet reaped ones left out). */
function runningChildren(): string[] {
  const listing = execFileSync('ps', ['-o', 'pid=,stat=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return listing
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^\d+\s+Z/.test(line) && !/\bps -o\b/.test(line));
}

describe.skipIf(!databaseUrl)('a deployment whose HAProxy fails to start', () => {
  it('stops every server process it started, and says why', { timeout: 120_000 }, async () => {
    // /bin/false passes for an executable, then exits at once: the servers are up by then.
    await expect(startCluster({ databaseUrl: databaseUrl!, instances: 2, haproxy: '/bin/false' })).rejects.toThrow('HAProxy (/bin/false) exited with 1 before it served');
    expect(runningChildren()).toEqual([]);
  });
});
