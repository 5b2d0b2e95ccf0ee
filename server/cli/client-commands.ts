import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { ClientSecurityInput } from '../admin/client-security-input.ts';
import { checkClientInput, type AddClientInput } from '../admin/operation-input.ts';
import { CLIENT_AUTH_METHODS, CLIENT_PROFILES, type ClientAuthMethod, type ClientProfile } from '../store/client-security.ts';
import type { ClientReport } from '../store/client-listing.ts';
import type { AdminChannel } from './admin-channel.ts';
import { UsageError } from './usage-error.ts';

/** The `client add` and `client update` options; update takes the client id as its positional argument. */
const CLIENT_OPTIONS = {
  'redirect-uri': { type: 'string', multiple: true },
  name: { type: 'string' },
  'initiate-login-uri': { type: 'string' },
  'refresh-tokens': { type: 'boolean' },
  'post-logout-redirect-uri': { type: 'string', multiple: true },
  'backchannel-logout-uri': { type: 'string' },
  'auth-method': { type: 'string' },
  jwks: { type: 'string' },
  'jwks-uri': { type: 'string' },
  'signing-alg': { type: 'string' },
  'id-token-alg': { type: 'string' },
  profile: { type: 'string' },
  'service-scope': { type: 'string', multiple: true },
  'resource-server': { type: 'string' },
  'first-party': { type: 'boolean' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

type Values = Record<string, string | boolean | Array<string | boolean> | undefined>;

function oneOf<T extends string>(option: string, value: unknown, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !allowed.includes(value as T)) throw new UsageError(`--${option} must be one of ${allowed.join(', ')}`);
  return value as T;
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const list = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined);

/** The security options (authentication, keys, profile, service use) of `client add` and `client update`. */
function securityInput(values: Values): ClientSecurityInput {
  return {
    authMethod: oneOf<ClientAuthMethod>('auth-method', values['auth-method'], CLIENT_AUTH_METHODS),
    jwks: text(values.jwks),
    jwksUri: text(values['jwks-uri']),
    signingAlg: text(values['signing-alg']),
    profile: oneOf<ClientProfile>('profile', values.profile, CLIENT_PROFILES),
    // `--service-scope ''` (an empty list) takes the client_credentials grant away.
    serviceScopes: list(values['service-scope'])?.filter((scope) => scope !== ''),
    resourceServer: text(values['resource-server']),
    firstParty: typeof values['first-party'] === 'boolean' ? values['first-party'] : undefined,
  };
}

function parse(args: string[], options: NonNullable<ParseArgsConfig['options']>, positionals: boolean) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: positionals, allowNegative: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** One client app as `client show` prints it: a line per setting. */
function describe(client: ClientReport): string {
  const lines: Array<[string, string | undefined]> = [
    ['client', `${client.clientId} (${client.name})`],
    ['type', client.type],
    ['auth method', client.authMethod],
    ['profile', client.profile],
    ['redirect URIs', client.redirectUris.join(' ')],
    ['initiate-login URI', client.initiateLoginUri],
    ['post-logout redirect URIs', client.postLogoutRedirectUris.length > 0 ? client.postLogoutRedirectUris.join(' ') : undefined],
    ['back-channel logout URI', client.backchannelLogoutUri],
    ['refresh tokens', client.refreshTokens ? 'with every sign-in' : 'with offline_access only'],
    ['keys', client.jwks],
    ['signing algorithm', client.signingAlg],
    ['service scopes (client_credentials)', client.serviceScopes?.join(' ')],
    ['resource server', client.resourceServer],
    ['consent', client.firstParty ? 'none asked (first-party)' : 'asked once per person, revocable on the account page'],
  ];
  return lines.filter(([, value]) => value !== undefined).map(([label, value]) => `${label}: ${value}`).join('\n');
}

/** `client add`, `client update ID`, `client list`, `client show ID`; undefined for any other command. */
export async function runClientCommand(channel: AdminChannel, command: string, args: string[]): Promise<string | undefined> {
  if (command === 'client add') {
    const { values } = parse(args, { ...CLIENT_OPTIONS, 'client-id': { type: 'string' }, public: { type: 'boolean' } }, false);
    const redirectUris = list(values['redirect-uri']) ?? [];
    if (redirectUris.length === 0) throw new UsageError('--redirect-uri is required');
    const clientId = text(values['client-id']);
    if (!clientId) throw new UsageError('--client-id is required');
    const input: AddClientInput = {
      clientId,
      redirectUris,
      name: text(values.name),
      isPublic: values.public === true,
      initiateLoginUri: text(values['initiate-login-uri']),
      refreshTokens: values['refresh-tokens'] === true,
      postLogoutRedirectUris: list(values['post-logout-redirect-uri']),
      backchannelLogoutUri: text(values['backchannel-logout-uri']),
      idTokenAlg: text(values['id-token-alg']),
      ...securityInput(values),
    };
    // Before the channel opens: a fresh embedded database takes seconds to create, a wrong URI none to answer.
    checkClientInput(input);
    const result = await channel.addClient(input);
    const verb = result.created ? 'added' : 'updated';
    if (values.public === true) return `public client ${result.clientId} ${verb} (PKCE required, no secret)`;
    const [report] = (await channel.listClients(result.clientId)).clients;
    const how = `${report?.authMethod ?? 'client_secret_basic'}, profile ${report?.profile ?? 'default'}`;
    return result.secret === undefined
      ? `confidential client ${result.clientId} ${verb} (${how}; no secret: it signs with its own keys)`
      : `confidential client ${result.clientId} ${verb} (${how})\nclient secret (shown once, store it now): ${result.secret}`;
  }
  if (command === 'client update') {
    const { values, positionals } = parse(args, CLIENT_OPTIONS, true);
    const [clientId, ...extra] = positionals;
    if (!clientId || extra.length > 0) throw new UsageError('client update takes exactly one client ID, then options');
    const result = await channel.updateClient({
      clientId,
      name: text(values.name),
      redirectUris: list(values['redirect-uri']),
      initiateLoginUri: text(values['initiate-login-uri']),
      refreshTokens: values['refresh-tokens'] === true ? true : undefined,
      postLogoutRedirectUris: list(values['post-logout-redirect-uri']),
      backchannelLogoutUri: text(values['backchannel-logout-uri']),
      ...securityInput(values),
    });
    const [report] = (await channel.listClients(clientId)).clients;
    const shown = report ? `\n${describe(report)}` : '';
    return result.secret === undefined ? `client ${clientId} updated${shown}` : `client ${clientId} updated${shown}\nclient secret (shown once, store it now): ${result.secret}`;
  }
  if (command === 'client list') {
    if (args.length > 0) throw new UsageError('client list takes no arguments');
    const { clients } = await channel.listClients();
    if (clients.length === 0) return 'no client apps yet (add one: npm run sso -- client add --client-id ID --redirect-uri URI)';
    return clients.map((client) => [client.clientId, client.type, client.authMethod, client.profile, client.redirectUris.join(' '), client.initiateLoginUri ?? '-'].join('\t')).join('\n');
  }
  if (command === 'client show') {
    const [clientId, ...extra] = args;
    if (!clientId || clientId.startsWith('--') || extra.length > 0) throw new UsageError('client show takes exactly one client ID');
    const { clients } = await channel.listClients(clientId);
    return clients.map(describe).join('\n\n');
  }
  return undefined;
}
