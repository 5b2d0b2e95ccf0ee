/**
 * Keeps secrets out of recorded fixtures. Typed passwords and codes become `{{password}}`,
 * `{{newPassword}}`, `{{code}}`; typed addresses `{{email}}`; credentials the browser encrypted
 * become `{{encrypted:<field>}}`; the server's origin becomes `{{origin}}`, a client app's loopback origin `{{demo}}`; ids, keys and times of the run become
 * their volatile placeholder (volatile-values.ts). Every recorded string is scrubbed of every value named so far,
 * plain or URL-encoded, wherever it appears.
 */
import { CLIENT_ORIGIN_PLACEHOLDER, loopbackOriginsIn, VOLATILE_KEYS, volatileValuesIn } from './volatile-values.ts';

/** What the recorder knows about a form field when its value is recorded. */
export interface FieldFacts {
  name: string;
  type: string;
  autocomplete: string;
  /** Sent encrypted by the step (the step's `call.encrypt`). */
  encrypted: boolean;
}

/** The placeholder families of typed values. */
export type FieldKind = 'email' | 'password' | 'newPassword' | 'code';

/** Values shorter than this are never searched for inside other strings (too likely to collide). */
const MIN_SCRUB_LENGTH = 4;

/** A compact JWE: five base64url parts, the first a JSON header. */
const COMPACT_JWE = /^eyJ[\w-]*\.[\w-]*\.[\w-]+\.[\w-]+\.[\w-]+$/;

/** The family of a field's value, or undefined when it is kept as typed. */
export function fieldKind(field: FieldFacts): FieldKind | undefined {
  const autocomplete = field.autocomplete.toLowerCase();
  if (autocomplete === 'new-password') return 'newPassword';
  if (autocomplete === 'one-time-code' || /code|otp|pin/i.test(field.name)) return 'code';
  if (field.encrypted || field.type === 'password' || autocomplete === 'current-password' || /password|secret/i.test(field.name)) {
    return 'password';
  }
  if (field.type === 'email' || autocomplete === 'username' || autocomplete === 'email') return 'email';
  return undefined;
}

/** Names values and replaces them with placeholders. */
export interface Scrubber {
  /** The recorded form of a typed value: a placeholder for secrets and addresses, else the value. */
  field(field: FieldFacts, value: string): string;
  /** A deep copy of `value` with every named value, ciphertext and the origin replaced. */
  scrub<T>(value: T): T;
  /** The addresses and volatile ids named so far (value by placeholder): not secret, so the recorder keeps them across pages. */
  addresses(): Array<[string, string]>;
}

/** What a scrubber starts from. */
export interface ScrubberOptions {
  origin: string;
  /** Values named by whoever drives the browser (the record CLI): placeholder -> value. Read on every use. */
  hints?: () => Readonly<Record<string, string>>;
  /** Values the walk wrote itself (a made-up invitation token): kept as written even where a volatile id would be named. */
  literals?: () => readonly string[];
  /** Addresses and volatile ids named on earlier pages of the same recording, as [placeholder, value]. */
  addresses?: ReadonlyArray<readonly [string, string]>;
}

/** Creates a scrubber for one page of a recording. */
export function createScrubber(options: ScrubberOptions): Scrubber {
  // value -> placeholder name; secrets live only here, in memory, for this page.
  const named = new Map<string, string>((options.addresses ?? []).map(([name, value]) => [value, name]));
  const kept = new Set([...Object.values(VOLATILE_KEYS)].filter((kind) => !kind.secret).map((kind) => kind.placeholder));

  const known = (): Array<[string, string]> => {
    const all = new Map(named);
    for (const [name, value] of Object.entries(options.hints?.() ?? {})) if (value) all.set(value, name);
    all.set(options.origin, 'origin');
    // Longest first, so a value containing another is replaced whole.
    return [...all].sort(([a], [b]) => b.length - a.length);
  };

  const nameFor = (kind: FieldKind, value: string): string => {
    const taken = new Set([...named.values(), ...Object.keys(options.hints?.() ?? {})]);
    let name: string = kind;
    for (let n = 2; taken.has(name); n += 1) name = `${kind}${n}`;
    named.set(value, name);
    return name;
  };

  const scrubText = (text: string, key: string | undefined): string => {
    if (COMPACT_JWE.test(text)) return key ? `{{encrypted:${key}}}` : '{{encrypted}}';
    let result = text;
    for (const [value, name] of known()) {
      if (value.length < MIN_SCRUB_LENGTH && value !== text) continue;
      result = result.split(value).join(`{{${name}}}`);
      const encoded = encodeURIComponent(value);
      if (encoded !== value) result = result.split(encoded).join(`{{url:${name}}}`);
    }
    return result;
  };

  const scrubValue = (value: unknown, key: string | undefined): unknown => {
    if (typeof value === 'string') return scrubText(value, key);
    if (Array.isArray(value)) return value.map((item) => scrubValue(item, key));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, scrubValue(item, name)]));
    }
    return value;
  };

  return {
    field(field, value) {
      const hinted = Object.entries(options.hints?.() ?? {}).find(([, hint]) => hint === value)?.[0];
      if (hinted) return `{{${hinted}}}`;
      const kind = fieldKind(field);
      if (!kind || value === '') return scrubText(value, undefined);
      return `{{${named.get(value) ?? nameFor(kind, value)}}}`;
    },
    scrub<T>(value: T): T {
      const literals = new Set(options.literals?.() ?? []);
      for (const [volatile, kind] of volatileValuesIn(value)) if (!named.has(volatile) && !literals.has(volatile)) named.set(volatile, kind.placeholder);
      for (const origin of loopbackOriginsIn(JSON.stringify(value) ?? '', options.origin)) if (!named.has(origin)) named.set(origin, CLIENT_ORIGIN_PLACEHOLDER);
      return scrubValue(value, undefined) as T;
    },
    addresses: () => [...named].filter(([, name]) => /^email\d*$/.test(name) || kept.has(name)).map(([value, name]) => [name, value]),
  };
}
