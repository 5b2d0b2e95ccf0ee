/**
 * Values that differ on every server and every run: the provider's interaction id, the credential key's id, modulus
 * and expiry, nonces, a client app's state and PKCE challenge, when a code was sent, an authenticator app's key, an invitation's token, a passkey ceremony's challenge and the device's answer. A fixture that kept one would only
 * replay on the server it was recorded on, so the recorder names each by the query parameter or JSON key carrying it,
 * wherever else it shows up (a `redirect_to` ends in the interaction id), and a replay fills the name in again.
 */

/**
 * The query parameter the provider adds when it sends the browser back into the app: a page whose address has it was
 * reached through the provider, never by a client's link as such (the server forwards that link into the provider).
 */
export const PROVIDER_RETURN_QUERY = 'interaction';

/** How one kind of volatile value is recorded. */
export interface VolatileValue {
  /** The placeholder it becomes: every value of the kind gets the same one. */
  placeholder: string;
  /** A secret (an authenticator app's key): named for this page only, never kept in session storage. */
  secret?: boolean;
}

/** Query parameter or JSON key (or `parent.key`, where the key alone says too little) -> the volatile value it carries. */
export const VOLATILE_KEYS: Readonly<Record<string, VolatileValue>> = {
  interaction: { placeholder: 'interaction' },
  kid: { placeholder: 'keyId' },
  n: { placeholder: 'publicKey' },
  nonce: { placeholder: 'nonce' },
  // A client app's own sign-in (the demo's, after an invitation link) makes a fresh state and PKCE challenge each time.
  state: { placeholder: 'state' },
  code_challenge: { placeholder: 'codeChallenge' },
  expires_at: { placeholder: 'expiresAt' },
  sent_at: { placeholder: 'sentAt' },
  secret: { placeholder: 'totpSecret', secret: true },
  mfa_code: { placeholder: 'mfaCode' },
  invitation: { placeholder: 'invitation', secret: true },
  // A first factor's recovery codes (SAVE_RECOVERY_CODES): new on every run, and secrets of the account.
  recovery_codes: { placeholder: 'recoveryCode', secret: true },
  challenge: { placeholder: 'passkeyChallenge' },
  rawId: { placeholder: 'passkeyId' },
  attestationObject: { placeholder: 'passkeyAttestation' },
  clientDataJSON: { placeholder: 'passkeyClientData' },
  authenticatorData: { placeholder: 'passkeyAuthenticatorData' },
  signature: { placeholder: 'passkeySignature' },
  userHandle: { placeholder: 'passkeyUserHandle' },
  // A passkey's user handle as the server offers it (options.user.id): the new user's id, encoded.
  'user.id': { placeholder: 'passkeyUserId' },
  publicKey: { placeholder: 'passkeyPublicKey' },
};

/** Values shorter than this are not volatile ids ("en", "10"): never named, so they never replace other text. */
const MIN_VOLATILE_LENGTH = 8;

/** Every volatile value in `value` (deeply), with the kind it is. */
export function volatileValuesIn(value: unknown): Array<[string, VolatileValue]> {
  const found: Array<[string, VolatileValue]> = [];
  const visit = (item: unknown, key: string | undefined, parent?: string) => {
    if (typeof item === 'string') {
      const kind = key === undefined ? undefined : (VOLATILE_KEYS[key] ?? VOLATILE_KEYS[`${parent}.${key}`]);
      // An upper-case word (a challenge kind) is the flow's own word, not a value of the run.
      if (kind && item.length >= MIN_VOLATILE_LENGTH && !/^[A-Z_]+$/.test(item)) found.push([item, kind]);
    } else if (Array.isArray(item)) {
      for (const inner of item) visit(inner, key, parent);
    } else if (item !== null && typeof item === 'object') {
      for (const [name, inner] of Object.entries(item)) visit(inner, name, key);
    }
  };
  visit(value, undefined);
  return found;
}

/**
 * A client app's origin on this machine (http://127.0.0.1:45870): the demo client app listens beside the provider on a
 * port of the run. The placeholder it becomes, {{demo}}, is what a replay fills with the live demo's origin.
 */
export const LOOPBACK_ORIGIN = /https?:\/\/(?:localhost|127\.0\.0\.1|\[::1\]):\d+/g;

/** The placeholder of a client app's loopback origin. */
export const CLIENT_ORIGIN_PLACEHOLDER = 'demo';

/** Every loopback origin in `text`, plain or URL-encoded, other than `except` (the provider's own). */
export function loopbackOriginsIn(text: string, except: string): string[] {
  const decoded = text.replace(/%3A/gi, ':').replace(/%2F/gi, '/');
  return [...new Set(decoded.match(LOOPBACK_ORIGIN) ?? [])].filter((origin) => origin !== except);
}
