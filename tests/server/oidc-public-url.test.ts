import crypto from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { createSecretBox } from '../../server/crypto/secret-box.ts';
import type { Database } from '../../server/db/database.ts';
import { openDatabase } from '../../server/db/open-database.ts';
import { migrate } from '../../server/db/migrate.ts';
import { registerOidcRoutes } from '../../server/api/oidc-mount.ts';
import { securityHeaders } from '../../server/web/security-headers.ts';
import { upsertClient } from '../../server/store/clients.ts';
import { createBareProvider } from './support/bare-provider.ts';

// An https issuer served over plain HTTP: the deployment behind a TLS-terminating proxy.
const PUBLIC_URL = 'https://sso.example';

describe('the provider behind a TLS-terminating proxy', () => {
  let app: FastifyInstance;
  let db: Database;

  beforeAll(async () => {
    db = await openDatabase({ kind: 'pglite', dataDir: undefined });
    await migrate(db);
    const box = createSecretBox(crypto.randomBytes(32));
    await upsertClient(db, box, { clientId: 'app', name: 'App', redirectUris: [`${PUBLIC_URL}/cb`], isPublic: false, secret: 'secret' });
    const provider = await createBareProvider({ config: loadConfig({ NODE_ENV: 'test', PUBLIC_URL }), db, box });
    app = Fastify();
    registerOidcRoutes(app, provider, securityHeaders({ publicUrl: PUBLIC_URL }));
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  it('builds every URL from the issuer, never from the Host or X-Forwarded headers', async () => {
    const forged = { host: 'attacker.example', 'x-forwarded-host': 'attacker.example', 'x-forwarded-proto': 'http' };
    const discovery = await app.inject({ method: 'GET', url: '/.well-known/openid-configuration', headers: forged });
    expect(discovery.body).not.toContain('attacker.example');
    expect(discovery.json()).toMatchObject({ issuer: PUBLIC_URL, authorization_endpoint: `${PUBLIC_URL}/oidc/auth`, token_endpoint: `${PUBLIC_URL}/oidc/token` });
  });

  it('sets only Secure cookies although the connection to it is plain HTTP', async () => {
    // Every client sends PKCE, confidential ones included (RFC 9700 §2.1.1).
    const codeChallenge = crypto.createHash('sha256').update(crypto.randomBytes(32).toString('base64url')).digest('base64url');
    const query = new URLSearchParams({ client_id: 'app', redirect_uri: `${PUBLIC_URL}/cb`, response_type: 'code', scope: 'openid', state: 'abc', code_challenge: codeChallenge, code_challenge_method: 'S256' });
    const response = await app.inject({ method: 'GET', url: `/oidc/auth?${query}` });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toMatch(/^\/auth\/login\?interaction=/);
    const cookies = [response.headers['set-cookie'] ?? []].flat();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) expect(cookie).toMatch(/; secure/i);
  });
});
