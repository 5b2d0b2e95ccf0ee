import Fastify, { type FastifyInstance } from 'fastify';
import type * as oidc from 'openid-client';
import type { Config } from '../config.ts';
import { DEMO_CLIENTS, DEMO_FAPI2_CLIENT } from '../admin/seed.ts';
import { importDemoFapi2Keys } from './demo-fapi2-keys.ts';
import { installErrorHandling } from '../api/http-errors.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Database } from '../db/database.ts';
import { findClient } from '../store/clients.ts';
import { installSecurityHeaders } from '../web/security-headers.ts';
import { demoClientRoutes, type DemoClient } from './demo-client.ts';

/** What the demo app needs; `customFetch` lets tests reach the provider through `app.inject`. */
export interface DemoAppDeps {
  config: Pick<Config, 'publicUrl' | 'logLevel' | 'demo'>;
  db: Database;
  box: SecretBox;
  customFetch?: oidc.CustomFetch;
}

/** The seeded demo clients as the database holds them (a confidential one with its secret). */
export async function seededDemoClients(db: Database, box: SecretBox): Promise<DemoClient[]> {
  const clients: DemoClient[] = [];
  for (const demo of DEMO_CLIENTS) {
    const client = await findClient(db, box, demo.clientId);
    if (client) clients.push({ clientId: client.clientId, name: client.name, secret: client.secret, callbackPath: demo.callbackPath });
  }
  if (await findClient(db, box, DEMO_FAPI2_CLIENT.clientId)) {
    clients.push({ ...DEMO_FAPI2_CLIENT, fapi2: await importDemoFapi2Keys(box) });
  }
  return clients;
}

/**
 * The demo client app as a server of its own, on its own origin (DEMO_URL): a real client app never shares the
 * provider's origin, so every sign-in, sign-out and back-channel logout it makes crosses origins as theirs do.
 * Undefined when no demo client is seeded.
 */
export async function buildDemoApp(deps: DemoAppDeps): Promise<FastifyInstance | undefined> {
  const clients = await seededDemoClients(deps.db, deps.box);
  if (clients.length === 0) return undefined;
  const app = Fastify({ logger: { level: deps.config.logLevel } });
  installErrorHandling(app);
  installSecurityHeaders(app, { publicUrl: deps.config.demo.url });
  app.get('/', (_request, reply) => reply.redirect('/demo/'));
  await app.register(demoClientRoutes({ config: deps.config, box: deps.box, db: deps.db, clients, customFetch: deps.customFetch }));
  return app;
}
