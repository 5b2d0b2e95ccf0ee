import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database, Queryable } from '../../server/db/database.ts';
import type { TestBackend } from '../../tests/server/support/databases.ts';

/** How many statements went to the database: each one is a round trip (a transaction's begin and commit included). */
export interface RoundTripCounter {
  /** Every statement sent so far, by anything. */
  readonly count: number;
  /**
   * Runs `work` and answers the statements it sent until it settled: those sent from its own asynchronous context (the
   * request and everything it awaited), but for the outbox worker's. Whatever the server's timers send meanwhile (the
   * outbox's polls, the signing keys re-read every KEY_REFRESH_SECONDS) runs in a context of its own and may
   * interleave with any request: it is not the request's.
   */
  within<T>(work: () => PromiseLike<T>): Promise<{ result: T; trips: number }>;
}

/** The outbox worker's statements: claiming, leasing and marking mail, and its backlog. */
const OUTBOX_WORKER = /^\s*(update outbox\b|select count\(\*\) as count from outbox\b)/i;

/** `backend`, whose databases count every statement they are sent. */
export function countingBackend(backend: TestBackend): { backend: TestBackend; counter: RoundTripCounter } {
  let sent = 0;
  /** The statements of the `within` call whose context a statement is sent from. */
  const own = new AsyncLocalStorage<{ trips: number }>();
  const charge = (statements: number, sql?: string) => {
    sent += statements;
    const scope = own.getStore();
    if (scope && !(sql !== undefined && OUTBOX_WORKER.test(sql))) scope.trips += statements;
  };
  const counter: RoundTripCounter = {
    get count() {
      return sent;
    },
    async within(work) {
      const scope = { trips: 0 };
      // Awaited inside the scope: a thenable (Fastify's inject) starts its work only when awaited.
      const result = await own.run(scope, async () => await work());
      return { result, trips: scope.trips };
    },
  };
  const counted = <Q extends Queryable>(target: Q): Q['query'] =>
    ((sql, params) => {
      charge(1, sql);
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
              charge(2);
              return work({ ...tx, query: counted(tx) });
            }),
        };
      },
    },
  };
}
