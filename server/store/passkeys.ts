import crypto from 'node:crypto';
import type { Database, Queryable } from '../db/database.ts';

/** A passkey's credential, as verifying an assertion needs it. */
export interface PasskeyCredential {
  factorId: string;
  userId: string;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  aaguid: string;
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
}

interface CredentialRow {
  factor_id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  counter: string | number;
  transports: string[];
  aaguid: string;
  device_type: 'singleDevice' | 'multiDevice';
  backed_up: boolean;
}

const toCredential = (row: CredentialRow): PasskeyCredential => ({
  factorId: row.factor_id,
  userId: row.user_id,
  credentialId: row.credential_id,
  publicKey: row.public_key,
  counter: Number(row.counter),
  transports: row.transports,
  aaguid: row.aaguid,
  deviceType: row.device_type,
  backedUp: row.backed_up,
});

// Only confirmed factors count: a passkey row exists only beside its (confirmed) factor.
const COLUMNS = 'c.factor_id, c.user_id, c.credential_id, c.public_key, c.counter, c.transports, c.aaguid, c.device_type, c.backed_up';

/** The user's passkeys, oldest first. */
export async function userPasskeys(db: Queryable, userId: string): Promise<PasskeyCredential[]> {
  const result = await db.query<CredentialRow>(`select ${COLUMNS} from passkey_credentials c where c.user_id = $1 order by c.created_at`, [userId]);
  return result.rows.map(toCredential);
}

/** The passkey with this credential id, whoever's it is. */
export async function findPasskey(db: Queryable, credentialId: string): Promise<PasskeyCredential | undefined> {
  const result = await db.query<CredentialRow>(`select ${COLUMNS} from passkey_credentials c where c.credential_id = $1`, [credentialId]);
  return result.rows[0] && toCredential(result.rows[0]);
}

/**
 * Adds a verified passkey as a confirmed factor with its credential, in one database transaction, so nothing is ever
 * left half-registered. False when the credential is already registered (to anyone).
 */
export async function addPasskey(
  db: Database,
  input: Omit<PasskeyCredential, 'factorId'> & { name: string; now: Date },
): Promise<string | undefined> {
  const factorId = crypto.randomUUID();
  const insert = async (tx: Queryable): Promise<string | undefined> => {
    const taken = await tx.query('select 1 from passkey_credentials where credential_id = $1', [input.credentialId]);
    if (taken.rows.length > 0) return undefined;
    await tx.query('insert into mfa_factors (id, user_id, kind, label, confirmed_at, last_used_at) values ($1, $2, $3, $4, $5, $5)', [
      factorId,
      input.userId,
      'passkey',
      input.name,
      input.now,
    ]);
    await tx.query(
      `insert into passkey_credentials (factor_id, user_id, credential_id, public_key, counter, transports, aaguid, device_type, backed_up, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [factorId, input.userId, input.credentialId, input.publicKey, input.counter, input.transports, input.aaguid, input.deviceType, input.backedUp, input.now],
    );
    return factorId;
  };
  // Two parallel registrations of one credential: the unique index refuses the second, which rolls back whole.
  return db.transaction(insert).catch((error: unknown) => {
    if ((error as { code?: unknown }).code === '23505') return undefined;
    throw error;
  });
}

/**
 * Records an assertion's signature counter, atomically: it must go up from the stored one, unless the authenticator
 * keeps no counter (both 0). False when it did not (a cloned authenticator, or a replay racing this one).
 */
export async function advanceCounter(db: Queryable, credentialId: string, counter: number, backedUp: boolean): Promise<boolean> {
  const result = await db.query(
    `update passkey_credentials set counter = $2, backed_up = $3
     where credential_id = $1 and ((counter = 0 and $2::bigint = 0) or $2::bigint > counter)`,
    [credentialId, counter, backedUp],
  );
  return result.rowCount === 1;
}
