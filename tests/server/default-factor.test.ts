/**
 * What the account page's "Make default" and "Rename" change at sign-in: the default factor is asked for at once
 * (the method choice stays one "Use another method" away), and the choice names each factor as the person named it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser } from '../../server/admin/operations.ts';
import { confirmFactor, createPendingFactor } from '../../server/store/mfa-factors.ts';
import { renameFactor, setDefaultFactor } from '../../server/store/factor-details.ts';
import { API, answer, logIn, type StepAnswer } from './support/mfa.ts';
import { TestBrowser } from './support/sign-in.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

describe('the default and the names of second factors at sign-in', () => {
  let server: TestApp;
  let counter = 0;
  beforeAll(async () => {
    server = await startTestApp();
  });
  afterAll(async () => {
    await server.close();
  });

  /** A user with a confirmed email factor and a confirmed text-message factor; answers their ids. */
  async function personWithTwoFactors() {
    counter += 1;
    const person = { email: `two-factors${counter}@example.com`, password: 'Two-Factors-Passw0rd!' };
    const user = await addUser({ db: server.db }, person);
    const now = new Date();
    const email = await createPendingFactor(server.db, { userId: user.id, kind: 'email' });
    const sms = await createPendingFactor(server.db, { userId: user.id, kind: 'sms', phone: '+447700900123' });
    await confirmFactor(server.db, user.id, email, now);
    await confirmFactor(server.db, user.id, sms, now);
    return { ...person, userId: user.id, factors: { email, sms } };
  }

  it('asks for the default factor at once, and still offers the others', async () => {
    const person = await personWithTwoFactors();
    await setDefaultFactor(server.db, person.userId, person.factors.sms);
    const browser = new TestBrowser(server.app);
    const { answer: login } = await logIn(browser, { ...server.publicClient, ...person });
    expect(login.challenge).toBe('SMS_MFA');
    const choice = answer<StepAnswer>(await browser.request('GET', `${API}/auth/mfa/selection`));
    expect(choice.challenge).toBe('SELECT_MFA_TYPE');
    expect((choice.parameters?.availableChoices as { type: string }[]).map((item) => item.type).sort()).toEqual(['email', 'sms']);
  });

  it('names each factor in the choice as the person named it', async () => {
    const person = await personWithTwoFactors();
    await renameFactor(server.db, person.userId, person.factors.sms, 'Work phone');
    const browser = new TestBrowser(server.app);
    const { answer: login } = await logIn(browser, { ...server.publicClient, ...person });
    expect(login.challenge).toBe('SELECT_MFA_TYPE');
    expect(login.parameters?.availableChoices).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'sms', name: 'Work phone' }), expect.not.objectContaining({ name: expect.anything() })]),
    );
  });
});
