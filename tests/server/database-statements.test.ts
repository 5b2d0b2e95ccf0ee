import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnstorableValueError, type Database } from '../../server/db/database.ts';
import { STATEMENTS_BETWEEN_REPLANS } from '../../server/db/pglite.ts';
import { testBackends } from './support/databases.ts';

/**
 * Both databases prepare each statement once and reuse it (PostgreSQL by name per connection, the embedded one with
 * its own named statements): a statement must answer the same on every run, whatever its values.
 */
describe.each(testBackends())('statements run again and again on $name', (backend) => {
  let db: Database;

  beforeAll(async () => {
    db = await backend.open();
    await db.exec('create table statement_probe (id int primary key, name text, tags text[], doc jsonb, at timestamptz, bytes bytea)');
  });
  afterAll(async () => {
    await db.close();
  });

  const insert = 'insert into statement_probe (id, name, tags, doc, at, bytes) values ($1, $2, $3, $4::jsonb, $5, $6)';
  const select = 'select id, name, tags, doc, at, bytes from statement_probe where id = $1';

  it('binds every kind of value the server sends, and reads it back typed, on every run of the same statement', async () => {
    const at = new Date('2026-01-02T03:04:05.000Z');
    for (let id = 1; id <= 8; id += 1) {
      await db.query(insert, [id, `name ${id}`, ['a', `b${id}`], JSON.stringify({ id, nested: { ok: true } }), at, new Uint8Array([id, 255])]);
    }
    await db.query(insert, [9, null, null, null, null, null]);
    for (let id = 1; id <= 8; id += 1) {
      const { rows } = await db.query<{ id: number; name: string; tags: string[]; doc: unknown; at: Date; bytes: Uint8Array }>(select, [id]);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ id, name: `name ${id}`, tags: ['a', `b${id}`], doc: { id, nested: { ok: true } } });
      expect(new Date(rows[0]!.at).toISOString()).toBe(at.toISOString());
      expect([...rows[0]!.bytes]).toEqual([id, 255]);
    }
    expect((await db.query(select, [9])).rows[0]).toMatchObject({ id: 9, name: null, tags: null, doc: null, at: null, bytes: null });
    expect((await db.query('update statement_probe set name = $2 where id <= $1', [3, 'renamed'])).rowCount).toBe(3);
  });

  it('keeps a statement working after it failed, inside a transaction that rolled back and outside one', async () => {
    await expect(db.query(insert, [1, 'duplicate', null, null, null, null])).rejects.toThrow();
    await expect(
      db.transaction(async (tx) => {
        await tx.query(insert, [20, 'rolled back', null, null, null, null]);
        await tx.query(insert, [20, 'duplicate', null, null, null, null]);
      }),
    ).rejects.toThrow();
    expect((await db.query(select, [20])).rows).toEqual([]);
    await db.transaction(async (tx) => {
      await tx.query(insert, [20, 'committed', null, null, null, null]);
    });
    expect((await db.query<{ name: string }>(select, [20])).rows[0]?.name).toBe('committed');
  });

  it('still reports a value the database cannot store as bad input', async () => {
    await expect(db.query(insert, [30, 'nul \u0000 byte', null, null, null, null])).rejects.toBeInstanceOf(UnstorableValueError);
    expect((await db.query(select, [30])).rows).toEqual([]);
  });

  it('keeps answering once the embedded database has re-planned its statements, as it does every so many statements', async () => {
    for (let run = 0; run <= STATEMENTS_BETWEEN_REPLANS; run += 1) await db.query(select, [1 + (run % 8)]);
    const { rows } = await db.query<{ id: number }>(select, [5]);
    expect(rows.map((row) => row.id)).toEqual([5]);
  });
});
