/**
 * A seeded generator of bad requests, derived from JSON Schemas: each request starts from a value the schema
 * accepts and then breaks it (wrong types, missing and extra fields, boundary lengths, NUL and lone surrogates,
 * huge and deep bodies, wrong content types, forged or missing cookies, `__proto__`).
 */

/** The subset of JSON Schema the form and route schemas use. */
export interface FieldSchema {
  type?: string;
  properties?: Record<string, FieldSchema>;
  required?: string[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
}

/** A request as `app.inject` takes it. */
export interface GeneratedRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** What was broken, for the failure report. */
  mutation: string;
}

/** One operation to attack: where, how, and the schema of what it takes (body for POST, query for GET). */
export interface Operation {
  method: 'GET' | 'POST';
  /** The path; `:name` segments are filled in per request. */
  path: string;
  schema: FieldSchema;
  /** How the body is sent when well-formed: JSON for the API, form-encoded for the provider. */
  encoding: 'json' | 'form';
}

/** Mulberry32: small, fast and the same sequence for the same seed on every machine. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number) => Math.floor(next() * below);
  return { next, int, pick: <T>(items: readonly T[]): T => items[int(items.length)]!, chance: (probability: number) => next() < probability };
}

/** The random source the generator draws from. */
export type Random = ReturnType<typeof seededRandom>;

/** Strings nothing should choke on: unstorable ones first, then odd but storable ones. */
const NASTY_STRINGS = [
  'a\u0000b',
  '\u0000',
  '\ud800',
  'x\udfffy',
  '\ud83d',
  '%00',
  '\u202e\u200b\ufeff',
  '😀'.repeat(40),
  '<script>alert(1)</script>',
  "' or 1=1 --",
  '../../etc/passwd',
  '${jndi:ldap://x}',
  '{{7*7}}',
  ' ',
  '',
  '\r\nSet-Cookie: x=1',
  'null',
  '__proto__',
] as const;

/** Keys that poison or confuse objects built from JSON. */
const NASTY_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '\u0000', '\ud800', ''] as const;

const LONE_SURROGATES = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Sets `name` as an own, enumerable property, even `__proto__`, so JSON.stringify sends it. */
function setOwn(target: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: true, configurable: true, writable: true });
}

const WRONG_TYPES: readonly unknown[] = [0, -1, 1e308, 3.5, true, false, null, [], ['a'], {}, { a: 1 }, '1'];

/** A value the field's schema accepts. */
function validValue(schema: FieldSchema, random: Random): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return random.pick(schema.enum);
  if (schema.type === 'boolean') return random.chance(0.5);
  if (schema.type === 'number' || schema.type === 'integer') return random.int(100);
  if (schema.format === 'email') return `user${random.int(1000)}@example.com`;
  if (schema.pattern === '^[0-9]{6}$') return String(random.int(1_000_000)).padStart(6, '0');
  if (schema.pattern?.startsWith('^\\+')) return '+447700900123';
  const length = Math.max(schema.minLength ?? 1, Math.min(schema.maxLength ?? 20, 12));
  return 'Valid'.padEnd(length, 'x').slice(0, Math.max(length, 1));
}

/** A body (or query) the operation's schema accepts. */
function validObject(schema: FieldSchema, random: Random): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    if (schema.required?.includes(name) || random.chance(0.5)) value[name] = validValue(field, random);
  }
  return value;
}

/** The schema's field names, or a made-up one when it names none. */
const fieldNames = (schema: FieldSchema) => (Object.keys(schema.properties ?? {}).length > 0 ? Object.keys(schema.properties ?? {}) : ['field']);

/** A string of exactly `length` characters. */
const ofLength = (length: number) => 'x'.repeat(Math.max(0, length));

/** Nested arrays `depth` deep: small in bytes, deep for a parser or a walker. */
const deepJson = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

type FieldMutation = (value: Record<string, unknown>, schema: FieldSchema, random: Random) => string;

/** Ways to break one object; each edits `value` in place and says what it did. */
const FIELD_MUTATIONS: readonly FieldMutation[] = [
  function wrongType(value, schema, random) {
    const name = random.pick(fieldNames(schema));
    value[name] = random.pick(WRONG_TYPES);
    return `wrong type for ${name}`;
  },
  function missingField(value, schema, random) {
    const name = random.pick(schema.required?.length ? schema.required : Object.keys(value).length ? Object.keys(value) : ['none']);
    delete value[name];
    return `missing ${name}`;
  },
  function extraField(value, _schema, random) {
    const name = random.pick([...NASTY_KEYS, 'isAdmin', 'role', 'userId']);
    setOwn(value, name, random.pick([true, 'admin', { polluted: true }, 1]));
    return `extra field ${JSON.stringify(name)}`;
  },
  function boundaryLength(value, schema, random) {
    const strings = Object.entries(schema.properties ?? {}).filter(([, field]) => field.type === 'string');
    if (strings.length === 0) return 'no string field';
    const [name, field] = random.pick(strings);
    const max = field.maxLength ?? 256;
    const min = field.minLength ?? 0;
    value[name] = ofLength(random.pick([max, max + 1, min, min - 1, 0, max * 4]));
    return `boundary length for ${name}`;
  },
  function nastyString(value, schema, random) {
    const name = random.pick(fieldNames(schema));
    const nasty = random.pick(NASTY_STRINGS);
    value[name] = random.chance(0.5) ? nasty : `${String(validValue(schema.properties?.[name] ?? {}, random))}${nasty}`;
    return `nasty string in ${name}`;
  },
  function nastyKey(value, _schema, random) {
    setOwn(value, random.pick(NASTY_KEYS), random.pick(NASTY_STRINGS));
    return 'nasty key';
  },
  function nestedObject(value, schema, random) {
    const name = random.pick(fieldNames(schema));
    const nested: Record<string, unknown> = JSON.parse('{"__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}}}');
    nested.value = random.pick(NASTY_STRINGS);
    value[name] = nested;
    return `nested object in ${name}`;
  },
];

/** A cookie header: none, forged, broken or the caller's own real one. */
function cookieHeader(random: Random, realCookie: string | undefined): { cookie?: string; what: string } {
  const forged = Buffer.from(Array.from({ length: 32 }, () => random.int(256))).toString('base64url').slice(0, 43);
  const choices: [string | undefined, string][] = [
    [undefined, 'no cookie'],
    [realCookie, 'real cookie'],
    [realCookie, 'real cookie'],
    [`sso_tx=${forged}`, 'forged transaction cookie'],
    [`sso_tx=${random.pick(['a%00b', '%ED%A0%80', 'x'.repeat(5000), ';;;=;', '"quoted"'])}`, 'broken transaction cookie'],
    [`_session=${forged}; _interaction=${forged}`, 'forged provider cookies'],
  ];
  const [cookie, what] = random.pick(choices);
  return cookie === undefined ? { what } : { cookie, what };
}

/** The path with its `:name` segments filled in, sometimes with something nasty. */
function concretePath(path: string, random: Random, fill: (name: string) => string): string {
  return path.replace(/:([A-Za-z_]+)/g, (_match, name: string) =>
    random.chance(0.7) ? encodeURIComponent(fill(name)) : random.pick(['%00', '%ED%A0%80', '%E0%A4%A', ofLength(150), '..%2F..%2F', '%2e%2e', '%F0%9F%98%80']),
  );
}

function encodeQuery(value: Record<string, unknown>, random: Random): string {
  const parts = Object.entries(value).map(([name, item]) => {
    const text = typeof item === 'string' ? item : JSON.stringify(item) ?? '';
    // Lone surrogates cannot be percent-encoded as UTF-8; send them as the replacement a browser would.
    const safe = (input: string) => encodeURIComponent(input.replace(LONE_SURROGATES, '\ufffd'));
    const pair = `${safe(name)}=${safe(text)}`;
    return random.chance(0.1) ? `${pair}&${pair}` : pair;
  });
  if (random.chance(0.1)) parts.push(random.pick(['%00=1', 'a=%00', 'x=%ZZ', '&&&', '=', 'a[b]=1', 'a[__proto__][x]=1']));
  return parts.join('&');
}

/** One bad request for `operation`; `realCookie` is a browser's cookie inside a sign-in, when there is one. */
export function badRequest(operation: Operation, random: Random, realCookie: string | undefined, fill: (name: string) => string): GeneratedRequest {
  const value = validObject(operation.schema, random);
  const mutations = [random.pick(FIELD_MUTATIONS)(value, operation.schema, random)];
  if (random.chance(0.3)) mutations.push(random.pick(FIELD_MUTATIONS)(value, operation.schema, random));
  const cookie = cookieHeader(random, realCookie);
  const headers: Record<string, string> = cookie.cookie ? { cookie: cookie.cookie } : {};
  if (random.chance(0.05)) headers.authorization = random.pick(['Basic !!!', `Basic ${Buffer.from('a%00:b').toString('base64')}`, `Bearer ${ofLength(4000)}`, 'Bearer a%00', 'Digest x']);
  const path = concretePath(operation.path, random, fill);
  const what = [...mutations, cookie.what];

  if (operation.method === 'GET') {
    const query = encodeQuery(value, random);
    return { method: 'GET', url: query ? `${path}?${query}` : path, headers, mutation: what.join(', ') };
  }

  const bodyShape = random.int(20);
  let payload: string;
  let contentType: string | undefined = operation.encoding === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
  if (bodyShape === 0) {
    payload = JSON.stringify({ ...value, padding: ofLength(20_000 + random.int(60_000)) });
    what.push('huge body');
  } else if (bodyShape === 1) {
    payload = deepJson(1000 + random.int(6000));
    contentType = 'application/json';
    what.push('deep body');
  } else if (bodyShape === 2) {
    payload = random.pick(['{"email": ', '{', 'nul\u0000l', '"\\ud800"', '[]', 'null', '42', '"text"', '{"a":1,"a":2}', '{"__proto__":{"admin":true}}', '']);
    contentType = 'application/json';
    what.push('malformed or non-object JSON');
  } else if (bodyShape === 3) {
    payload = JSON.stringify(value);
    contentType = random.pick([undefined, 'text/plain', 'multipart/form-data; boundary=x', 'application/xml', 'application/json; charset=latin1', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16']);
    what.push(`content type ${JSON.stringify(contentType)}`);
  } else if (operation.encoding === 'form') {
    payload = encodeQuery(value, random);
  } else {
    payload = JSON.stringify(value);
  }
  if (contentType !== undefined) headers['content-type'] = contentType;
  return { method: 'POST', url: path, headers, payload, mutation: what.join(', ') };
}
