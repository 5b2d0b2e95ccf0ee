import type { Queryable, SqlValue } from '../db/database.ts';
import type { PendingWrite } from './provider-request.ts';

/** Models whose rows belong to a grant and die with it when the grant is revoked (mirrors oidc-provider's memory adapter). */
export const GRANT_MEMBERS = ['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest'];

const UPSERT_COLUMNS = '(model, id, payload, grant_id, uid, user_code, expires_at)';
const ON_CONFLICT = `on conflict (model, id) do update set payload = excluded.payload, grant_id = excluded.grant_id,
  uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at`;

/**
 * A grant member is written only while its grant exists, or when its grant is written with it. The grant's row is
 * locked (key share) until the write commits, so a revocation, which deletes the grant first and its members after
 * (revokeGrant, deleteGrantMembers), either comes first and the member is never written, or waits and then deletes it:
 * a request that won a code or refresh token a parallel replay revoked cannot bring the family back with its writes.
 */
function memberGuard(members: string, grantsWritten: string): string {
  return `v.model <> all(${members}) or v.grant_id is null or v.grant_id = any(${grantsWritten}) or exists (
    select 1 from oidc_payloads g where g.model = 'Grant' and g.id = v.grant_id and (g.expires_at is null or g.expires_at > now()) for key share
  )`;
}

/** A single-use row (a code, a refresh token) whose consumption found it used already, or gone. */
export interface UnconsumedRow {
  model: string;
  id: string;
}

const sameRow = (a: UnconsumedRow, b: UnconsumedRow) => a.model === b.model && a.id === b.id;

/**
 * Writes `rows` (distinct rows: a request's later write of a row replaced its earlier one) in one statement: the
 * consumptions, the deletions and the upserts together, so a request's writes cost one round trip and land all or
 * none. A consumption marks its row used only if it was unused, and the other writes land only if every
 * consumption did: the token endpoint's new tokens are stored in the statement that spends the code or refresh
 * token they were issued for (a parallel request that spent it first leaves them unwritten). Answers the
 * consumptions that found their row used or gone. A deleted Grant takes its members with it, in a statement of its
 * own that sees whatever was written before it committed.
 */
export async function writeRows(db: Queryable, rows: readonly PendingWrite[]): Promise<UnconsumedRow[]> {
  const consumed = rows.filter((row) => row.kind === 'consume');
  const others = rows.filter((row) => row.kind !== 'consume');
  // One statement cannot both mark a row used and rewrite it: such a row is consumed first, on its own.
  if (consumed.length > 0 && others.some((row) => consumed.some((consumption) => sameRow(row, consumption)))) {
    const unconsumed = await writeRows(db, consumed);
    return unconsumed.length > 0 ? unconsumed : writeRows(db, others);
  }
  const params: SqlValue[] = [];
  const bind = (value: SqlValue) => `$${params.push(value)}`;
  const deleted: string[] = [];
  const upserted: string[] = [];
  const grantsDeleted: string[] = [];
  const grantsWritten: string[] = [];
  for (const row of others) {
    if (row.kind === 'destroy') {
      deleted.push(`(${bind(row.model)}, ${bind(row.id)})`);
      if (row.model === 'Grant') grantsDeleted.push(row.id);
      continue;
    }
    if (row.kind !== 'upsert') continue;
    const { payload } = row;
    if (row.model === 'Grant') grantsWritten.push(row.id);
    upserted.push(
      `(${bind(row.model)}, ${bind(row.id)}, ${bind(JSON.stringify(payload))}::jsonb, ${bind(payload.grantId ?? null)}, ${bind(payload.uid ?? null)}, ` +
        `${bind(payload.userCode ?? null)}, now() + ${bind(row.expiresIn ?? null)}::double precision * interval '1 second')`,
    );
  }
  const consumption =
    consumed.length === 0
      ? undefined
      : `update oidc_payloads set consumed_at = now() where (model, id) in (${consumed.map((row) => `(${bind(row.model)}, ${bind(row.id)})`).join(', ')}) ` +
        'and consumed_at is null returning model, id';
  // Bound only when a write uses it: a parameter no statement names is refused.
  const allConsumed = consumption === undefined || deleted.length + upserted.length === 0 ? 'true' : `(select count(*) from consumed) = ${bind(consumed.length)}::bigint`;
  const deletion = `delete from oidc_payloads where (model, id) in (${deleted.join(', ')}) and ${allConsumed}`;
  const guard = upserted.length === 0 ? '' : memberGuard(bind(GRANT_MEMBERS), bind(grantsWritten));
  const upsert =
    `insert into oidc_payloads ${UPSERT_COLUMNS} select * from (values ${upserted.join(', ')}) ` +
    `as v (model, id, payload, grant_id, uid, user_code, expires_at) where ${allConsumed} and (${guard}) ${ON_CONFLICT}`;
  const writes = [...(deleted.length > 0 ? [deletion] : []), ...(upserted.length > 0 ? [upsert] : [])];
  let unconsumed: UnconsumedRow[] = [];
  if (consumption !== undefined) {
    const parts = [`consumed as (${consumption})`, ...writes.map((write, index) => `w${index} as (${write})`)];
    const result = await db.query<UnconsumedRow>(`with ${parts.join(', ')} select model, id from consumed`, params);
    unconsumed = consumed.filter((row) => !result.rows.some((done) => done.model === row.model && done.id === row.id));
    if (unconsumed.length > 0) return unconsumed;
  } else if (writes.length === 2) await db.query(`with deleted as (${deletion}) ${upsert}`, params);
  else if (writes.length === 1) await db.query(writes[0]!, params);
  if (grantsDeleted.length > 0) await deleteGrantMembers(db, grantsDeleted);
  return unconsumed;
}

/** Deletes every token and code of the grants `grantIds` (already deleted themselves). */
export async function deleteGrantMembers(db: Queryable, grantIds: readonly string[]): Promise<void> {
  await db.query('delete from oidc_payloads where grant_id = any($1) and model = any($2)', [[...grantIds], GRANT_MEMBERS]);
}
