import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { DEMO_CLIENTS, DEMO_USER, seedDemo } from '../../../server/admin/seed.ts';
import { buildApp } from '../../../server/app.ts';
import type { Clock } from '../../../server/clock.ts';
import { loadConfig } from '../../../server/config.ts';
import { createSecretBox } from '../../../server/crypto/secret-box.ts';
import type { Database } from '../../../server/db/database.ts';
import type { FlagValues } from '../../../server/flags/feature-flags.ts';
import type { Mailer } from '../../../server/mail/mailer.ts';
import type { Services } from '../../../server/services.ts';
import type { SmsSender } from '../../../server/sms/sms-sender.ts';
import { findClient } from '../../../server/store/clients.ts';
import { testBackends, type TestBackend } from './databases.ts';

/** The public URL tests pretend the server has; `inject` ignores hosts, so any origin works. */
export const TEST_PUBLIC_URL = 'http://localhost:8080';

/** The demo client app's own origin under TEST_PUBLIC_URL (DEMO_URL's default): where the demo clients' addresses are registered. */
export const TEST_DEMO_URL = 'http://127.0.0.1:8081';

/** A whole server on a fresh database with the demo clients and user, driven with `inject`. */
export interface TestApp {
  app: FastifyInstance;
  context: Services;
  db: Database;
  publicClient: { clientId: string; redirectUri: string };
  confidentialClient: { clientId: string; redirectUri: string; secret: string };
  user: typeof DEMO_USER;
  close(): Promise<void>;
}

/** Builds the server on `backend` (PGlite by default); options let a test supply a fake clock or env. */
export async function startTestApp(
  options: {
    backend?: TestBackend;
    clock?: Clock;
    env?: Record<string, string>;
    mailer?: Mailer;
    sms?: SmsSender;
    flags?: Partial<FlagValues>;
    logStream?: { write(line: string): void };
    /** The folder holding the flows/ and schemas/ to serve (a fixture's); the project's by default. */
    flowsRoot?: string;
    /** Another instance's database and master key: the two then behave as two processes of one deployment. */
    shared?: { db: Database; masterKey: Buffer };
  } = {},
): Promise<TestApp & { masterKey: Buffer }> {
  const backend = options.backend ?? testBackends()[0]!;
  const db = options.shared?.db ?? (await backend.open());
  const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: TEST_PUBLIC_URL, DATA_DIR: path.join(os.tmpdir(), 'sso-test'), ...options.env });
  const masterKey = options.shared?.masterKey ?? crypto.randomBytes(32);
  const box = createSecretBox(masterKey);
  await seedDemo({ db, box, config });
  const { app, context } = await buildApp({
    config,
    db,
    masterKey,
    clock: options.clock,
    mailer: options.mailer,
    sms: options.sms,
    flags: options.flags,
    logStream: options.logStream,
    flowsRoot: options.flowsRoot,
  });
  await app.ready();
  const [account, dashboard] = DEMO_CLIENTS;
  const dashboardClient = await findClient(db, box, dashboard.clientId);
  return {
    app,
    context,
    db,
    publicClient: { clientId: account.clientId, redirectUri: new URL(account.callbackPath, config.demo.url).href },
    confidentialClient: { clientId: dashboard.clientId, redirectUri: new URL(dashboard.callbackPath, config.demo.url).href, secret: dashboardClient!.secret! },
    user: DEMO_USER,
    masterKey,
    async close() {
      await app.close();
      if (!options.shared) await db.close();
    },
  };
}
