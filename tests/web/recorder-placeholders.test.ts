// @vitest-environment node
/**
 * The recorder's placeholders: typed secrets and addresses get names, credentials the browser
 * encrypted become {{encrypted:<field>}}, and no secret survives anywhere in what is recorded.
 */
import { describe, expect, it } from 'vitest';
import { createScrubber, fieldKind, type FieldFacts } from '../../src/recorder/placeholders.ts';

const ORIGIN = 'http://localhost:43127';
const field = (facts: Partial<FieldFacts>): FieldFacts => ({ name: 'value', type: 'text', autocomplete: '', encrypted: false, ...facts });
const JWE = 'eyJhbGciOiJSU0EtT0FFUC0yNTYiLCJlbmMiOiJBMjU2R0NNIn0.c2Vh.aXY.Y2lwaGVy.dGFn';

describe('fieldKind', () => {
  it.each([
    ['a login password', field({ name: 'password', type: 'password', autocomplete: 'current-password' }), 'password'],
    ['a new password', field({ name: 'password', type: 'password', autocomplete: 'new-password' }), 'newPassword'],
    ['a one-time code', field({ name: 'code', autocomplete: 'one-time-code' }), 'code'],
    ['a field named like a code', field({ name: 'otp' }), 'code'],
    ['a field the step encrypts', field({ name: 'pass', encrypted: true }), 'password'],
    ['a shown password (type text)', field({ name: 'password' }), 'password'],
    ['an email field', field({ name: 'email', type: 'email', autocomplete: 'username' }), 'email'],
    ['a plain text field', field({ name: 'firstName' }), undefined],
  ])('names %s %s', (_label, facts, kind) => {
    expect(fieldKind(facts)).toBe(kind);
  });
});

describe('createScrubber', () => {
  it('names each distinct secret of a kind once, numbering later ones', () => {
    const scrubber = createScrubber({ origin: ORIGIN });
    const password = field({ name: 'password', type: 'password' });
    expect(scrubber.field(password, 'first-Secret1')).toBe('{{password}}');
    expect(scrubber.field(password, 'second-Secret2')).toBe('{{password2}}');
    expect(scrubber.field(password, 'first-Secret1')).toBe('{{password}}');
  });

  it('prefers the names the record CLI hints, for fields of any kind', () => {
    const scrubber = createScrubber({ origin: ORIGIN, hints: () => ({ wrongPassword: 'Nope-Passw0rd!', password: 'Right-Passw0rd!' }) });
    const password = field({ name: 'password', type: 'password' });
    expect(scrubber.field(password, 'Nope-Passw0rd!')).toBe('{{wrongPassword}}');
    expect(scrubber.field(password, 'Right-Passw0rd!')).toBe('{{password}}');
    expect(scrubber.field(password, 'Third-Passw0rd!')).toBe('{{password2}}');
  });

  it('keeps values of ordinary fields, and empty ones', () => {
    const scrubber = createScrubber({ origin: ORIGIN });
    expect(scrubber.field(field({ name: 'firstName' }), 'Ada')).toBe('Ada');
    expect(scrubber.field(field({ name: 'password', type: 'password' }), '')).toBe('');
  });

  it.each([
    ['a ciphertext under its field name', { password: JWE }, { password: '{{encrypted:password}}' }],
    ['the origin, plain and URL-encoded', { to: `${ORIGIN}/oidc/auth?redirect_uri=${encodeURIComponent(`${ORIGIN}/cb`)}` }, { to: '{{origin}}/oidc/auth?redirect_uri={{url:origin}}%2Fcb' }],
    ['numbers and nulls as they are', { expires_in: 600, client_name: null }, { expires_in: 600, client_name: null }],
  ])('replaces %s', (_label, value, expected) => {
    expect(createScrubber({ origin: ORIGIN }).scrub(value)).toEqual(expected);
  });

  it('leaves no typed secret anywhere in a recorded walk: bodies, answers, addresses in URLs', () => {
    const scrubber = createScrubber({ origin: ORIGIN });
    const typed = {
      email: scrubber.field(field({ name: 'email', type: 'email' }), 'ada.lovelace@example.com'),
      password: scrubber.field(field({ name: 'password', type: 'password' }), 'Hunter-2-Hunter!'),
      code: scrubber.field(field({ name: 'code', autocomplete: 'one-time-code' }), '482913'),
      newPassword: scrubber.field(field({ name: 'password', autocomplete: 'new-password' }), 'Fresh-Passw0rd#2'),
    };
    const walk = scrubber.scrub({
      typed,
      requests: [
        { body: { email: 'ada.lovelace@example.com', code: '482913', password: JWE } },
        { query: { username: 'ada.lovelace@example.com' }, response: { body: { note: 'code 482913 for Hunter-2-Hunter! and Fresh-Passw0rd#2' } } },
        { response: { body: { redirect_to: `${ORIGIN}/login?username=${encodeURIComponent('ada.lovelace@example.com')}` } } },
      ],
    });
    const text = JSON.stringify(walk);
    for (const secret of ['ada.lovelace', '482913', 'Hunter-2-Hunter!', 'Fresh-Passw0rd#2', encodeURIComponent('ada.lovelace@example.com'), JWE]) {
      expect(text).not.toContain(secret);
    }
    expect(typed).toEqual({ email: '{{email}}', password: '{{password}}', code: '{{code}}', newPassword: '{{newPassword}}' });
    expect(text).toContain('{{url:email}}');
  });

  it('remembers addresses (never secrets) for the next page of the recording', () => {
    const first = createScrubber({ origin: ORIGIN });
    first.field(field({ name: 'email', type: 'email' }), 'ada@example.com');
    first.field(field({ name: 'password', type: 'password' }), 'Hunter-2-Hunter!');
    expect(first.addresses()).toEqual([['email', 'ada@example.com']]);
    const next = createScrubber({ origin: ORIGIN, addresses: first.addresses() });
    expect(next.scrub({ parameters: { email: 'ada@example.com' } })).toEqual({ parameters: { email: '{{email}}' } });
  });

  it('names the ids, keys and times of the run wherever they show, so a fixture replays on a fresh server', () => {
    const scrubber = createScrubber({ origin: ORIGIN });
    const page = scrubber.scrub({ path: '/auth/login', query: { interaction: 'W6-TvOVZ2VFcsusGJVRB' } });
    const key = scrubber.scrub({ kid: '65c5c9dd-12b5', jwk: { kty: 'RSA', e: 'AQAB', n: 'sGq3jFEHHbSPIiBFX' }, nonce: '2TT8ZMWEZ9qw', expires_at: '2026-11-22T12:04:20.793Z' });
    const answer = scrubber.scrub({ challenge: 'LOGIN_REQUIRED', redirect_to: `${ORIGIN}/oidc/auth/W6-TvOVZ2VFcsusGJVRB` });
    expect({ page, key, answer }).toEqual({
      page: { path: '/auth/login', query: { interaction: '{{interaction}}' } },
      key: { kid: '{{keyId}}', jwk: { kty: 'RSA', e: 'AQAB', n: '{{publicKey}}' }, nonce: '{{nonce}}', expires_at: '{{expiresAt}}' },
      answer: { challenge: 'LOGIN_REQUIRED', redirect_to: '{{origin}}/oidc/auth/{{interaction}}' },
    });
  });

  it("names a client app's loopback origin, state and PKCE challenge, plain or URL-encoded", () => {
    const scrubber = createScrubber({ origin: ORIGIN });
    const demo = 'http://127.0.0.1:45870';
    const callback = `${demo}/demo/user-management/auth/callback`;
    const state = 'MpWIjp1BuAVeqxK6VAnvFCVkiQ4oE6jI3LWZnT1-qno';
    const challenge = 'U8u7Gpwq2E_Mzn1oiTtwAOO0ZiKXkr1EzeIt0K1M2wU';
    const arrived = scrubber.scrub({ query: { redirect_uri: callback, state, code_challenge: challenge } });
    const answer = scrubber.scrub({ redirect_to: `${ORIGIN}/oidc/auth?redirect_uri=${encodeURIComponent(callback)}&state=${state}&code_challenge=${challenge}` });
    expect({ arrived, answer }).toEqual({
      arrived: { query: { redirect_uri: '{{demo}}/demo/user-management/auth/callback', state: '{{state}}', code_challenge: '{{codeChallenge}}' } },
      answer: { redirect_to: '{{origin}}/oidc/auth?redirect_uri={{url:demo}}%2Fdemo%2Fuser-management%2Fauth%2Fcallback&state={{state}}&code_challenge={{codeChallenge}}' },
    });
  });

  it("names an MFA setup's code and a passkey's offered user handle, never another object's id", () => {
    const scrubber = createScrubber({ origin: ORIGIN });
    const setup = scrubber.scrub({ parameters: { mfa_code: '70a3c8aa-0158-4aaa-9773-e7ab6de8ae42' } });
    const options = scrubber.scrub({ rp: { id: 'localhost-relying-party' }, user: { id: 'NGRhNjI2NjgtNmUxOS00OTcx', name: 'x' } });
    expect({ setup, options }).toEqual({
      setup: { parameters: { mfa_code: '{{mfaCode}}' } },
      options: { rp: { id: 'localhost-relying-party' }, user: { id: '{{passkeyUserId}}', name: 'x' } },
    });
  });

  it('names a loopback origin seen only URL-encoded', () => {
    const scrubber = createScrubber({ origin: ORIGIN });
    expect(scrubber.scrub({ app_url: `${ORIGIN}/go?to=${encodeURIComponent('http://127.0.0.1:45870/demo/login')}` })).toEqual({ app_url: '{{origin}}/go?to={{url:demo}}%2Fdemo%2Flogin' });
  });

  it('keeps ids (never an authenticator key) for the next page of the recording', () => {
    const first = createScrubber({ origin: ORIGIN });
    first.scrub({ interaction: 'W6-TvOVZ2VFcsusGJVRB', parameters: { secret: 'JBSWY3DPEHPK3PXP' } });
    expect(first.addresses()).toEqual([['interaction', 'W6-TvOVZ2VFcsusGJVRB']]);
  });

  it('keeps a value the walk wrote itself (a made-up invitation token) as written', () => {
    const scrubber = createScrubber({ origin: ORIGIN, literals: () => ['no-such-invitation-token'] });
    expect(scrubber.scrub({ invitation: 'no-such-invitation-token' })).toEqual({ invitation: 'no-such-invitation-token' });
    expect(scrubber.scrub({ invitation: 'k3Jd9-real-token-from-a-mail' })).toEqual({ invitation: '{{invitation}}' });
  });
});
