import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../server/crypto/secret-box.ts';
import { findClientInfo, upsertClient } from '../../server/store/clients.ts';
import { testBackends } from './support/databases.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

/** Polls `check` every 20 ms until it holds or 10 s pass: another process hears of a change through the database. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('not within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(testBackends().filter((backend) => backend.name !== 'pglite-disk'))('client apps cached by two server processes sharing one database ($name)', (backend) => {
  let first: TestApp & { masterKey: Buffer };
  let second: TestApp;
  const newRedirectUri = 'https://moved.example/callback';

  beforeAll(async () => {
    first = await startTestApp({ backend });
    second = await startTestApp({ backend, shared: { db: first.db, masterKey: first.masterKey } });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  /** How the provider on `server` answers the public client's authorization request back to `redirectUri`. */
  async function authorize(server: TestApp, redirectUri: string): Promise<number> {
    const query = new URLSearchParams({
      client_id: server.publicClient.clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid',
      state: 'state-1',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    return (await server.app.inject({ method: 'GET', url: `/oidc/auth?${query}` })).statusCode;
  }

  it('sends a client app to the login screen from either process, then follows a change of its redirect URIs made elsewhere', async () => {
    const registered = second.publicClient.redirectUri;
    // Both processes have read (and cached) the client.
    expect(await authorize(first, registered)).toBe(303);
    expect(await authorize(second, registered)).toBe(303);
    expect(await authorize(second, newRedirectUri)).toBe(400);

    const client = await findClientInfo(first.db, first.publicClient.clientId);
    await upsertClient(first.db, createSecretBox(first.masterKey), { ...client!, redirectUris: [newRedirectUri], secret: undefined });

    await eventually(async () => (await authorize(second, newRedirectUri)) === 303);
    expect(await authorize(second, registered)).toBe(400);
    expect(await authorize(first, newRedirectUri)).toBe(303);
    expect(await authorize(first, registered)).toBe(400);
  });
});
