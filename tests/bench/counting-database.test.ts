/**
 * The round-trip counter behind `npm run bench` and tests/bench/round-trips.test.ts charges a request the statements
 * it sent itself. The server's timers (the outbox's polls, the signing keys re-read every KEY_REFRESH_SECONDS) send
 * theirs whenever they fire, in the middle of any request; the counter must not charge those to it.
 */
import { describe, expect, it } from 'vitest';
import { countingBackend } from '../../bench/support/counting-database.ts';
import { testBackends } from '../server/support/databases.ts';

const backends = testBackends().filter((backend) => backend.name !== 'pglite-disk');

describe.each(backends)('the round-trip counter, on $name', (base) => {
  it("charges a request its own statements and transactions, none of a timer's sent meanwhile, and none of the outbox worker's", async () => {
    const { backend, counter } = countingBackend(base);
    const db = await backend.open();
    let timerStatements = 0;
    // Started outside any request, as the server starts its timers.
    const timer = setInterval(() => {
      timerStatements += 1;
      void db.query('select 2');
    }, 1);
    try {
      const { trips } = await counter.within(async () => {
        for (let statement = 0; statement < 3; statement += 1) {
          const fired = timerStatements;
          await db.query('select 1');
          // The timer sends a statement between two of the request's.
          await expect.poll(() => timerStatements).toBeGreaterThan(fired);
        }
        await db.transaction(async (tx) => {
          await tx.query('select 1');
        });
        await db.query('update outbox set attempts = attempts where false');
      });
      expect(timerStatements).toBeGreaterThanOrEqual(3);
      // Three statements, then a transaction's begin, statement and commit; the outbox worker's update is not the request's.
      expect(trips).toBe(6);
      expect(counter.count).toBeGreaterThanOrEqual(7 + timerStatements - 1);
    } finally {
      clearInterval(timer);
      await db.close();
    }
  });

  it('charges a request made as a thenable that starts only when awaited, as Fastify’s inject is', async () => {
    const { backend, counter } = countingBackend(base);
    const db = await backend.open();
    try {
      const lazyRequest: PromiseLike<number> = {
        then: (onFulfilled, onRejected) => db.query('select 1').then(() => db.query('select 2')).then(() => 2).then(onFulfilled, onRejected),
      };
      const { result, trips } = await counter.within(() => lazyRequest);
      expect(result).toBe(2);
      expect(trips).toBe(2);
    } finally {
      await db.close();
    }
  });
});
