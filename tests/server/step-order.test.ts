/**
 * The server enforces the flow graph: a step's call is admitted only where the sign-in's current step leads to it
 * (contract/flow-graph.ts). The cases are generated from the flows, on every database: for every step of every flow,
 * at every challenge the server may ask there, a call of every step it does not lead to is refused, and nothing changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadsTo, type GraphCall } from '../../contract/flow-graph.ts';
import { sha256 } from '../../server/crypto/hash.ts';
import { capturingMailer } from './support/fakes.ts';
import { projectFlowGraph } from './support/flow-walk.ts';
import { browserAtSignIn, submitRegistrationCode } from './support/registration.ts';
import type { TestBrowser } from './support/sign-in.ts';
import { testBackends } from './support/databases.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const API = '/api/sso/v3';
const graph = projectFlowGraph();
const steps = Object.values(graph.steps);
const callKey = (call: GraphCall) => `${call.method} ${call.path}`;

/** A call `from` may not make at `challenge`: no step behind it that answers `challenge` is one `from` leads to. */
function refusedCalls(from: string, challenge: string): { to: string; call: GraphCall }[] {
  const behind = (call: GraphCall) => steps.filter((step) => step.journeyCalls.some((own) => callKey(own) === callKey(call)));
  const admittedHere = (id: string) => leadsTo(graph, from, challenge, id);
  return steps
    .filter((to) => to.id !== from && to.journeyCalls.length > 0 && !admittedHere(to.id))
    .flatMap((to) => to.journeyCalls.map((call) => ({ to: to.id, call })))
    .filter(({ call }) => !behind(call).some((step) => [...step.claims, ...step.admits].includes(challenge) && admittedHere(step.id)));
}

/** Every step a sign-in can stand at (it has calls the server admits), at each challenge the server admits them at. */
const positions = steps
  .filter((step) => step.journeyCalls.length > 0)
  .flatMap((step) => [...new Set([...step.claims, ...step.admits])].map((challenge) => ({ from: step.id, challenge, refused: refusedCalls(step.id, challenge) })))
  .filter(({ refused }) => refused.length > 0);

describe.each(testBackends())('the flow graph, enforced by the server on $name', (backend) => {
  let server: TestApp;
  const mail = capturingMailer();

  beforeAll(async () => {
    server = await startTestApp({ backend, mailer: mail.mailer });
  });
  afterAll(async () => {
    await server.close();
  });

  /** A browser whose sign-in stands at step `from`, the server asking `challenge`; answers the row's token hash. */
  async function standingAt(from: string, challenge: string): Promise<{ browser: TestBrowser; tokenHash: string }> {
    const browser = await browserAtSignIn(server);
    const token = browser.jar.value('sso_tx');
    if (!token) throw new Error('no transaction cookie');
    const tokenHash = sha256(token);
    await server.db.query('update transactions set challenge = $2, steps = $3::text[], user_id = (select id from users limit 1) where token_hash = $1', [tokenHash, challenge, [from]]);
    return { browser, tokenHash };
  }

  const snapshot = async (tokenHash: string) => ({
    transaction: (await server.db.query('select challenge, user_id, data, steps from transactions where token_hash = $1', [tokenHash])).rows,
    counts: (await server.db.query('select (select count(*) from users)::int as users, (select count(*) from pending_registrations)::int as registrations, (select count(*) from mfa_factors)::int as factors')).rows,
  });

  it('has a refused call to try from every step that does not lead everywhere', () => {
    expect(positions.length).toBeGreaterThan(0);
  });

  it.each(positions)('refuses, from $from at $challenge, every call of a step it does not lead to, and changes nothing', async ({ from, challenge, refused }) => {
    const { browser, tokenHash } = await standingAt(from, challenge);
    const before = await snapshot(tokenHash);
    for (const { to, call } of refused) {
      const response = await browser.request(call.method, `${API}/${call.path}`, call.method === 'POST' ? { credential: {} } : undefined);
      expect({ to, call: callKey(call), status: response.statusCode, code: response.json<{ error_code?: string }>().error_code }).toEqual({
        to,
        call: callKey(call),
        status: 409,
        code: 'step.out_of_order',
      });
    }
    expect(await snapshot(tokenHash)).toEqual(before);
  });

  it('refuses the emailed code of a sign-up that skipped its job details, and makes no account', async () => {
    const browser = await browserAtSignIn(server);
    const email = `skipper-${backend.name}@example.com`;
    const register = graph.steps.register?.examples?.valid ?? {};
    const started = await browser.request('POST', `${API}/register`, { ...register, email, password: await browser.encrypt(String(register.password)) });
    expect(started.statusCode).toBe(200);
    const skipped = await submitRegistrationCode(browser, await mail.latestCode(email));
    expect(skipped.statusCode).toBe(409);
    expect(skipped.json()).toMatchObject({ error_code: 'step.out_of_order', error_message: expect.stringContaining('This step is not available at this point of your sign-in') });
    expect((await server.db.query('select 1 from users where email_normalized = $1', [email])).rows).toEqual([]);
  });
});
