import crypto from 'node:crypto';
import { errors, type AdapterFactory } from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../server/crypto/secret-box.ts';
import type { Database } from '../../server/db/database.ts';
import { createOidcAdapter, sendDeferredWrites } from '../../server/oidc/adapter.ts';
import { runProviderRequest } from '../../server/oidc/provider-request.ts';
import { purgeExpired } from '../../server/store/cleanup.ts';
import { upsertClient } from '../../server/store/clients.ts';
import { testBackends } from './support/databases.ts';

describe.each(testBackends())('the oidc-provider adapter on $name', (backend) => {
  let db: Database;
  let adapterFor: AdapterFactory;
  const box = createSecretBox(crypto.randomBytes(32));
  const id = () => crypto.randomUUID();

  beforeAll(async () => {
    db = await backend.open();
    adapterFor = createOidcAdapter({ db, box });
  });
  afterAll(async () => {
    await db.close();
  });

  async function expire(model: string, rowId: string): Promise<void> {
    await db.query("update oidc_payloads set expires_at = now() - interval '1 second' where model = $1 and id = $2", [model, rowId]);
  }

  it('stores a payload and finds it by id, uid and user code', async () => {
    const sessions = adapterFor('Session');
    const sessionId = id();
    await sessions.upsert(sessionId, { uid: 'session-uid', accountId: 'someone' }, 60);
    expect(await sessions.find(sessionId)).toEqual({ uid: 'session-uid', accountId: 'someone' });
    expect(await sessions.findByUid('session-uid')).toEqual({ uid: 'session-uid', accountId: 'someone' });
    const deviceCodes = adapterFor('DeviceCode');
    await deviceCodes.upsert(id(), { userCode: 'ABCD-EFGH' }, 60);
    expect(await deviceCodes.findByUserCode('ABCD-EFGH')).toEqual({ userCode: 'ABCD-EFGH' });
  });

  it('keeps models apart: the same id in two models is two rows', async () => {
    const shared = id();
    await adapterFor('Interaction').upsert(shared, { returnTo: 'interaction' }, 60);
    await adapterFor('Session').upsert(shared, { uid: 'x' }, 60);
    expect(await adapterFor('Interaction').find(shared)).toEqual({ returnTo: 'interaction' });
    expect(await adapterFor('Grant').find(shared)).toBeUndefined();
  });

  it('replaces a payload on a second upsert', async () => {
    const interactions = adapterFor('Interaction');
    const interactionId = id();
    await interactions.upsert(interactionId, { returnTo: 'first' }, 60);
    await interactions.upsert(interactionId, { returnTo: 'second' }, 60);
    expect(await interactions.find(interactionId)).toEqual({ returnTo: 'second' });
  });

  it('does not return expired rows, and purges them', async () => {
    const sessions = adapterFor('Session');
    const sessionId = id();
    await sessions.upsert(sessionId, { uid: 'expiring-uid' }, 60);
    await expire('Session', sessionId);
    expect(await sessions.find(sessionId)).toBeUndefined();
    expect(await sessions.findByUid('expiring-uid')).toBeUndefined();
    expect(await purgeExpired(db, new Date())).toBeGreaterThanOrEqual(1);
    const left = await db.query('select 1 from oidc_payloads where model = $1 and id = $2', ['Session', sessionId]);
    expect(left.rows).toHaveLength(0);
  });

  it('keeps rows without an expiry', async () => {
    const grants = adapterFor('Grant');
    const grantId = id();
    await grants.upsert(grantId, { accountId: 'someone' });
    expect(await grants.find(grantId)).toEqual({ accountId: 'someone' });
  });

  it('marks a consumed code with the time it was consumed', async () => {
    const codes = adapterFor('AuthorizationCode');
    const codeId = id();
    const grantId = id();
    await adapterFor('Grant').upsert(grantId, { accountId: 'someone' }, 60);
    await codes.upsert(codeId, { grantId }, 60);
    await codes.consume(codeId);
    const found = await codes.find(codeId);
    expect(found?.consumed).toEqual(expect.any(Number));
    expect(Math.abs(Number(found?.consumed) - Date.now() / 1000)).toBeLessThan(60);
  });

  it('refuses a code consumed twice at once and revokes its grant', async () => {
    const grantId = id();
    const codeId = id();
    const tokenId = id();
    await adapterFor('Grant').upsert(grantId, { accountId: 'someone' }, 60);
    await adapterFor('AuthorizationCode').upsert(codeId, { grantId }, 60);
    await adapterFor('AccessToken').upsert(tokenId, { grantId }, 60);
    const codes = adapterFor('AuthorizationCode');
    const results = await Promise.allSettled([codes.consume(codeId), codes.consume(codeId)]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((result) => result.status === 'rejected');
    expect(rejected?.reason).toBeInstanceOf(errors.InvalidGrant);
    expect(await adapterFor('AccessToken').find(tokenId)).toBeUndefined();
    expect(await adapterFor('Grant').find(grantId)).toBeUndefined();
  });

  it('revokes by grant id only the rows of that model and that grant', async () => {
    const grantId = id();
    const otherGrantId = id();
    const [revoked, kept, otherModel] = [id(), id(), id()];
    await adapterFor('Grant').upsert(grantId, { accountId: 'someone' }, 60);
    await adapterFor('Grant').upsert(otherGrantId, { accountId: 'someone' }, 60);
    await adapterFor('AccessToken').upsert(revoked, { grantId }, 60);
    await adapterFor('AccessToken').upsert(kept, { grantId: otherGrantId }, 60);
    await adapterFor('AuthorizationCode').upsert(otherModel, { grantId }, 60);
    await adapterFor('AccessToken').revokeByGrantId(grantId);
    expect(await adapterFor('AccessToken').find(revoked)).toBeUndefined();
    expect(await adapterFor('AccessToken').find(kept)).toEqual({ grantId: otherGrantId });
    expect(await adapterFor('AuthorizationCode').find(otherModel)).toEqual({ grantId });
  });

  it('destroys one row', async () => {
    const sessions = adapterFor('Session');
    const sessionId = id();
    await sessions.upsert(sessionId, { uid: 'destroy-me' }, 60);
    await sessions.destroy(sessionId);
    expect(await sessions.find(sessionId)).toBeUndefined();
  });

  /** How many statements `work` sends to the database. */
  async function statementsOf(work: (counted: AdapterFactory, countedDb: Database) => Promise<void>): Promise<number> {
    let statements = 0;
    const counting: Database = {
      ...db,
      query: (sql, params) => {
        statements += 1;
        return db.query(sql, params);
      },
    };
    await work(createOidcAdapter({ db: counting, box }), counting);
    return statements;
  }

  it("sends a provider request's writes together, in one statement, when they are sent", async () => {
    const sessions = adapterFor('Session');
    const [kept, replaced, removed, added] = [id(), id(), id(), id()];
    await adapterFor('Grant').upsert('g', { accountId: 'someone' });
    await sessions.upsert(kept, { uid: 'kept' }, 60);
    await sessions.upsert(replaced, { uid: 'before' }, 60);
    await sessions.upsert(removed, { uid: 'removed' }, 60);
    const statements = await statementsOf((counted, countedDb) =>
      runProviderRequest(async () => {
        await counted('Session').upsert(replaced, { uid: 'after' }, 60);
        await counted('Session').destroy(removed);
        await counted('Session').upsert(added, { uid: 'added' }, 60);
        await counted('AccessToken').upsert(added, { grantId: 'g' }, 60);
        // Held back until sent: nothing has reached the database yet.
        expect((await db.query('select 1 from oidc_payloads where id = $1', [added])).rows).toEqual([]);
        await sendDeferredWrites(countedDb);
      }),
    );
    expect(statements).toBe(1);
    expect(await sessions.find(kept)).toEqual({ uid: 'kept' });
    expect(await sessions.find(replaced)).toEqual({ uid: 'after' });
    expect(await sessions.find(removed)).toBeUndefined();
    expect(await sessions.find(added)).toEqual({ uid: 'added' });
    expect(await adapterFor('AccessToken').find(added)).toEqual({ grantId: 'g' });
  });

  it('writes held back in a provider request reach the database before the adapter reads, and a code is spent by the statement storing its tokens', async () => {
    const codeId = id();
    const tokenId = id();
    await adapterFor('Grant').upsert('g', { accountId: 'someone' });
    const statements = await statementsOf((counted, countedDb) =>
      runProviderRequest(async () => {
        const codes = counted('AuthorizationCode');
        await codes.upsert(codeId, { grantId: 'g' }, 60);
        await counted('Session').upsert(codeId, { uid: 'with-the-code' }, 60);
        expect(await codes.find(codeId)).toEqual({ grantId: 'g' });
        await codes.consume(codeId);
        await counted('AccessToken').upsert(tokenId, { grantId: 'g' }, 60);
        // Held back: the code is not spent until the token issued for it is stored with it.
        expect((await db.query("select consumed_at from oidc_payloads where model = 'AuthorizationCode' and id = $1", [codeId])).rows).toEqual([{ consumed_at: null }]);
        await sendDeferredWrites(countedDb);
      }),
    );
    // One statement for both writes, one read, one that spends the code and stores the token.
    expect(statements).toBe(3);
    expect(await adapterFor('AuthorizationCode').find(codeId)).toMatchObject({ grantId: 'g', consumed: expect.any(Number) });
    expect(await adapterFor('Session').find(codeId)).toEqual({ uid: 'with-the-code' });
    expect(await adapterFor('AccessToken').find(tokenId)).toEqual({ grantId: 'g' });
  });

  it('spends a code held back in a provider request before the adapter reads anything, even with no write to go with it', async () => {
    const codeId = id();
    await adapterFor('Grant').upsert('g', { accountId: 'someone' });
    await adapterFor('AuthorizationCode').upsert(codeId, { grantId: 'g' }, 60);
    await runProviderRequest(async () => {
      await adapterFor('AuthorizationCode').consume(codeId);
      expect(await adapterFor('Session').find(id())).toBeUndefined();
      expect((await db.query("select 1 from oidc_payloads where model = 'AuthorizationCode' and id = $1 and consumed_at is not null", [codeId])).rows).toHaveLength(1);
    });
  });

  it('stores none of a provider request\'s tokens, refuses it and revokes the grant when a parallel request spent its refresh token first', async () => {
    const grantId = id();
    const [spent, issued, earlier] = [id(), id(), id()];
    await adapterFor('Grant').upsert(grantId, { accountId: 'someone' }, 60);
    await adapterFor('RefreshToken').upsert(spent, { grantId }, 60);
    await adapterFor('AccessToken').upsert(earlier, { grantId }, 60);
    const refused = runProviderRequest(async () => {
      await adapterFor('RefreshToken').consume(spent);
      await adapterFor('RefreshToken').upsert(issued, { grantId }, 60);
      // A parallel request spends the same refresh token before this one's writes go out.
      await db.query("update oidc_payloads set consumed_at = now() where model = 'RefreshToken' and id = $1", [spent]);
      await sendDeferredWrites(db);
    });
    await expect(refused).rejects.toBeInstanceOf(errors.InvalidGrant);
    expect(await adapterFor('RefreshToken').find(issued)).toBeUndefined();
    expect(await adapterFor('AccessToken').find(earlier)).toBeUndefined();
    expect(await adapterFor('Grant').find(grantId)).toBeUndefined();
  });

  it('a later write of the same row in a provider request replaces the earlier one', async () => {
    const interactions = adapterFor('Interaction');
    const [saved, destroyed] = [id(), id()];
    await interactions.upsert(destroyed, { returnTo: 'old' }, 60);
    await runProviderRequest(async () => {
      await interactions.upsert(saved, { returnTo: 'first' }, 60);
      await interactions.destroy(saved);
      await interactions.upsert(saved, { returnTo: 'last' }, 60);
      await interactions.upsert(destroyed, { returnTo: 'replaced' }, 60);
      await interactions.destroy(destroyed);
      expect(await interactions.find(saved)).toEqual({ returnTo: 'last' });
    });
    expect(await interactions.find(saved)).toEqual({ returnTo: 'last' });
    expect(await interactions.find(destroyed)).toBeUndefined();
  });

  it.each([
    {
      kind: 'public',
      secret: undefined,
      auth: { token_endpoint_auth_method: 'none' },
    },
    {
      kind: 'confidential',
      secret: 'the-secret',
      auth: { token_endpoint_auth_method: 'client_secret_basic', client_secret: 'the-secret' },
    },
  ])('reads a $kind client from the clients table', async ({ kind, secret, auth }) => {
    const clientId = `${kind}-client`;
    await upsertClient(db, box, { clientId, name: `A ${kind} app`, redirectUris: ['https://app.example/cb'], isPublic: secret === undefined, secret });
    expect(await adapterFor('Client').find(clientId)).toEqual({
      client_id: clientId,
      client_name: `A ${kind} app`,
      redirect_uris: ['https://app.example/cb'],
      response_types: ['code'],
      // Every client may hold refresh tokens; only its setting (or offline_access) gets it one.
      grant_types: ['authorization_code', 'refresh_token'],
      sso_refresh_tokens: false,
      // The profile every request of the client follows: default unless registered with --profile fapi2.
      sso_profile: 'default',
      // A client is third-party, asking the person's consent, unless registered with --first-party.
      sso_first_party: false,
      ...auth,
    });
  });

  it('knows no client that is not registered, and refuses to write clients', async () => {
    const clients = adapterFor('Client');
    expect(await clients.find('nobody')).toBeUndefined();
    await expect(clients.upsert('new-client', { client_id: 'new-client' })).rejects.toThrow(/CLI/);
  });
});
