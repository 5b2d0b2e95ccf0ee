/**
 * Authentication context classes (`acr`): how strongly a sign-in proved the person, lowest first. Every ID token
 * carries one; a client asks for a level with `acr_values` or an `acr` claim request, and a session below it is
 * stepped up.
 */
export const ACR = {
  /** The password alone (or a trusted browser standing in for the second factor). */
  password: 'urn:payments-network:acr:password',
  /** The password and a second factor proven in this sign-in: an authenticator app, a texted or emailed code. */
  mfa: 'urn:payments-network:acr:mfa',
  /** A passkey: bound to this site's origin, so a phishing page cannot relay it. */
  phishingResistant: 'urn:payments-network:acr:phishing-resistant',
} as const;

/** Every level, lowest first: discovery's `acr_values_supported`. */
export const ACR_LEVELS: readonly string[] = [ACR.password, ACR.mfa, ACR.phishingResistant];

/** The `amr` value (our own; RFC 8176 has none) saying a browser the person trusted stood in for the second factor. */
export const TRUSTED_DEVICE_AMR = 'trusted_device';

/** RFC 8176's values for a proof of possession of a key, which only a passkey gives here. */
const PASSKEY_AMR = new Set(['hwk', 'swk']);

/** The level a sign-in reached, from how the person proved it (`amr`). */
export function acrOf(amr: readonly string[]): string {
  if (amr.some((value) => PASSKEY_AMR.has(value))) return ACR.phishingResistant;
  if (amr.includes('mfa') && !amr.includes(TRUSTED_DEVICE_AMR)) return ACR.mfa;
  return ACR.password;
}

/** The position of `acr` among the levels; -1 for a value that is not ours. */
export const levelOf = (acr: unknown): number => (typeof acr === 'string' ? ACR_LEVELS.indexOf(acr) : -1);

/** The `acr` values an `acr` claim request names (`{ value }` or `{ values }`), from the request's `claims` parameter. */
function claimedAcr(claims: unknown): string[] {
  let parsed: unknown = claims;
  if (typeof claims === 'string') {
    try {
      parsed = JSON.parse(claims);
    } catch {
      return [];
    }
  }
  const request = (parsed as { id_token?: { acr?: { value?: unknown; values?: unknown } } } | undefined)?.id_token?.acr;
  const values = Array.isArray(request?.values) ? request.values : request?.value !== undefined ? [request.value] : [];
  return values.filter((value): value is string => typeof value === 'string');
}

/**
 * The lowest of our levels that satisfies the authorization request (`acr_values` or an `acr` claim request, in any
 * order of preference: meeting any one of them is enough); undefined when the request asks for none of ours.
 */
export function requestedLevel(params: Record<string, unknown>): number | undefined {
  const asked = [...(typeof params.acr_values === 'string' ? params.acr_values.split(' ') : []), ...claimedAcr(params.claims)];
  const levels = asked.map(levelOf).filter((level) => level >= 0);
  return levels.length === 0 ? undefined : Math.min(...levels);
}
