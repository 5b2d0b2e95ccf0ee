import type { Database, Queryable } from '../../server/db/database.ts';
import type { TestBackend } from '../../tests/server/support/databases.ts';

/** How many statements went to the database: each one is a round trip (a transaction's begin and commit included). */
export interface RoundTripCounter {
  /** Every statement sent so far, by anything. */
  readonly count: number;
  /** The statements sent so far but for the outbox worker's, which its timer sends whenever it polls. */
  readonly requestCount: number;
  /**
   * Runs `work` and answers the statements sent until it settled, but for the outbox worker's (its timer's polls and
   * its sending of earlier requests' mail run in the background and may interleave with any request).
   */
  within<T>(work: () => Promise<T>): Promise<{ result: T; trips: number }>;
}

/** The outbox worker's statements: claiming, leasing and marking mail, and its backlog. */
const OUTBOX_WORKER = /^\s*(update outbox\b|select count\(\*\) as count from outbox\b)/i;

/** `backend`, whose databases count every statement they are sent. */
export function countingBackend(backend: TestBackend): { backend: TestBackend; counter: RoundTripCounter } {
  const tally = { count: 0, worker: 0 };
  const counter: RoundTripCounter = {
    get count() {
      return tally.count;
    },
    get requestCount() {
      return tally.count - tally.worker;
    },
    async within(work) {
      const before = { ...tally };
      const result = await work();
      return { result, trips: tally.count - before.count - (tally.worker - before.worker) };
    },
  };
  const counted = <Q extends Queryable>(target: Q): Q['query'] =>
    ((sql, params) => {
      tally.count += 1;
      if (OUTBOX_WORKER.test(sql)) tally.worker += 1;
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
              tally.count += 2;
              return work({ ...tx, query: counted(tx) });
            }),
        };
      },
    },
  };
}
