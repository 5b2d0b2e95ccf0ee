import crypto from 'node:crypto';
import type { Queryable } from '../db/database.ts';

/** A company users act for; its id and name go into tokens as the `company` claim. */
export interface Company {
  id: string;
  name: string;
}

/** A company as one member sees it: when they last signed in for it (null: never). */
export interface Membership extends Company {
  lastUsedAt: Date | null;
}

/** Company names compare case-insensitively and without surrounding or repeated spaces. */
export function normalizeCompanyName(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Thrown when a company name is already taken. */
export class DuplicateCompanyError extends Error {
  override readonly name = 'DuplicateCompanyError';
}

/** Adds a company; throws DuplicateCompanyError when the name exists. */
export async function insertCompany(db: Queryable, name: string): Promise<Company> {
  const clean = name.trim().replace(/\s+/g, ' ');
  const result = await db.query<Company>(
    `insert into companies (id, name, name_normalized) values ($1, $2, $3)
     on conflict (name_normalized) do nothing returning id, name`,
    [crypto.randomUUID(), clean, normalizeCompanyName(clean)],
  );
  const row = result.rows[0];
  if (!row) throw new DuplicateCompanyError(`a company named "${clean}" already exists`);
  return row;
}

/** The company with this name, if any. */
export async function findCompanyByName(db: Queryable, name: string): Promise<Company | undefined> {
  const result = await db.query<Company>('select id, name from companies where name_normalized = $1', [normalizeCompanyName(name)]);
  return result.rows[0];
}

/** The company with this id, if any. */
export async function findCompanyById(db: Queryable, id: string): Promise<Company | undefined> {
  const result = await db.query<Company>('select id, name from companies where id = $1', [id]);
  return result.rows[0];
}

/** Every company with its member count, by name. */
export async function listCompanies(db: Queryable): Promise<Array<Company & { members: number }>> {
  const result = await db.query<Company & { members: string | number }>(
    `select c.id, c.name, count(m.user_id) as members from companies c left join company_memberships m on m.company_id = c.id
     group by c.id, c.name order by c.name_normalized`,
  );
  return result.rows.map((row) => ({ id: row.id, name: row.name, members: Number(row.members) }));
}

/** Makes the user a member; false when they already were. */
export async function addMembership(db: Queryable, userId: string, companyId: string): Promise<boolean> {
  const result = await db.query('insert into company_memberships (user_id, company_id) values ($1, $2) on conflict do nothing', [userId, companyId]);
  return result.rowCount === 1;
}

/** The user's companies: the last used first, then those never used, each group by name. */
export async function membershipsOf(db: Queryable, userId: string): Promise<Membership[]> {
  const result = await db.query<{ id: string; name: string; last_used_at: Date | null }>(
    `select c.id, c.name, m.last_used_at from company_memberships m join companies c on c.id = m.company_id
     where m.user_id = $1 order by m.last_used_at desc nulls last, c.name_normalized, c.id`,
    [userId],
  );
  return result.rows.map((row) => ({ id: row.id, name: row.name, lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at) }));
}

/** The members of a company (emails), by email. */
export async function membersOf(db: Queryable, companyId: string): Promise<string[]> {
  const result = await db.query<{ email: string }>(
    'select u.email from company_memberships m join users u on u.id = m.user_id where m.company_id = $1 order by u.email_normalized',
    [companyId],
  );
  return result.rows.map((row) => row.email);
}

/** Records that the user signed in for the company now, so it is offered (or taken) first next time. */
export async function markCompanyUsed(db: Queryable, userId: string, companyId: string, now: Date): Promise<void> {
  await db.query('update company_memberships set last_used_at = $3 where user_id = $1 and company_id = $2', [userId, companyId, now]);
}
