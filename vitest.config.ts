/**
 * Tests in two projects. `web`: tests/web/** in jsdom, built like the app (vite.config.ts: React,
 * the bundle-size aliases); a file can opt back into node with `// @vitest-environment node`.
 * `server`: every other tests/**\/*.test.ts(x) in node, untouched by the browser build settings.
 */
import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { BASELINE_WASM_ONLY } from './server/db/wasm-tiering.ts';

/**
 * Each test file runs in a process of its own that opens the embedded database for seconds, as the admin CLI does: V8
 * would spend 2 s of CPU optimising one PostgreSQL function in each (server/db/wasm-tiering.ts). Over 24 server test
 * files, 222 s of CPU without that against 257 s with it, all 319 tests passing both ways.
 */
const execArgv = [BASELINE_WASM_ONLY];

export default defineConfig({
  test: {
    // One test file per core, where vitest's default leaves one core to itself (on 2 cores: one file at a time). Many
    // files spend much of their time waiting on child processes (the CLI, HAProxy's servers), PostgreSQL or timers, and
    // each worker runs its own file with its own databases, ports and data dirs. On this project's 2-core machine the
    // suite took 16.9 min this way against 22.9 min one file at a time, all 2482 tests passing both ways.
    maxWorkers: os.availableParallelism(),
    reporters: ['default', './tests/support/slowest-files-reporter.ts'],
    projects: [
      {
        extends: './vite.config.ts',
        test: {
          name: 'web',
          execArgv,
          // A jsdom test renders the whole app and walks several screens; on a loaded 2-core machine that can pass
          // vitest's 5 s default, a budget meant for unit tests. Speed is measured by the benchmarks, not here.
          testTimeout: 20_000,
          include: ['tests/web/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/web/setup.ts'],
          globalSetup: ['tests/web/global-setup.ts'],
        },
      },
      {
        test: {
          name: 'server',
          execArgv,
          // These tests boot a whole server (provider, keys, database) per file; on a loaded 2-core CI machine that
          // can take longer than vitest's 5 s default, which is a budget for unit tests.
          testTimeout: 30_000,
          hookTimeout: 60_000,
          include: ['tests/**/*.test.{ts,tsx}'],
          exclude: ['tests/web/**', '**/node_modules/**'],
          environment: 'node',
          // The security campaign's files each file their cases' figures; the teardown prints them as one table.
          globalSetup: ['tests/security/support/campaign-table.ts'],
        },
      },
    ],
  },
});
