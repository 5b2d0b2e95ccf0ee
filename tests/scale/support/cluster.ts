import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedDemo } from '../../../server/admin/seed.ts';
import { loadConfig } from '../../../server/config.ts';
import { createSecretBox } from '../../../server/crypto/secret-box.ts';
import type { Database } from '../../../server/db/database.ts';
import { migrate } from '../../../server/db/migrate.ts';
import { openDatabase } from '../../../server/db/open-database.ts';
import { heldPort } from '../../../scripts/fixtures/free-port.ts';
import { startServerOnFreePort, stopServer } from '../../server/support/processes.ts';
import { startSmtpCapture, type SmtpCapture } from '../../server/support/smtp-capture.ts';
import { httpRequest } from './http-client.ts';

/** Debian's HAProxy (apt-get install haproxy; .ci/run installs it), or wherever HAPROXY_PATH says. */
export const HAPROXY = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';

/** Why `binary` cannot run as HAProxy here, and how to install it; undefined when it can. */
export function haproxyProblem(binary = HAPROXY): string | undefined {
  try {
    fs.accessSync(binary, fs.constants.X_OK);
    return undefined;
  } catch {
    const what = fs.existsSync(binary) ? 'is not executable' : 'does not exist';
    return `HAProxy is missing: ${binary} ${what}. Install it with \`apt-get install -y haproxy\` (Debian, Ubuntu), or set HAPROXY_PATH to the haproxy binary.`;
  }
}

/** Starts HAProxy on `configFile`; resolves once `url` serves, rejects (with its stderr) if it cannot start or exits first. */
async function startHaproxy(binary: string, configFile: string, url: string, started: ChildProcess[]): Promise<void> {
  const haproxy = spawn(binary, ['-f', configFile, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
  started.push(haproxy);
  let stderr = '';
  haproxy.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const failed = new Promise<never>((_resolve, reject) => {
    haproxy.once('error', (error) => reject(new Error(`HAProxy (${binary}) could not start: ${error.message}`)));
    haproxy.once('exit', (code) => reject(new Error(`HAProxy (${binary}) exited with ${code} before it served:\n${stderr}`)));
  });
  // Its stop at the end rejects `failed` too, when nobody waits for it any more.
  failed.catch(() => undefined);
  await Promise.race([waitUntilServing(url, 20), failed]);
}

/** One server process behind the balancer. */
export interface Instance {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
}

/**
 * The reference deployment, on 127.0.0.1 only: N server processes on one PostgreSQL schema, with one master key,
 * mail to a local SMTP server, HAProxy in front (round robin, no stickiness, health checks on /healthz).
 */
export interface Cluster {
  /** HAProxy's address: PUBLIC_URL of every instance. */
  url: string;
  instances: Instance[];
  smtp: SmtpCapture;
  /** The same schema, opened by the test itself (seeding, checking what the servers stored). */
  db: Database;
  masterKey: string;
  /** Everything the servers were started with, for running the CLI against the same deployment. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** HAProxy's configuration: X-Forwarded-For added, X-Served-By naming the instance, a dead instance skipped. */
function haproxyConfig(port: number, instances: readonly Instance[]): string {
  return [
    'global',
    '  maxconn 2000',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  retries 3',
    '  option redispatch',
    // Only a request that never reached an instance is retried elsewhere: a sign-in step is not replayed.
    '  retry-on conn-failure',
    'frontend sso',
    `  bind 127.0.0.1:${port}`,
    '  option forwardfor',
    '  default_backend instances',
    'backend instances',
    '  balance roundrobin',
    '  option httpchk GET /healthz',
    '  http-response set-header X-Served-By %s',
    ...instances.map((instance) => `  server ${instance.name} 127.0.0.1:${instance.port} check inter 500ms fall 2 rise 1`),
    '',
  ].join('\n');
}

async function waitUntilServing(url: string, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    try {
      if ((await httpRequest(`${url}/healthz`)).status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Starts the whole deployment in its own PostgreSQL schema of `databaseUrl`; `stop` removes everything again. On any
 * failure every process it started is stopped before it rejects; a missing HAProxy is found before anything starts.
 */
export async function startCluster(options: { databaseUrl: string; instances: number; env?: Record<string, string>; haproxy?: string }): Promise<Cluster> {
  const binary = options.haproxy ?? HAPROXY;
  const problem = haproxyProblem(binary);
  if (problem) throw new Error(problem);
  const schema = `scale_${Date.now().toString(36)}_${crypto.randomBytes(3).toString('hex')}`;
  const db = await openDatabase({ kind: 'postgres', url: options.databaseUrl, schema });
  const started: ChildProcess[] = [];
  let smtp: SmtpCapture | undefined;
  let balancer: Awaited<ReturnType<typeof heldPort>> | undefined;
  const dataDirs: string[] = [];
  const stop = async () => {
    await balancer?.release();
    await Promise.all(started.map((child) => stopServer(child, 'SIGKILL')));
    await smtp?.close();
    await db.query(`drop schema if exists ${schema} cascade`).catch(() => undefined);
    await db.close();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await migrate(db);
    smtp = await startSmtpCapture();
    // The servers are started with the balancer's address, before the balancer can start, so its port is held till then.
    balancer = await heldPort();
    const publicUrl = `http://127.0.0.1:${balancer.port}`;
    const masterKey = crypto.randomBytes(32).toString('base64url');
    const databaseUrl = new URL(options.databaseUrl);
    databaseUrl.searchParams.set('options', `-c search_path=${schema}`);
    const env = {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PUBLIC_URL: publicUrl,
      DATABASE_URL: databaseUrl.href,
      MASTER_KEY: masterKey,
      SMTP_URL: smtp.url,
      SEED_DEMO: 'false',
      TRUST_PROXY: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...options.env,
    };
    const config = loadConfig(env);
    await seedDemo({ db, box: createSecretBox(Buffer.from(masterKey, 'base64url')), config });

    const names = ['a', 'b', 'c', 'd'].slice(0, options.instances);
    const instances = await Promise.all(
      names.map(async (name) => {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `sso-scale-${name}-`));
        dataDirs.push(dataDir);
        const { port, child } = await startServerOnFreePort((port) => ({ ...env, PORT: String(port), DATA_DIR: dataDir }));
        started.push(child);
        return { name, port, url: `http://127.0.0.1:${port}`, child };
      }),
    );
    const configFile = path.join(dataDirs[0]!, 'haproxy.cfg');
    fs.writeFileSync(configFile, haproxyConfig(balancer.port, instances));
    await balancer.release();
    await startHaproxy(binary, configFile, publicUrl, started);
    // Both instances pass their health check before the test starts (round robin then alternates).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    return { url: publicUrl, instances, smtp, db, masterKey, env, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
