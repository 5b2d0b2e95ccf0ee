import { describe, expect, it } from 'vitest';
import { authenticatorName, passkeyAmr, relyingParty } from '../../server/mfa/passkeys.ts';

describe('what a passkey says about itself', () => {
  it.each([
    ['fbfc3007-154e-4ecc-8c0b-6e020557d7bd', 'iCloud Keychain'],
    ['ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4', 'Google Password Manager'],
    ['00000000-0000-0000-0000-000000000000', null],
    ['__proto__', null],
  ])('names the authenticator of AAGUID %s where it is a well-known one', (aaguid, name) => {
    expect(authenticatorName(aaguid)).toBe(name);
  });

  it('earns hwk for a device-bound key, swk for a synced one, and user when the person was verified', () => {
    expect(passkeyAmr({ deviceType: 'singleDevice' }, true)).toEqual(['hwk', 'user']);
    expect(passkeyAmr({ deviceType: 'multiDevice' }, true)).toEqual(['swk', 'user']);
    expect(passkeyAmr({ deviceType: 'singleDevice' }, false)).toEqual(['hwk']);
  });

  it('binds passkeys to the host of PUBLIC_URL and checks its origin', () => {
    expect(relyingParty({ publicUrl: 'https://sso.example.com:8443' })).toEqual({ rpID: 'sso.example.com', origin: 'https://sso.example.com:8443' });
  });
});
