import type { JWK } from 'jose';
import type { Queryable } from '../db/database.ts';
import { otherResourceServerOwner, CLIENT_AUTH_METHODS, CLIENT_PROFILES, type ClientAuthMethod, type ClientProfile, type ClientSecurity } from '../store/client-security.ts';
import { OperationError } from './operation-error.ts';

/** What an operator may say about a client's authentication, keys, profile and service use (`client add/update`). */
export interface ClientSecurityInput {
  authMethod?: ClientAuthMethod;
  /** The client's public keys as JWKS JSON text (`--jwks`), for private_key_jwt. */
  jwks?: string;
  jwksUri?: string;
  signingAlg?: string;
  profile?: ClientProfile;
  /** client_credentials scopes (`--service-scope`, repeated); an empty list takes the grant away. */
  serviceScopes?: string[];
  resourceServer?: string;
  /** One of our own apps (`--first-party`): no consent screen. */
  firstParty?: boolean;
}

/** The JSON Schema of ClientSecurityInput, for the admin API. */
export const CLIENT_SECURITY_INPUT_PROPERTIES = {
  authMethod: { type: 'string', enum: [...CLIENT_AUTH_METHODS] },
  jwks: { type: 'string', maxLength: 20_000 },
  jwksUri: { type: 'string', maxLength: 2000 },
  signingAlg: { type: 'string', maxLength: 20 },
  profile: { type: 'string', enum: [...CLIENT_PROFILES] },
  serviceScopes: { type: 'array', items: { type: 'string', maxLength: 100 }, maxItems: 50 },
  resourceServer: { type: 'string', maxLength: 2000 },
  firstParty: { type: 'boolean' },
} as const;

/** The algorithms a `fapi2` client may sign with (FAPI 2.0 Security Profile §5.4.1). */
const FAPI2_ALGORITHMS = ['PS256', 'ES256'];
const ASYMMETRIC_ALGORITHMS = ['RS256', 'PS256', 'ES256'];
const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]{1,100}$/;

function checkHttpsUrl(option: string, value: string): void {
  const url = URL.parse(value);
  const loopback = url !== null && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (!url || (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))) {
    throw new OperationError(`${option} "${value}" must be an https URL (http is allowed only for localhost)`);
  }
}

/** Reads `--jwks`: a JSON Web Key Set of public signing keys only. */
function parseJwks(text: string): { keys: JWK[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new OperationError('--jwks is not valid JSON (give a JWK Set: {"keys":[...]})');
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0) throw new OperationError('--jwks must be a JWK Set with at least one key: {"keys":[...]}');
  for (const key of keys as JWK[]) {
    if (typeof key !== 'object' || key === null || (key.kty !== 'EC' && key.kty !== 'RSA' && key.kty !== 'OKP')) throw new OperationError('--jwks keys must be EC, RSA or OKP public keys');
    if ('d' in key || 'p' in key || 'k' in key) throw new OperationError('--jwks must hold public keys only: never give the provider a private key');
  }
  return { keys: keys as JWK[] };
}

/** The algorithm a key set's assertions are checked with: the keys' own `alg`, else ES256 for P-256 and PS256 for RSA. */
function derivedAlgorithm(jwks: { keys: JWK[] } | undefined): string | undefined {
  const key = jwks?.keys[0];
  if (!key) return undefined;
  if (typeof key.alg === 'string') return key.alg;
  if (key.kty === 'EC' && key.crv === 'P-256') return 'ES256';
  return key.kty === 'RSA' ? 'PS256' : undefined;
}

/**
 * The security settings a client gets from `input` over its `current` ones (a new client: none). Refuses, with the
 * option to fix, anything the profile or method cannot work with: `fapi2` needs a confidential client with
 * private_key_jwt keys signing PS256 or ES256; private_key_jwt needs keys; a public client authenticates with nothing.
 */
export function resolveClientSecurity(input: ClientSecurityInput, client: { isPublic: boolean }, current?: ClientSecurity): ClientSecurity {
  const profile = input.profile ?? current?.profile ?? 'default';
  const fallbackMethod: ClientAuthMethod = client.isPublic ? 'none' : profile === 'fapi2' ? 'private_key_jwt' : 'client_secret_basic';
  const authMethod = input.authMethod ?? (input.jwks !== undefined || input.jwksUri !== undefined ? 'private_key_jwt' : (current?.authMethod ?? fallbackMethod));
  if (client.isPublic !== (authMethod === 'none')) {
    throw new OperationError(client.isPublic ? 'a public client authenticates with nothing: drop --auth-method' : '--auth-method none is for public clients (--public)');
  }
  if (input.jwks !== undefined && input.jwksUri !== undefined) throw new OperationError('give either --jwks or --jwks-uri, not both');
  if (input.jwksUri !== undefined) checkHttpsUrl('--jwks-uri', input.jwksUri);
  const keysGiven = input.jwks !== undefined || input.jwksUri !== undefined;
  const jwks = input.jwks !== undefined ? parseJwks(input.jwks) : keysGiven ? undefined : current?.jwks;
  const jwksUri = input.jwksUri ?? (keysGiven ? undefined : current?.jwksUri);
  if (authMethod === 'private_key_jwt' && jwks === undefined && jwksUri === undefined) throw new OperationError('private_key_jwt needs the client\'s public keys: --jwks \'<JWKS>\' or --jwks-uri URL');
  if (authMethod !== 'private_key_jwt' && keysGiven) throw new OperationError('--jwks and --jwks-uri go with --auth-method private_key_jwt');
  const signingAlg = input.signingAlg ?? (keysGiven ? undefined : current?.signingAlg) ?? (authMethod === 'private_key_jwt' ? (derivedAlgorithm(jwks) ?? (profile === 'fapi2' ? 'ES256' : undefined)) : undefined);
  if (authMethod === 'private_key_jwt' && signingAlg !== undefined && !ASYMMETRIC_ALGORITHMS.includes(signingAlg)) throw new OperationError(`--signing-alg must be one of ${ASYMMETRIC_ALGORITHMS.join(', ')}`);
  if (authMethod === 'client_secret_jwt' && signingAlg !== undefined && signingAlg !== 'HS256') throw new OperationError('client_secret_jwt signs with HS256');
  if (profile === 'fapi2') {
    if (authMethod !== 'private_key_jwt') throw new OperationError('the fapi2 profile needs --auth-method private_key_jwt and the client\'s keys (--jwks or --jwks-uri)');
    if (!FAPI2_ALGORITHMS.includes(signingAlg ?? '')) throw new OperationError(`the fapi2 profile signs with ${FAPI2_ALGORITHMS.join(' or ')} only: give --signing-alg or keys of that kind`);
  }
  const serviceScopes = input.serviceScopes === undefined ? current?.serviceScopes : input.serviceScopes.length === 0 ? undefined : [...new Set(input.serviceScopes)];
  if (serviceScopes?.some((scope) => !SCOPE.test(scope))) throw new OperationError('--service-scope must be a scope token (no spaces or quotes)');
  if (serviceScopes !== undefined && client.isPublic) throw new OperationError('a public client cannot use client_credentials (--service-scope)');
  if (input.resourceServer !== undefined) {
    checkHttpsUrl('--resource-server', input.resourceServer);
    // RFC 8707 §2: a resource indicator is an absolute URI without a fragment.
    if (input.resourceServer.includes('#')) throw new OperationError('--resource-server must not contain a fragment (#...)');
    if (client.isPublic) throw new OperationError('a public client cannot be a resource server (--resource-server): it could not authenticate to introspect');
  }
  const firstParty = input.firstParty ?? current?.firstParty ?? false;
  return { authMethod, jwks, jwksUri, signingAlg, profile, serviceScopes, resourceServer: input.resourceServer ?? current?.resourceServer, firstParty };
}

/** Refuses a resource indicator another client already answers for: introspection must know whose it is. */
export async function checkResourceServerFree(db: Queryable, clientId: string, resourceServer: string | undefined): Promise<void> {
  if (resourceServer === undefined) return;
  const owner = await otherResourceServerOwner(db, resourceServer, clientId);
  if (owner !== undefined) throw new OperationError(`--resource-server ${resourceServer} is already the resource server of ${owner}`);
}
