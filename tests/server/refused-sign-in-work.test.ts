import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { testBackends } from './support/databases.ts';
import { holdingStatements } from './support/held-statements.ts';
import { openLoginScreen, submitLogin, TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

/** Settles with the answer, or with 'no answer' when none came while the held statement waited. */
const answerOrSilence = <T>(answer: Promise<T>) =>
  Promise.race([answer, new Promise<'no answer'>((resolve) => setTimeout(() => resolve('no answer'), 5_000))]);

describe('a refused sign-in does the same work before answering, whether or not the address has an account', () => {
  let server: TestApp;
  let hold: ReturnType<typeof holdingStatements>;
  beforeAll(async () => {
    const db = await testBackends()[0]!.open();
    hold = holdingStatements(db, 'insert into security_events');
    server = await startTestApp({ shared: { db: hold.db, masterKey: crypto.randomBytes(32) }, env: { MFA_REQUIRED: 'false' } });
    await addUser({ db }, { email: 'known@example.com', password: 'Known-Passw0rd!' });
  });
  afterAll(async () => {
    await hold.release();
    await server.close();
    await hold.db.close();
  });

  it('answers a wrong password for an existing address before its audit record is written', async () => {
    const browser = new TestBrowser(server.app);
    await openLoginScreen(browser, server.publicClient);
    const unknown = await answerOrSilence(submitLogin(browser, 'nobody@example.com', 'Wrong-Passw0rd!'));
    expect(unknown === 'no answer' ? unknown : unknown.statusCode).toBe(401);
    const known = await answerOrSilence(submitLogin(browser, 'known@example.com', 'Wrong-Passw0rd!'));
    expect(known === 'no answer' ? known : known.statusCode).toBe(401);
    // The record is written all the same, after the answer.
    await expect.poll(() => hold.held()).toBe(1);
    await hold.release();
    await expect
      .poll(async () => (await server.db.query<{ kind: string }>("select kind from security_events where kind = 'sign_in_failed'")).rows.length)
      .toBe(1);
  });
});
