/**
 * The provider's cookie signatures: the same as keygrip's (oidc-provider's default), so browsers signed in before
 * keep their sessions, and a signature that is not the key's is refused.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { providerCookies } from '../../server/oidc/provider-cookies.ts';

const key = crypto.randomBytes(32);
const keys = providerCookies({ publicUrl: 'https://sso.example' }, key).keys;
if (keys === undefined || !('sign' in keys)) throw new Error('expected a cookie signer, not a list of keys');
const signer = keys;

describe('the provider cookie signatures', () => {
  it('are the ones keygrip made, so cookies signed before stay valid', () => {
    const data = '__Host-_session=abc123';
    // What keygrip (index.js, sign) made of oidc-provider's `keys: [key]`: HMAC-SHA1 in base64, made URL-safe.
    const legacy = crypto.createHmac('sha1', key).update(data).digest('base64').replace(/\/|\+|=/g, (x) => ({ '/': '_', '+': '-', '=': '' })[x]!);
    expect(signer.sign(data)).toBe(legacy);
    expect(signer.index(data, legacy)).toBe(0);
    expect(signer.verify(data, legacy)).toBe(true);
  });

  it('refuses a signature of other data, a tampered one and a truncated one', () => {
    const signature = signer.sign('_interaction=one');
    expect(signer.index('_interaction=two', signature)).toBe(-1);
    expect(signer.verify('_interaction=one', `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`)).toBe(false);
    expect(signer.verify('_interaction=one', signature.slice(0, -2))).toBe(false);
  });
});
