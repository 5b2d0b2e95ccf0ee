import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturingMailer } from './support/fakes.ts';
import { browserAtSignIn, submitRegistration, submitRegistrationCode } from './support/registration.ts';
import type { TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const API = '/api/sso/v3';

describe('job details, a profile step added as data', () => {
  let server: TestApp;
  const mail = capturingMailer();
  let counter = 0;
  const freshEmail = () => `worker${(counter += 1)}@example.com`;
  const sendJobDetails = (browser: TestBrowser, body: Record<string, unknown>) => browser.request('POST', `${API}/register/attributes/job-details`, body);

  beforeAll(async () => {
    // Not about the second factor: these users sign in on their password alone (MFA is tested in tests/server/mfa-*.test.ts).
    server = await startTestApp({ env: { MFA_REQUIRED: 'false' }, mailer: mail.mailer });
  });
  afterAll(async () => {
    await server.close();
  });

  it('keeps the job details as profile attributes of the account the code then makes', async () => {
    const browser = await browserAtSignIn(server);
    const email = freshEmail();
    await submitRegistration(browser, { email });
    const saved = await sendJobDetails(browser, { jobTitle: 'Treasury analyst', department: 'Finance' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().parameters.delivery_destination).toBe('w•••@example.com');
    await submitRegistrationCode(browser, await mail.latestCode(email));
    const rows = await server.db.query<{ attributes: Record<string, unknown> }>('select attributes from users where email_normalized = $1', [email]);
    expect(rows.rows[0]?.attributes).toEqual({ jobTitle: 'Treasury analyst', department: 'Finance' });
  });

  it("checks the fields against the step's own schema, in the step's words", async () => {
    const browser = await browserAtSignIn(server);
    await submitRegistration(browser, { email: freshEmail() });
    const missing = await sendJobDetails(browser, { jobTitle: 'Analyst' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ error_code: 'request.invalid', error_message: 'Please enter your department', error_params: { reason: 'validation.department.required', field: 'department' } });
    const extra = await sendJobDetails(browser, { jobTitle: 'Analyst', department: 'Risk', isAdmin: true });
    expect(extra.statusCode).toBe(400);
    const tooLong = await sendJobDetails(browser, { jobTitle: 'x'.repeat(101), department: 'Risk' });
    expect(tooLong.statusCode).toBe(400);
  });

  it('refuses job details before a sign-up started, out of order', async () => {
    const browser = await browserAtSignIn(server);
    const response = await sendJobDetails(browser, { jobTitle: 'Analyst', department: 'Risk' });
    expect(response.statusCode).toBe(409);
    expect(response.json().error_code).toBe('step.out_of_order');
  });

  it('refuses job details after the sign-up is complete', async () => {
    const browser = await browserAtSignIn(server);
    const email = freshEmail();
    await submitRegistration(browser, { email });
    await submitRegistrationCode(browser, await mail.latestCode(email));
    const response = await sendJobDetails(browser, { jobTitle: 'Analyst', department: 'Risk' });
    expect(response.statusCode).toBe(401);
  });

  it('treats a step that is not a profile step as unknown', async () => {
    const browser = await browserAtSignIn(server);
    await submitRegistration(browser, { email: freshEmail() });
    const response = await browser.request('POST', `${API}/register/attributes/login`, { email: 'x@example.com', password: 'x' });
    expect(response.statusCode).toBe(409);
  });
});
