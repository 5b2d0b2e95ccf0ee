import crypto from 'node:crypto';
import type { Configuration } from 'oidc-provider';
import type { Config } from '../config.ts';
import { secretKey } from '../crypto/secret-key.ts';

type CookieSigner = Exclude<NonNullable<Configuration['cookies']>['keys'], ReadonlyArray<string | Buffer> | undefined>;

/**
 * Signs and checks the provider's cookies exactly as keygrip does by default (HMAC-SHA1, base64url without padding),
 * so cookies signed before stay valid, at a fraction of its CPU: the key is a KeyObject (see secretKey), and a check
 * is one HMAC and a constant-time comparison, where keygrip's compares through two more HMACs under a random key.
 */
function cookieSigner(key: Buffer): CookieSigner {
  const hmacKey = secretKey(key);
  const sign = (data: string) => crypto.createHmac('sha1', hmacKey).update(data).digest('base64url');
  const index = (data: string, digest: string) => {
    const expected = Buffer.from(sign(data));
    const given = Buffer.from(digest);
    return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? 0 : -1;
  };
  return { sign, index, verify: (data: string, digest: string) => index(data, digest) === 0 };
}

/**
 * oidc-provider's cookies. Under https the session and interaction cookies (and their `.sig` signatures) carry the
 * `__Host-` prefix, which a browser accepts only with Secure, Path=/ and no Domain, so no other host or path under the
 * site can set or shadow them; the resume cookie, which oidc-provider scopes to its authorization request's path,
 * carries `__Secure-`. Plain http (development) cannot use either prefix. Every cookie is HttpOnly, SameSite=Lax.
 */
export function providerCookies(config: Pick<Config, 'publicUrl'>, key: Buffer): NonNullable<Configuration['cookies']> {
  const secure = new URL(config.publicUrl).protocol === 'https:';
  // The interaction cookie takes these options after its own path, so Path=/ holds for it too.
  const options = { httpOnly: true, sameSite: 'lax', secure, path: '/' } as const;
  const names = secure
    ? { session: '__Host-_session', interaction: '__Host-_interaction', resume: '__Secure-_interaction_resume' }
    : { session: '_session', interaction: '_interaction', resume: '_interaction_resume' };
  return { names, keys: cookieSigner(key), long: options, short: options };
}
