/** People on the MFA e2e server (playwright.config.ts exports its data dir), made with the operator CLI as an operator would. */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The password every account made here has. */
export const MFA_USER_PASSWORD = 'Quartz-Lantern-42!';

/** A new account with no second factor yet, on the MFA server; its email starts with `label`. */
export function newMfaServerUser(label: string): string {
  const dataDir = process.env.E2E_MFA_DATA_DIR;
  if (!dataDir) throw new Error('E2E_MFA_DATA_DIR is not set: playwright.config.ts exports it');
  const email = `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  execFileSync(process.execPath, ['--import', 'tsx', 'server/cli/sso.ts', 'user', 'add', '--email', email, '--password', MFA_USER_PASSWORD], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: 'pipe',
  });
  return email;
}
