/**
 * A step added as data only: the cost-centre fixture (tests/server/support/cost-centre-fixture.ts) passes flows:check, the
 * server serves and enforces it with no code change, and a sign-up walks it from the flows' own example values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stepApiRoutes } from '../../server/api/step-api.ts';
import { loadProject } from '../../scripts/flows-check/load-project.ts';
import { checkReport } from '../../scripts/flows-check/run-checks.ts';
import { costCentreFlows } from './support/cost-centre-fixture.ts';
import { capturingMailer } from './support/fakes.ts';
import { flowGraphOf, submitCall, walkOn } from './support/flow-walk.ts';
import { browserAtSignIn, submitRegistrationCode } from './support/registration.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const API = '/api/sso/v3';

describe('a required cost-centre step added as JSON only', () => {
  const fixture = costCentreFlows();
  const graph = flowGraphOf(fixture.root);
  const mail = capturingMailer();
  let server: TestApp;

  beforeAll(async () => {
    server = await startTestApp({ flowsRoot: fixture.root, mailer: mail.mailer, env: { MFA_REQUIRED: 'false' } });
  });
  afterAll(async () => {
    await server.close();
    fixture.remove();
  });

  /** A browser whose register form was accepted, with the answer that leads on. */
  async function registered(email: string) {
    const browser = await browserAtSignIn(server);
    const form = graph.steps.register!.examples!.valid;
    const response = await submitCall(browser, graph.steps.register!.submit!, { ...form, email });
    expect(response.statusCode).toBe(200);
    return { browser, answer: response.json<object>() };
  }

  it('passes flows:check', async () => {
    const loaded = loadProject(fixture.root);
    expect(checkReport({ ...loaded, base: { ...loaded.base, apiRoutes: await stepApiRoutes() } }).problems).toEqual([]);
  });

  it('is walked by a sign-up from the flows, and the account keeps the cost centre', async () => {
    const email = 'cost-centre@example.com';
    const { browser, answer } = await registered(email);
    expect((await walkOn(browser, 'register', answer, graph)).step).toBe('register-verification');
    expect((await submitRegistrationCode(browser, await mail.latestCode(email))).json().challenge).toBe('SUCCESS_REGISTRATION');
    const rows = await server.db.query<{ attributes: Record<string, unknown> }>('select attributes from users where email_normalized = $1', [email]);
    expect(rows.rows[0]?.attributes).toEqual({ ...graph.steps['job-details']!.examples!.valid, ...graph.steps['cost-centre']!.examples!.valid });
  });

  it('refuses its invalid examples with their messages', async () => {
    const { browser } = await registered('cost-centre-invalid@example.com');
    const details = graph.steps['job-details']!;
    expect((await submitCall(browser, details.submit!, details.examples!.valid)).statusCode).toBe(200);
    for (const { values, message } of graph.steps['cost-centre']!.examples!.invalid ?? []) {
      const refused = await browser.request('POST', `${API}/register/attributes/cost-centre`, values);
      expect(refused.json()).toMatchObject({ error_code: 'request.invalid', error_params: { reason: message } });
    }
  });

  it('cannot be skipped: the code right after the job details is refused', async () => {
    const email = 'cost-centre-skipper@example.com';
    const { browser } = await registered(email);
    const details = graph.steps['job-details']!;
    expect((await submitCall(browser, details.submit!, details.examples!.valid)).statusCode).toBe(200);
    const skipped = await submitRegistrationCode(browser, await mail.latestCode(email));
    expect(skipped.statusCode).toBe(409);
    expect(skipped.json().error_code).toBe('step.out_of_order');
  });
});
