import type { Queryable } from '../db/database.ts';
import { sha256 } from '../crypto/hash.ts';
import type { Membership } from './companies.ts';
import { FACTOR_COLUMNS, toFactor, type FactorRow, type MfaFactor } from './mfa-factors.ts';
import { toTransaction, TRANSACTION_COLUMNS, type SignInTransaction, type TransactionRow } from './transactions.ts';
import { toCredentials, USER_COLUMNS, type UserCredentials, type UserRow } from './users.ts';

/**
 * What the sign-in's gates read about its user, read once with the statement that identifies the user (the password
 * check's, or the second factor's) instead of one round trip per gate.
 */
export interface SignInState {
  /** The user's confirmed factors, in the order email, sms, totp (as confirmedFactors reads them). */
  factors: MfaFactor[];
  /** Whether the running sign-in has chosen its company, and the user's companies, the last used first (as companyChoiceState reads them). */
  company: { chosen: boolean; companies: Membership[] };
  /** How many of the user's recovery codes are left unused (as recoveryCodesLeft counts them). */
  recoveryCodesLeft: number;
}

/** The columns a SignInStateRow is read from. */
export interface SignInStateRow {
  confirmed_factors: FactorRow[] | null;
  company_chosen: boolean | null;
  companies: Array<{ id: string; name: string; last_used_at: string | null }> | null;
  recovery_codes_left: string | number | null;
}

/**
 * The select-list columns of a SignInStateRow for the user `userId` and the interaction `interactionUid`, both SQL
 * expressions of the enclosing statement (a column or a parameter, never user input).
 */
export function signInStateColumns(userId: string, interactionUid: string): string {
  return `(select json_agg(json_build_object('id', f.id, 'user_id', f.user_id, 'kind', f.kind, 'phone', f.phone,
             'secret_sealed', f.secret_sealed, 'confirmed_at', f.confirmed_at, 'label', f.label, 'is_default', f.is_default) order by f.kind)
           from mfa_factors f where f.user_id = ${userId} and f.confirmed_at is not null) as confirmed_factors,
         exists (select 1 from sign_in_companies s where s.interaction_uid = ${interactionUid}) as company_chosen,
         (select json_agg(json_build_object('id', c.id, 'name', c.name, 'last_used_at', m.last_used_at)
             order by m.last_used_at desc nulls last, c.name_normalized, c.id)
           from company_memberships m join companies c on c.id = m.company_id where m.user_id = ${userId}) as companies,
         (select count(*) from recovery_codes r where r.user_id = ${userId} and r.used_at is null) as recovery_codes_left`;
}

/** The state a SignInStateRow holds. */
export function toSignInState(row: SignInStateRow): SignInState {
  return {
    factors: (row.confirmed_factors ?? []).map(toFactor),
    company: {
      chosen: row.company_chosen === true,
      companies: (row.companies ?? []).map(({ id, name, last_used_at }) => ({ id, name, lastUsedAt: last_used_at === null ? null : new Date(last_used_at) })),
    },
    recoveryCodesLeft: Number(row.recovery_codes_left ?? 0),
  };
}

/** A sign-in's second factor in progress, read with its user's password state and the gates' SignInState. */
export interface FactorSignIn {
  /** The factor `factorId` of the user, confirmed or not; undefined when it is gone. */
  factor: MfaFactor | undefined;
  credentials: UserCredentials;
  state: SignInState;
}

/**
 * The factor `factorId` of `userId` (as findFactor reads it), the user's password state and what the sign-in of
 * `interactionUid` goes on with once the factor is proven, in one round trip; undefined when the user is gone.
 */
export async function readFactorSignIn(db: Queryable, input: { userId: string; factorId: string; interactionUid: string }): Promise<FactorSignIn | undefined> {
  const result = await db.query<UserRow & SignInStateRow & { factor: FactorRow | null }>(
    `select ${USER_COLUMNS},
       (select row_to_json(f) from (select ${FACTOR_COLUMNS} from mfa_factors where id = $2 and user_id = $1) f) as factor,
       ${signInStateColumns('users.id', '$3')}
     from users where id = $1`,
    [input.userId, input.factorId, input.interactionUid],
  );
  const row = result.rows[0];
  return row && { factor: row.factor ? toFactor(row.factor) : undefined, credentials: toCredentials(row), state: toSignInState(row) };
}

/**
 * The live transaction the cookie token points at (as findTransaction reads it) and, when it has a user and a second
 * factor in progress (`data.mfa.factorId`), that factor's FactorSignIn, in one round trip: what a second-factor
 * step reads before it checks the code.
 */
export async function findTransactionWithFactor(db: Queryable, token: string, now: Date): Promise<{ transaction: SignInTransaction; extra: FactorSignIn | undefined } | undefined> {
  const result = await db.query<TransactionRow & Partial<UserRow> & SignInStateRow & { factor: FactorRow | null }>(
    `select t.*, u.*,
       (select row_to_json(f) from (
          select ${FACTOR_COLUMNS} from mfa_factors where user_id = u.id and id::text = t.data -> 'mfa' ->> 'factorId'
        ) f) as factor,
       ${signInStateColumns('u.id', 't.interaction_uid')}
     from (select ${TRANSACTION_COLUMNS} from transactions where token_hash = $1 and expires_at > $2) t
     left join lateral (select ${USER_COLUMNS} from users where id = t.user_id) u on true`,
    [sha256(token), now],
  );
  const row = result.rows[0];
  if (!row) return undefined;
  const extra = row.id ? { factor: row.factor ? toFactor(row.factor) : undefined, credentials: toCredentials(row as UserRow), state: toSignInState(row) } : undefined;
  return { transaction: toTransaction(row), extra };
}
