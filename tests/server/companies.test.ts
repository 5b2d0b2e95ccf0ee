import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { addCompany, addUserToCompany } from '../../server/admin/company-operations.ts';
import { advanceTransaction } from '../../server/store/transactions.ts';
import { followToClient, whatTheAppSees } from './support/client-return.ts';
import { openLoginScreen, submitLogin, TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const API = '/api/sso/v3';
const PASSWORD = 'Company-Passw0rd!';

/** A user in the given companies (added in that order). */
async function memberOf(server: TestApp, email: string, companies: string[]): Promise<void> {
  await addUser({ db: server.db }, { email, password: PASSWORD });
  for (const name of companies) {
    if (!(await server.db.query('select 1 from companies where name = $1', [name])).rows.length) await addCompany({ db: server.db }, name);
    await addUserToCompany({ db: server.db }, name, email);
  }
}

/** Signs in with the company scope up to the login's answer. */
async function logIn(server: TestApp, browser: TestBrowser, email: string, password = PASSWORD) {
  const client = server.publicClient;
  const { codeVerifier } = await openLoginScreen(browser, { ...client, scope: 'openid email company' });
  const answer = await submitLogin(browser, email, password);
  return { codeVerifier, answer };
}

async function toTheApp(server: TestApp, browser: TestBrowser, redirectTo: string, codeVerifier: string) {
  const callback = await followToClient(browser, redirectTo, server.publicClient.redirectUri);
  return whatTheAppSees(server.app, server.publicClient, callback, codeVerifier);
}

describe('company choice with the picker on (company-selection-removal off)', () => {
  let server: TestApp;
  beforeAll(async () => {
    // Not about the second factor: these users sign in on their password alone (MFA is tested in tests/server/mfa-*.test.ts).
    server = await startTestApp({ env: { MFA_REQUIRED: 'false' }, flags: { 'company-selection-removal': false } });
    await memberOf(server, 'three@example.com', ['Cyberdyne', 'Acme', 'Blue Sun']);
    await memberOf(server, 'one@example.com', ['Acme']);
  });
  afterAll(async () => {
    await server.close();
  });

  it('asks a user of three companies to pick one, and puts the pick in the ID token and userinfo', async () => {
    const browser = new TestBrowser(server.app);
    const { codeVerifier, answer } = await logIn(server, browser, 'three@example.com');
    const picker = answer.json<{ challenge: string; parameters: { companies: Array<{ id: string; name: string }>; selected: string } }>();
    expect(picker.challenge).toBe('MULTIPLE_COMPANIES_REGISTRATION');
    expect(picker.parameters.companies.map((company) => company.name)).toEqual(['Acme', 'Blue Sun', 'Cyberdyne']);
    expect(picker.parameters.selected).toBe(picker.parameters.companies[0]?.id);
    const listed = await browser.request('GET', `${API}/company-management/companies`);
    expect(listed.json()).toEqual(picker);

    const blueSun = picker.parameters.companies[1]!;
    const chosen = await browser.request('POST', `${API}/company-management/companies`, { company: blueSun.id });
    expect(chosen.statusCode).toBe(200);
    const seen = await toTheApp(server, browser, chosen.json<{ redirect_to: string }>().redirect_to, codeVerifier);
    expect(seen.idToken.company).toEqual({ id: blueSun.id, name: 'Blue Sun' });
    expect(seen.userinfo.company).toEqual({ id: blueSun.id, name: 'Blue Sun' });
  });

  it('offers the last-used company first next time', async () => {
    const browser = new TestBrowser(server.app);
    const { answer } = await logIn(server, browser, 'three@example.com');
    const names = answer.json<{ parameters: { companies: Array<{ name: string }> } }>().parameters.companies.map((company) => company.name);
    expect(names).toEqual(['Blue Sun', 'Acme', 'Cyberdyne']);
  });

  it('keeps each browser session on the company it picked', async () => {
    const picks: Record<string, string> = {};
    const sessions = await Promise.all(
      ['Acme', 'Cyberdyne'].map(async (name) => {
        const browser = new TestBrowser(server.app);
        const { codeVerifier, answer } = await logIn(server, browser, 'three@example.com');
        const company = answer.json<{ parameters: { companies: Array<{ id: string; name: string }> } }>().parameters.companies.find((c) => c.name === name)!;
        picks[name] = company.id;
        const chosen = await browser.request('POST', `${API}/company-management/companies`, { company: company.id });
        return { name, seen: await toTheApp(server, browser, chosen.json<{ redirect_to: string }>().redirect_to, codeVerifier) };
      }),
    );
    for (const { name, seen } of sessions) expect(seen.idToken.company).toEqual({ id: picks[name], name });
  });

  it('takes the only company of a one-company user without a step', async () => {
    const browser = new TestBrowser(server.app);
    const { codeVerifier, answer } = await logIn(server, browser, 'one@example.com');
    const seen = await toTheApp(server, browser, answer.json<{ redirect_to: string }>().redirect_to, codeVerifier);
    expect(seen.idToken.company).toMatchObject({ name: 'Acme' });
    expect(seen.userinfo.company).toMatchObject({ name: 'Acme' });
  });

  it('refuses a company the user does not belong to, a sign-up query on a sign-in, and a pick out of turn', async () => {
    const browser = new TestBrowser(server.app);
    await logIn(server, browser, 'three@example.com');
    const foreign = await browser.request('POST', `${API}/company-management/companies`, { company: '00000000-0000-4000-8000-000000000000' });
    expect(foreign.json()).toEqual({ error_code: 'company.unknown', error_message: 'Choose one of the companies in the list.' });
    expect((await browser.request('GET', `${API}/company-management/companies?registration=true`)).json().error_code).toBe('step.out_of_order');
    expect((await browser.request('POST', `${API}/company-management/companies`, {})).json().error_code).toBe('request.invalid');

    const early = new TestBrowser(server.app);
    await openLoginScreen(early, server.publicClient);
    expect((await early.request('POST', `${API}/company-management/companies`, { company: 'x' })).json().error_code).toBe('step.out_of_order');
    expect((await new TestBrowser(server.app).request('GET', `${API}/company-management/companies`)).json().error_code).toBe('transaction.missing');
  });

  it('leaves a user without companies without a company claim', async () => {
    const browser = new TestBrowser(server.app);
    const { codeVerifier, answer } = await logIn(server, browser, server.user.email, server.user.password);
    const seen = await toTheApp(server, browser, answer.json<{ redirect_to: string }>().redirect_to, codeVerifier);
    expect(seen.idToken).not.toHaveProperty('company');
  });
});

describe('company choice with the default flags (company-selection-removal on)', () => {
  let server: TestApp;
  beforeAll(async () => {
    // Not about the second factor: these users sign in on their password alone (MFA is tested in tests/server/mfa-*.test.ts).
    server = await startTestApp({ env: { MFA_REQUIRED: 'false' } });
    await memberOf(server, 'three@example.com', ['Cyberdyne', 'Acme', 'Blue Sun']);
  });
  afterAll(async () => {
    await server.close();
  });

  it('shows no picker and takes the first company, then the last used one', async () => {
    const browser = new TestBrowser(server.app);
    const { codeVerifier, answer } = await logIn(server, browser, 'three@example.com');
    expect(answer.json()).toHaveProperty('redirect_to');
    const seen = await toTheApp(server, browser, answer.json<{ redirect_to: string }>().redirect_to, codeVerifier);
    expect(seen.idToken.company).toMatchObject({ name: 'Acme' });

    const cyberdyne = await server.db.query<{ id: string }>("select id from companies where name = 'Cyberdyne'");
    await server.db.query("update company_memberships set last_used_at = now() + interval '1 hour' where company_id = $1", [cyberdyne.rows[0]!.id]);
    const next = new TestBrowser(server.app);
    const second = await logIn(server, next, 'three@example.com');
    const again = await toTheApp(server, next, second.answer.json<{ redirect_to: string }>().redirect_to, second.codeVerifier);
    expect(again.idToken.company).toMatchObject({ name: 'Cyberdyne' });
  });

  it('refuses a pick from a picker shown before the flag was turned on: the server enforces the flag', async () => {
    const browser = new TestBrowser(server.app);
    await openLoginScreen(browser, server.publicClient);
    // A sign-in left at the picker (as one started while the flag was off would be).
    const token = /(?:^|; )sso_tx=([^;]+)/.exec(browser.jar.header('/api/sso/v3/'))?.[1] ?? '';
    const user = await server.db.query<{ id: string }>("select id from users where email = 'three@example.com'");
    expect(await advanceTransaction(server.db, token, 'LOGIN_REQUIRED', { challenge: 'MULTIPLE_COMPANIES_REGISTRATION', userId: user.rows[0]!.id })).toBe(true);
    const acme = await server.db.query<{ id: string }>("select id from companies where name = 'Acme'");
    const pick = await browser.request('POST', `${API}/company-management/companies`, { company: acme.rows[0]!.id });
    expect(pick.json().error_code).toBe('step.out_of_order');
  });
});
