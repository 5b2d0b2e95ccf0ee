import { parseArgs, type ParseArgsConfig } from 'node:util';
import { loadConfig } from '../config.ts';
import { ConfigError } from '../config-readers.ts';
import { LIMITS } from '../limits.ts';
import { OperationError } from '../admin/operation-error.ts';
import { checkUserInput, type AddUserInput } from '../admin/operation-input.ts';
import { DataDirLockedError } from '../db/data-dir-lock.ts';
import { openBrieflyWithoutOptimising } from '../db/wasm-tiering.ts';
import { AdminRequestError, type AdminChannel } from './admin-channel.ts';
import { openAdminChannel } from './open-admin-channel.ts';
import { DatabaseUnavailableError } from '../db/unavailable.ts';
import { UsageError } from './usage-error.ts';
import { runAuditCommand, runUserCommand } from './user-commands.ts';
import { runClientCommand } from './client-commands.ts';

const USAGE = `usage:
  npm run sso -- client add --client-id ID --redirect-uri URI [--redirect-uri URI2] [--name NAME] [--public] [--initiate-login-uri URI] [--refresh-tokens]
  npm run sso -- client add --client-id ID --redirect-uri URI [--redirect-uri URI2] [--name NAME] [--public] [--initiate-login-uri URI]
                            [--post-logout-redirect-uri URI] [--backchannel-logout-uri URI]
                            [--auth-method client_secret_basic|client_secret_jwt|private_key_jwt] [--jwks '<JWKS>' | --jwks-uri URI]
                            [--signing-alg PS256|ES256|RS256] [--id-token-alg RS256|PS256|ES256] [--profile default|fapi2] [--service-scope SCOPE ...] [--resource-server URI]
                            [--first-party | --no-first-party]
  npm run sso -- client update ID [any option of client add but --client-id and --public]
  npm run sso -- client list
  npm run sso -- client show ID
  npm run sso -- user add --email EMAIL --password PASSWORD [--first-name F] [--last-name L] [--temporary]
  npm run sso -- user add --email EMAIL --pre-registered [--first-name F] [--last-name L]
  npm run sso -- user require-reset EMAIL
  npm run sso -- user show EMAIL
  npm run sso -- user reset-mfa EMAIL
  npm run sso -- user unlock EMAIL
  npm run sso -- user disable EMAIL
  npm run sso -- user enable EMAIL
  npm run sso -- user sessions EMAIL [--end ID | --end-all]   (--end-all also revokes trusted devices)
  npm run sso -- audit [--user EMAIL] [--since 24h] [--limit N]
  npm run sso -- company add NAME
  npm run sso -- company add-user NAME EMAIL
  npm run sso -- company list
  npm run sso -- company members NAME
  npm run sso -- invite --email EMAIL --company NAME [--client-id ID]
  npm run sso -- keys rotate`;


function parse(args: string[], options: NonNullable<ParseArgsConfig['options']>) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

async function run(channel: AdminChannel, command: string, args: string[]): Promise<string> {
  const clientAnswer = await runClientCommand(channel, command, args);
  if (clientAnswer !== undefined) return clientAnswer;
  if (command === 'user add') {
    const values = parse(args, {
      email: { type: 'string' },
      password: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      temporary: { type: 'boolean' },
      'pre-registered': { type: 'boolean' },
    });
    const preRegistered = values['pre-registered'] === true;
    if (preRegistered && (values.password !== undefined || values.temporary === true)) {
      throw new UsageError('--pre-registered takes no --password or --temporary: the user sets a password when completing registration');
    }
    const input: AddUserInput = {
      email: required(values, 'email'),
      password: preRegistered ? undefined : required(values, 'password'),
      firstName: values['first-name'] as string | undefined,
      lastName: values['last-name'] as string | undefined,
      temporary: values.temporary === true,
      preRegistered,
    };
    // Before the channel opens, as for `client add`.
    checkUserInput(input);
    const user = await channel.addUser(input);
    if (preRegistered) return `user ${user.email} pre-registered (id ${user.id}); they complete registration by registering with this email`;
    return `user ${user.email} added (id ${user.id})${values.temporary === true ? ', with a temporary password to replace at first sign-in' : ''}`;
  }
  if (command === 'user require-reset') {
    const [email, ...extra] = args;
    if (!email || email.startsWith('--') || extra.length > 0) throw new UsageError('user require-reset takes exactly one EMAIL');
    const user = await channel.requireReset(email);
    return `user ${user.email} must reset their password at the next sign-in; their sessions were signed out`;
  }
  if (command.startsWith('company ')) return runCompanyCommand(channel, command, args);
  if (command === 'keys rotate') {
    positionals(command, args, []);
    const keys = await channel.rotateKeys();
    return [
      ...keys.signing.map((kid) => `signing key ${kid} added: published at once, it signs on every server within ${2 * LIMITS.KEY_REFRESH_INTERVAL} s (KEY_REFRESH_SECONDS twice);`),
      `  each previous key (one per key type: RSA for RS256 and PS256, P-256 for ES256) stays published until every token it signed has expired (${LIMITS.SIGNING_KEY_RETENTION / 60} min)`,
      `credential key ${keys.credentials} added: browsers encrypt to it from now on; the previous one is accepted for ${LIMITS.CREDENTIAL_KEY_GRACE / 3600} h`,
    ].join('\n');
  }
  if (command === 'audit') return runAuditCommand(channel, args);
  const userAnswer = await runUserCommand(channel, command, args);
  if (userAnswer !== undefined) return userAnswer;
  if (command === 'invite') {
    const values = parse(args, { email: { type: 'string' }, company: { type: 'string' }, 'client-id': { type: 'string' } });
    const result = await channel.invite({
      email: required(values, 'email'),
      company: required(values, 'company'),
      clientId: values['client-id'] as string | undefined,
    });
    return result.invited
      ? `invitation sent to ${result.email} for ${result.company} (valid until ${result.expiresAt})`
      : `${result.email} already has an account: added to ${result.company} and told by email (no invitation needed)`;
  }
  throw new UsageError(`unknown command "${command}"`);
}

/** Positional arguments only, exactly `count` of them. */
function positionals(command: string, args: string[], names: string[]): string[] {
  if (args.length !== names.length || args.some((arg) => arg.startsWith('--') || arg.trim() === '')) {
    throw new UsageError(`${command} takes ${names.length === 0 ? 'no arguments' : names.join(' ')}`);
  }
  return args;
}

async function runCompanyCommand(channel: AdminChannel, command: string, args: string[]): Promise<string> {
  if (command === 'company add') {
    const [name = ''] = positionals(command, args, ['NAME']);
    const company = await channel.addCompany(name);
    return `company ${company.name} added (id ${company.id})`;
  }
  if (command === 'company add-user') {
    const [name = '', email = ''] = positionals(command, args, ['NAME', 'EMAIL']);
    const added = await channel.addUserToCompany(name, email);
    return `${added.email} now belongs to ${added.company}`;
  }
  if (command === 'company list') {
    positionals(command, args, []);
    const { companies } = await channel.listCompanies();
    if (companies.length === 0) return 'no companies yet (add one: npm run sso -- company add NAME)';
    return companies.map((company) => `${company.name}\t${company.members} member${company.members === 1 ? '' : 's'}\t${company.id}`).join('\n');
  }
  if (command === 'company members') {
    const [name = ''] = positionals(command, args, ['NAME']);
    const { companies, members = [] } = await channel.listCompanies(name);
    return members.length === 0 ? `${companies[0]?.name ?? name} has no members` : members.join('\n');
  }
  throw new UsageError(`unknown command "${command}"`);
}

/** The command words and the rest; `invite` and `audit` have no second word, so their verb is empty. */
function commandWords(argv: string[]): string[] {
  return argv[0] === 'invite' || argv[0] === 'audit' ? [argv[0], '', ...argv.slice(1)] : argv;
}

/**
 * The admin channel, opened at its first use: a mistyped command or option is answered before any database is opened
 * (a fresh embedded database takes seconds to create).
 */
function openedOnFirstUse(open: () => Promise<AdminChannel>): { channel: AdminChannel; close: () => Promise<void> } {
  let opened: Promise<AdminChannel> | undefined;
  const channel = new Proxy({} as AdminChannel, {
    // Not a promise itself: only the channel's methods are forwarded.
    get: (_target, name: keyof AdminChannel | 'then') =>
      name === 'then'
        ? undefined
        : async (...args: unknown[]) => {
            opened ??= open();
            const target = await opened;
            const method = target[name] as (...input: unknown[]) => Promise<unknown>;
            return method.apply(target, args);
          },
  });
  // A channel that failed to open has nothing to close; its failure was answered where it was used.
  return { channel, close: async () => opened?.then((target) => target.close(), () => undefined) };
}

async function main(argv: string[]): Promise<number> {
  // `invite` and `audit` stand alone; every other command is a noun and a verb.
  const [noun, verb, ...rest] = commandWords(argv);
  if (!noun || verb === undefined) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const admin = openedOnFirstUse(() => openAdminChannel(loadConfig()));
  try {
    process.stdout.write(`${await run(admin.channel, verb === '' ? noun : `${noun} ${verb}`, rest)}\n`);
    return 0;
  } catch (error) {
    const known = [UsageError, OperationError, ConfigError, AdminRequestError, DataDirLockedError, DatabaseUnavailableError].some((kind) => error instanceof kind);
    process.stderr.write(`error: ${known ? (error as Error).message : `unexpected failure: ${(error as Error).message}`}\n`);
    if (error instanceof UsageError) process.stderr.write(`${USAGE}\n`);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    await admin.close();
  }
}

openBrieflyWithoutOptimising();
process.exitCode = await main(process.argv.slice(2));
