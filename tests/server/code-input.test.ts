import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { LIMITS } from '../../server/limits.ts';
import { signInToAccountPage, type AccountPage } from './support/account.ts';
import { capturingMailer, fakeClock } from './support/fakes.ts';
import { API, logIn } from './support/mfa.ts';
import { NOT_ASCII_CODES } from './support/not-ascii-codes.ts';
import { TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';


describe('every endpoint that takes a code refuses one that is not six ASCII digits with a clear 400', () => {
  const clock = fakeClock(Date.now());
  const mail = capturingMailer();
  let server: TestApp;
  let page: AccountPage;
  let factorId: string;
  beforeAll(async () => {
    server = await startTestApp({ clock: clock.now, mailer: mail.mailer });
    const user = { email: 'codes@example.com', password: 'Codes-Passw0rd!' };
    await addUser({ db: server.db }, user);
    page = await signInToAccountPage(server, user, () => {
      clock.advance(LIMITS.TOTP_PERIOD + 1);
      return clock.now();
    });
    factorId = (await page.call('GET', '/account/factors')).json<{ factors: Array<{ id: string }> }>().factors[0]!.id;
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(NOT_ASCII_CODES)('the account page step-up and email confirmation refuse %j', async (code) => {
    for (const [path, body] of [
      ['/account/step-up', { factorId, code }],
      ['/account/email/confirmation', { code }],
    ] as const) {
      const answer = await page.call('POST', path, body);
      expect(answer.statusCode, `${path}: ${answer.body}`).toBe(400);
      expect(answer.json().error_code).toBe('request.invalid');
    }
  });

  it.each(NOT_ASCII_CODES)('the sign-in code steps refuse %j', async (code) => {
    const browser = new TestBrowser(server.app);
    await logIn(browser, { ...server.publicClient, email: 'codes@example.com', password: 'Codes-Passw0rd!' });
    const verification = await browser.request('POST', `${API}/auth/mfa/verification`, { code });
    expect(verification.statusCode).toBe(400);
    expect(verification.json().error_code).toBe('request.invalid');
    const reset = await browser.request('POST', `${API}/password/reset/confirmation`, { email: 'codes@example.com', code, password: await browser.encrypt('Another-Passw0rd!1') });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().error_code).toBe('request.invalid');
  });
});

describe('the one code schema', () => {
  it('is the pattern of every form field that takes a six-digit code', async () => {
    const { ONE_TIME_CODE_PATTERN } = await import('../../contract/one-time-code.ts');
    const fs = await import('node:fs');
    const forms = fs.readdirSync('schemas/forms').filter((file) => file.endsWith('.schema.json') && file !== 'recovery-code.schema.json');
    const codeFields = forms.flatMap((file) => {
      const schema = JSON.parse(fs.readFileSync(`schemas/forms/${file}`, 'utf8')) as { properties?: Record<string, { pattern?: string }> };
      const code = schema.properties?.code;
      return code ? [[file, code.pattern] as const] : [];
    });
    expect(codeFields.length).toBeGreaterThan(0);
    for (const [file, pattern] of codeFields) expect(pattern, file).toBe(ONE_TIME_CODE_PATTERN);
  });
});
