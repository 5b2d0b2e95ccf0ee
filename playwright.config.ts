import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/** The port the e2e server listens on (127.0.0.1 only); override with E2E_PORT. */
const PORT = Number(process.env.E2E_PORT ?? 18080);
const BASE_URL = `http://localhost:${PORT}`;

/** Chromium as Debian ships it; Playwright's own browser download is not reachable here. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * A fresh embedded database for every run, so runs never see each other's data. Exported as
 * E2E_DATA_DIR (set here, so the workers this process starts inherit it) for tests that run the
 * admin CLI against the e2e server; a worker re-reading this file keeps the parent's directory.
 */
const DATA_DIR = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sso-e2e-'));
process.env.E2E_DATA_DIR = DATA_DIR;

/**
 * A second server with the company picker switched on (company-selection-removal off), for e2e/companies.spec.ts:
 * the first keeps the default flags. Its port and data dir are exported the same way.
 */
const PICKER_PORT = Number(process.env.E2E_PICKER_PORT ?? PORT + 1000);
const PICKER_DATA_DIR = process.env.E2E_PICKER_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sso-e2e-picker-'));
process.env.E2E_PICKER_PORT = String(PICKER_PORT);
process.env.E2E_PICKER_DATA_DIR = PICKER_DATA_DIR;

/**
 * A third server with the product's default: MFA required (MFA_REQUIRED unset), for e2e/mfa.spec.ts and the fixture
 * replays (recorded with MFA on). The other two run with MFA_REQUIRED=false, since their tests are about other flows
 * (sign-in, recovery, registration, invitations, companies) and their users have no second factor.
 */
const MFA_PORT = Number(process.env.E2E_MFA_PORT ?? PORT + 2000);
const MFA_DATA_DIR = process.env.E2E_MFA_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sso-e2e-mfa-'));
process.env.E2E_MFA_PORT = String(MFA_PORT);
process.env.E2E_MFA_DATA_DIR = MFA_DATA_DIR;

/** How the e2e servers are started; each gets its own port, data dir and flags. */
function server(port: number, dataDir: string, extraEnv: Record<string, string> = {}) {
  const url = `http://localhost:${port}`;
  return {
    // The runtime running Playwright (the project's pinned Node.js under npm scripts and npx), not whichever node is first on PATH.
    command: `${JSON.stringify(process.execPath)} server/main.ts`,
    url: `${url}/healthz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe' as const,
    env: { HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: url, NODE_ENV: 'development', LOG_LEVEL: 'warn', DATA_DIR: dataDir, ...extraEnv },
  };
}

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Tests in a file run in order (some hand on what later ones need); two files run at a time, since each test
  // spends most of its time waiting on the browser or a server rather than on the CPU.
  fullyParallel: false,
  workers: 2,
  reporter: [['list']],
  // The CI log keeps only its tail: name every slow file there.
  reportSlowTests: { max: 15, threshold: 60_000 },
  use: {
    baseURL: BASE_URL,
    // A failed test keeps its trace (each action's DOM snapshot, the network, the console) and one screenshot. The
    // trace's filmstrip is left out: it streams every frame the browser paints as a JPEG, which took a quarter to a
    // third of the machine's CPU (login, registration and password-recovery specs: 370 and 346 s of CPU with it, 256
    // and 256 s without, on 2 cores).
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  webServer: [
    server(PORT, DATA_DIR, { MFA_REQUIRED: 'false' }),
    server(PICKER_PORT, PICKER_DATA_DIR, { MFA_REQUIRED: 'false', FEATURE_FLAGS_FILE: 'e2e/company-picker-flags.json' }),
    server(MFA_PORT, MFA_DATA_DIR),
  ],
});
