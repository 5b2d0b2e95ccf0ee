/**
 * Scrubs an error report before it leaves the browser: passwords, codes, tokens and masked delivery
 * destinations are replaced wherever they appear (extra data, request data, breadcrumbs, messages).
 */

/** Field names whose values are always secret or personal. */
const SECRET_NAMES = /password|passcode|^code$|otp|token|secret|authorization|cookie|destination|email|username|^state$/i;

/** Values that are secret or personal whatever field holds them. */
const SECRET_VALUES: ReadonlyArray<[RegExp, string]> = [
  // A masked destination (a***@e***.com, +44*******89) or a whole address.
  [/[^\s"'=&/]*\*{2,}[^\s"'&/]*/g, '[masked]'],
  [/[^\s"'=&/@]+@[^\s"'&/]+\.[a-z]{2,}/gi, '[email]'],
  // Query values that carry secrets.
  [/([?&](?:code|state|token|password|username|invitation|id_token|access_token)=)[^&#\s"']*/gi, '$1[filtered]'],
  // A bearer token or JWT.
  [/\b(?:Bearer\s+)?eyJ[\w-]+\.[\w-]+\.[\w-]*/g, '[token]'],
  // A one-time code.
  [/\b\d{6}\b/g, '[code]'],
];

const FILTERED = '[filtered]';

/** `text` with every secret-looking value replaced. */
export function scrubText(text: string): string {
  return SECRET_VALUES.reduce((scrubbed, [pattern, replacement]) => scrubbed.replace(pattern, replacement), text);
}

/** A copy of `value` with secret fields filtered and secret-looking strings scrubbed. */
export function scrubValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) {
    copy[name] = SECRET_NAMES.test(name) && (typeof inner === 'string' || typeof inner === 'number') ? FILTERED : scrubValue(inner, depth + 1);
  }
  return copy;
}

/** The `beforeSend` of error reporting: the whole event, scrubbed. */
export function scrubEvent<T extends object>(event: T): T {
  return scrubValue(event) as T;
}
