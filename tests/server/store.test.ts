import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../server/crypto/secret-box.ts';
import type { Database } from '../../server/db/database.ts';
import { migrate } from '../../server/db/migrate.ts';
import { purgeExpired } from '../../server/store/cleanup.ts';
import { findClient, upsertClient } from '../../server/store/clients.ts';
import { consumeCredentialNonce, issueCredentialNonce } from '../../server/store/credential-nonces.ts';
import { createTransaction, findTransaction, finishTransaction, recordInTransaction } from '../../server/store/transactions.ts';
import { DuplicateEmailError, findCredentialsByEmail, insertUser } from '../../server/store/users.ts';
import { testBackends } from './support/databases.ts';

const PARALLEL = 50;

describe.each(testBackends())('the store on $name', (backend) => {
  let db: Database;
  const box = createSecretBox(crypto.randomBytes(32));
  beforeAll(async () => {
    db = await backend.open();
  });
  afterAll(async () => {
    await db.close();
  });

  it('applies migrations once and then has nothing left to apply', async () => {
    expect(await migrate(db)).toEqual([]);
  });

  it('finds users by email regardless of case and refuses a second account for the same email', async () => {
    const user = await insertUser(db, { email: 'Ada@Example.com', passwordHash: 'hash', firstName: 'Ada' });
    expect((await findCredentialsByEmail(db, ' ada@example.COM '))?.user.id).toBe(user.id);
    await expect(insertUser(db, { email: 'ada@example.com', passwordHash: 'x' })).rejects.toBeInstanceOf(DuplicateEmailError);
  });

  it('stores a confidential client secret only encrypted, and opens it again', async () => {
    await upsertClient(db, box, { clientId: 'bank-app', name: 'Bank', redirectUris: ['https://bank.example/cb'], isPublic: false, secret: 's3cret-value' });
    const raw = await db.query<{ secret_encrypted: string }>('select secret_encrypted from clients where client_id = $1', ['bank-app']);
    expect(raw.rows[0]?.secret_encrypted).not.toContain('s3cret-value');
    expect((await findClient(db, box, 'bank-app'))?.secret).toBe('s3cret-value');
  });

  it('uses a credential nonce exactly once even when 50 requests race for it', async () => {
    const now = Date.now();
    const nonce = await issueCredentialNonce(db, new Date(now + 60_000));
    const results = await Promise.all(Array.from({ length: PARALLEL }, () => consumeCredentialNonce(db, nonce, new Date(now))));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('refuses an expired credential nonce', async () => {
    const now = Date.now();
    const nonce = await issueCredentialNonce(db, new Date(now + 1000));
    expect(await consumeCredentialNonce(db, nonce, new Date(now + 2000))).toBe(false);
  });

  it('finishes a transaction exactly once when 50 requests race, and only from the challenge it is at', async () => {
    const now = Date.now();
    const token = await createTransaction(db, { interactionUid: `uid-${now}`, clientId: 'bank-app', challenge: 'LOGIN_REQUIRED', expiresAt: new Date(now + 60_000) });
    expect(await finishTransaction(db, token, 'SOFTWARE_TOKEN_MFA', new Date(Date.now() + 60_000))).toBe(false);
    const results = await Promise.all(Array.from({ length: PARALLEL }, () => finishTransaction(db, token, 'LOGIN_REQUIRED', new Date(Date.now() + 60_000))));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await findTransaction(db, token, new Date(now))).toBeUndefined();
  });

  it('records settled steps in a transaction only while it is at the expected challenge, keeping earlier records', async () => {
    const now = Date.now();
    const token = await createTransaction(db, { interactionUid: `uid-rec-${now}`, clientId: 'bank-app', challenge: 'SOFTWARE_TOKEN_MFA', expiresAt: new Date(now + 60_000) });
    expect(await recordInTransaction(db, token, 'SOFTWARE_TOKEN_MFA', { amr: ['pwd'] })).toBe(true);
    expect(await recordInTransaction(db, token, 'SOFTWARE_TOKEN_MFA', { secondFactor: 'totp' })).toBe(true);
    expect(await recordInTransaction(db, token, 'LOGIN_REQUIRED', { secondFactor: 'sms' })).toBe(false);
    expect((await findTransaction(db, token, new Date(now)))?.data).toEqual({ amr: ['pwd'], secondFactor: 'totp' });
  });

  it('does not find a transaction once it has expired', async () => {
    const now = Date.now();
    const token = await createTransaction(db, { interactionUid: `uid-exp-${now}`, clientId: 'bank-app', challenge: 'LOGIN_REQUIRED', expiresAt: new Date(now + 1000) });
    expect(await findTransaction(db, token, new Date(now))).toBeDefined();
    expect(await findTransaction(db, token, new Date(now + 2000))).toBeUndefined();
  });

  it('purges expired transactions and nonces but keeps live ones', async () => {
    const now = Date.now();
    const live = await createTransaction(db, { interactionUid: `uid-live-${now}`, clientId: 'c', challenge: 'LOGIN_REQUIRED', expiresAt: new Date(now + 60_000) });
    await createTransaction(db, { interactionUid: `uid-old-${now}`, clientId: 'c', challenge: 'LOGIN_REQUIRED', expiresAt: new Date(now - 1000) });
    const liveNonce = await issueCredentialNonce(db, new Date(now + 60_000));
    expect(await purgeExpired(db, new Date(now))).toBeGreaterThanOrEqual(1);
    expect(await findTransaction(db, live, new Date(now))).toBeDefined();
    expect(await consumeCredentialNonce(db, liveNonce, new Date(now))).toBe(true);
    const leftovers = await db.query<{ n: number }>('select count(*)::int as n from transactions where expires_at <= $1', [new Date(now)]);
    expect(leftovers.rows[0]?.n).toBe(0);
  });
});
