/**
 * Passkeys on the account page, against the real server with a software authenticator: added after a step-up (and
 * only once the browser's answer verifies), listed with their name, use times and authenticator, excluded from being
 * added twice, used for a step-up, and removed under the same step-up and last-factor rules as every other factor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { totpCodeAt } from '../../server/mfa/totp.ts';
import { signInToAccountPage, type AccountPage } from './support/account.ts';
import { capturingMailer, fakeClock } from './support/fakes.ts';
import { answer } from './support/mfa.ts';
import { SoftwareAuthenticator } from './support/software-authenticator.ts';
import { startTestApp, TEST_PUBLIC_URL, type TestApp } from './support/test-app.ts';

const PAGE = { origin: new URL(TEST_PUBLIC_URL).origin };

interface Factors {
  factors: Array<{ id: string; kind: string; label: string | null; authenticator: string | null; lastUsedAt: string | null }>;
  addable: string[];
}
interface PasskeyAnswer {
  passkey: { ceremony: string; options: { challenge: string; rp: { id?: string }; user: { id: string }; excludeCredentials?: { id: string }[]; allowCredentials?: { id: string }[] } };
}

describe('passkeys on the account page', () => {
  const clock = fakeClock(Date.now());
  const mail = capturingMailer();
  let server: TestApp;
  let counter = 0;
  const tick = () => {
    clock.advance(60);
    return clock.now();
  };

  beforeAll(async () => {
    server = await startTestApp({ clock: clock.now, mailer: mail.mailer });
  });
  afterAll(async () => {
    await server.close();
  });

  async function freshPerson() {
    counter += 1;
    const person = { email: `account-passkey${counter}@example.com`, password: 'Account-Passw0rd!' };
    await addUser({ db: server.db }, person);
    return person;
  }

  async function stepUpWithApp(page: AccountPage): Promise<void> {
    const factors = answer<Factors>(await page.call('GET', '/account/factors'));
    const app = factors.factors.find((factor) => factor.kind === 'totp')!;
    answer(await page.call('POST', '/account/step-up', { factorId: app.id, code: totpCodeAt(page.secret, tick()) }));
  }

  async function addPasskey(page: AccountPage, authenticator: SoftwareAuthenticator, name: string): Promise<Factors> {
    const started = answer<PasskeyAnswer>(await page.call('POST', '/account/factors', { kind: 'passkey' }));
    return answer<Factors>(await page.call('POST', '/account/passkeys', { credential: authenticator.create(started.passkey.options, PAGE), name }));
  }

  it('adds a passkey after a step-up, keeps nothing until the browser answers, lists it by name with its use times, and mails a notice', async () => {
    const person = await freshPerson();
    const page = await signInToAccountPage(server, person, tick);
    const before = answer<Factors>(await page.call('GET', '/account/factors'));
    expect(before.addable).toContain('passkey');
    const refused = await page.call('POST', '/account/factors', { kind: 'passkey' });
    expect(refused.json()).toMatchObject({ error_code: 'account.step_up_required' });
    await stepUpWithApp(page);
    const started = answer<PasskeyAnswer>(await page.call('POST', '/account/factors', { kind: 'passkey' }));
    expect(started.passkey).toMatchObject({ ceremony: 'create', options: { rp: { id: 'localhost' }, authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' } } });
    // The browser has not answered (a closed prompt): nothing is half-registered.
    expect(answer<Factors>(await page.call('GET', '/account/factors')).factors).toHaveLength(1);
    const added = answer<Factors>(await page.call('POST', '/account/passkeys', { credential: new SoftwareAuthenticator().create(started.passkey.options, PAGE), name: 'Work laptop' }));
    const passkey = added.factors.find((factor) => factor.kind === 'passkey');
    expect(passkey).toMatchObject({ label: 'Work laptop', authenticator: null });
    expect(passkey?.lastUsedAt).not.toBeNull();
    expect(added.addable).toContain('passkey');
    expect(mail.sent.some((message) => message.to === person.email && message.subject === 'A sign-in method was added to your account')).toBe(true);
  });

  it('excludes the passkeys a person has from the next one, so one authenticator is not added twice', async () => {
    const page = await signInToAccountPage(server, await freshPerson(), tick);
    await stepUpWithApp(page);
    const authenticator = new SoftwareAuthenticator();
    await addPasskey(page, authenticator, 'First');
    const next = answer<PasskeyAnswer>(await page.call('POST', '/account/factors', { kind: 'passkey' }));
    expect(next.passkey.options.excludeCredentials?.map((entry) => entry.id)).toEqual(authenticator.credentials.map((credential) => credential.id.toString('base64url')));
  });

  it('proves a step-up with a passkey, then removes it; the last factor stays', async () => {
    const person = await freshPerson();
    const session = await signInToAccountPage(server, person, tick);
    await stepUpWithApp(session);
    const authenticator = new SoftwareAuthenticator();
    const withPasskey = await addPasskey(session, authenticator, 'Phone');
    const passkeyId = withPasskey.factors.find((factor) => factor.kind === 'passkey')!.id;
    const appId = withPasskey.factors.find((factor) => factor.kind === 'totp')!.id;
    // The step-up has run out: removing needs a fresh one, this time with the passkey.
    clock.advance(10 * 60);
    expect((await session.call('POST', `/account/factors/${passkeyId}/removal`)).json()).toMatchObject({ error_code: 'account.step_up_required' });
    const asked = answer<PasskeyAnswer & { channel: string }>(await session.call('POST', '/account/step-up', { factorId: passkeyId }));
    expect(asked.channel).toBe('passkey');
    expect(asked.passkey.options.allowCredentials).toHaveLength(1);
    answer(await session.call('POST', '/account/step-up', { factorId: passkeyId, credential: authenticator.get(asked.passkey.options, PAGE) }));
    const removed = answer<Factors>(await session.call('POST', `/account/factors/${passkeyId}/removal`));
    expect(removed.factors.map((factor) => factor.kind)).toEqual(['totp']);
    const last = await session.call('POST', `/account/factors/${appId}/removal`);
    expect(last.json()).toMatchObject({ error_code: 'account.last_factor' });
  });

  it('refuses a passkey answer to another session\'s challenge, and a garbled one, with a clear error', async () => {
    const page = await signInToAccountPage(server, await freshPerson(), tick);
    await stepUpWithApp(page);
    const other = await signInToAccountPage(server, await freshPerson(), tick);
    await stepUpWithApp(other);
    const started = answer<PasskeyAnswer>(await page.call('POST', '/account/factors', { kind: 'passkey' }));
    const stolen = await other.call('POST', '/account/passkeys', { credential: new SoftwareAuthenticator().create(started.passkey.options, PAGE) });
    expect(stolen.statusCode).toBe(400);
    const garbled = await page.call('POST', '/account/passkeys', { credential: { id: 'nope' } });
    expect(garbled.json()).toMatchObject({ error_code: 'passkey.invalid' });
  });
});
