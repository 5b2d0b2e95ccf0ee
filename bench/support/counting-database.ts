import type { Database, Queryable } from '../../server/db/database.ts';
import type { TestBackend } from '../../tests/server/support/databases.ts';

/** How many statements went to the database: each one is a round trip (a transaction's begin and commit included). */
export interface RoundTripCounter {
  readonly count: number;
}

/** `backend`, whose databases count every statement they are sent. */
export function countingBackend(backend: TestBackend): { backend: TestBackend; counter: RoundTripCounter } {
  const counter = { count: 0 };
  const counted = <Q extends Queryable>(target: Q): Q['query'] =>
    ((sql, params) => {
      counter.count += 1;
      return target.query(sql, params);
    }) as Q['query'];
  return {
    counter,
    backend: {
      name: backend.name,
      async open(): Promise<Database> {
        const db = await backend.open();
        return {
          ...db,
          query: counted(db),
          transaction: (work) =>
            db.transaction((tx) => {
              counter.count += 2;
              return work({ ...tx, query: counted(tx) });
            }),
        };
      },
    },
  };
}
