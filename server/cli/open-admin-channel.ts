/** Which admin channel a CLI command goes through: a running server's admin API, or the database opened here. */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { httpChannel, type AdminChannel } from './admin-channel.ts';
import { ADMIN_FILE_NAME } from './admin-file.ts';
import { LIMITS } from '../limits.ts';

async function isReachable(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(LIMITS.ADMIN_API_TIMEOUT_MS) });
    return true;
  } catch {
    return false;
  }
}

/**
 * The database opened in this process, with the modules that work on it loaded only now: a command that goes through
 * a running server's admin API never loads them (a third of its time went to loading them: 0.27 s against 0.18 s).
 */
async function openDirectChannel(config: Config): Promise<AdminChannel> {
  const { directChannel } = await import('./direct-channel.ts');
  return directChannel(config);
}

/**
 * PostgreSQL: connect directly. Embedded database: if a server is running it holds the database, so go through
 * its loopback admin API; otherwise open the database here.
 */
export async function openAdminChannel(config: Config): Promise<AdminChannel> {
  if (config.databaseUrl !== undefined) return openDirectChannel(config);
  const file = path.join(config.dataDir, ADMIN_FILE_NAME);
  if (fs.existsSync(file)) {
    const { url, token } = JSON.parse(fs.readFileSync(file, 'utf8')) as { url: string; token: string };
    if (await isReachable(url)) return httpChannel(url, token);
  }
  return openDirectChannel(config);
}
