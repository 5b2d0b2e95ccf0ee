import type { Queryable } from '../db/database.ts';

/** Changes the user's given and family names. */
export async function setNames(db: Queryable, userId: string, firstName: string, lastName: string): Promise<void> {
  await db.query('update users set first_name = $2, last_name = $3 where id = $1', [userId, firstName, lastName]);
}
