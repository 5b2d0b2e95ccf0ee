/**
 * A software WebAuthn authenticator for tests, built on node:crypto: an ES256 key pair per credential, "none"
 * attestation, a signature counter, and the user-presence and user-verification flags. It answers the options the
 * server sends as a browser would hand the answer to the server (@simplewebauthn/browser's JSON shape).
 */
import crypto from 'node:crypto';

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
const sha256 = (bytes: Uint8Array | string): Buffer => crypto.createHash('sha256').update(bytes).digest();

/** A minimal CBOR encoder: unsigned and negative integers, byte and text strings, maps. Enough for COSE keys and attestation objects. */
export function cbor(value: number | string | Uint8Array | Map<number | string, unknown>): Buffer {
  const head = (major: number, length: number): Buffer => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 256) return Buffer.from([(major << 5) | 24, length]);
    return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  const parts = [head(5, value.size)];
  for (const [key, item] of value) parts.push(cbor(key), cbor(item as Parameters<typeof cbor>[0]));
  return Buffer.concat(parts);
}

/** Flags of authenticator data. */
const FLAGS = { userPresent: 0x01, userVerified: 0x04, attestedData: 0x40 } as const;

/** A new P-256 key in COSE form (ES256), as most authenticators make. */
function es256Key(): { cose: Buffer; privateKey: crypto.KeyObject } {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const cose = cbor(new Map<number, unknown>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x!, 'base64url')], [-3, Buffer.from(jwk.y!, 'base64url')]]));
  return { cose, privateKey };
}

interface StoredCredential {
  id: Buffer;
  privateKey: crypto.KeyObject;
  cose: Buffer;
  userHandle: string;
  counter: number;
}

/** What the authenticator is told for one ceremony: which origin the page is on, and overrides to misbehave with. */
export interface CeremonyInput {
  origin: string;
  /** The RP ID whose hash the authenticator signs; the options' by default. */
  rpId?: string;
  userVerified?: boolean;
  /** The counter to report instead of the next one (a cloned key reports an old one). */
  counter?: number;
  /** The key to register instead of a new ES256 one: its COSE form, and the private key that signs with it. */
  key?: { cose: Buffer; privateKey: crypto.KeyObject };
  /** The credential id the authenticator data names instead of a new random one. */
  credentialId?: Buffer;
  /** The id (and rawId) the answer claims, instead of the credential's own. */
  answeredId?: string;
}

/** A software authenticator holding resident ES256 credentials; `counting: false` keeps no signature counter (always 0). */
export class SoftwareAuthenticator {
  readonly credentials: StoredCredential[] = [];
  constructor(private readonly counting = true) {}

  private authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  /** navigator.credentials.create() for the server's registration options. */
  create(options: { challenge: string; rp: { id?: string }; user: { id: string } }, input: CeremonyInput) {
    const { cose, privateKey } = input.key ?? es256Key();
    const id = input.credentialId ?? crypto.randomBytes(16);
    const credential: StoredCredential = { id, privateKey, cose, userHandle: options.user.id, counter: 0 };
    this.credentials.push(credential);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, id, cose]);
    const flags = FLAGS.userPresent | FLAGS.attestedData | (input.userVerified === false ? 0 : FLAGS.userVerified);
    const authData = this.authData(input.rpId ?? options.rp.id ?? '', flags, 0, attested);
    const clientDataJSON = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin: input.origin, crossOrigin: false });
    const attestationObject = cbor(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
    return {
      id: input.answeredId ?? b64url(id),
      rawId: input.answeredId ?? b64url(id),
      type: 'public-key',
      response: { clientDataJSON: b64url(Buffer.from(clientDataJSON)), attestationObject: b64url(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get() for the server's authentication options, with the newest credential (or the one allowed). */
  get(options: { challenge: string; rpId?: string; allowCredentials?: { id: string }[] }, input: CeremonyInput) {
    const allowed = options.allowCredentials?.map((entry) => entry.id) ?? [];
    const credential = [...this.credentials].reverse().find((candidate) => allowed.length === 0 || allowed.includes(b64url(candidate.id)));
    if (!credential) throw new Error('NotAllowedError: no credential for these options');
    if (this.counting) credential.counter += 1;
    const counter = input.counter ?? (this.counting ? credential.counter : 0);
    const flags = FLAGS.userPresent | (input.userVerified === false ? 0 : FLAGS.userVerified);
    const authData = this.authData(input.rpId ?? options.rpId ?? '', flags, counter);
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin: input.origin, crossOrigin: false }));
    // EdDSA hashes inside the algorithm; ES256 and RS256 sign the SHA-256 of the data.
    const digest = credential.privateKey.asymmetricKeyType === 'ed25519' ? null : 'sha256';
    const signature = crypto.sign(digest, Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authData), signature: b64url(signature), userHandle: credential.userHandle },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
