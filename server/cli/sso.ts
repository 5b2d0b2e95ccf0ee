import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { OperationError } from '../admin/operations.ts';
import { DataDirLockedError } from '../db/data-dir-lock.ts';
import { AdminRequestError, openAdminChannel, type AdminChannel } from './admin-channel.ts';
import { DatabaseUnavailableError } from '../runtime.ts';

const USAGE = `usage:
  npm run sso -- client add --client-id ID --redirect-uri URI [--redirect-uri URI2] [--name NAME] [--public]
  npm run sso -- user add --email EMAIL --password PASSWORD [--first-name F] [--last-name L] [--temporary]
  npm run sso -- user add --email EMAIL --pre-registered [--first-name F] [--last-name L]
  npm run sso -- user require-reset EMAIL`;

/** A mistake in how the CLI was called. */
class UsageError extends Error {}

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
  if (command === 'client add') {
    const values = parse(args, {
      'client-id': { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      name: { type: 'string' },
      public: { type: 'boolean' },
    });
    const redirectUris = (values['redirect-uri'] as string[] | undefined) ?? [];
    if (redirectUris.length === 0) throw new UsageError('--redirect-uri is required');
    const result = await channel.addClient({
      clientId: required(values, 'client-id'),
      redirectUris,
      name: values.name as string | undefined,
      isPublic: values.public === true,
    });
    const verb = result.created ? 'added' : 'updated';
    return result.secret === undefined
      ? `public client ${result.clientId} ${verb} (PKCE required, no secret)`
      : `confidential client ${result.clientId} ${verb}\nclient secret (shown once, store it now): ${result.secret}`;
  }
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
    const user = await channel.addUser({
      email: required(values, 'email'),
      password: preRegistered ? undefined : required(values, 'password'),
      firstName: values['first-name'] as string | undefined,
      lastName: values['last-name'] as string | undefined,
      temporary: values.temporary === true,
      preRegistered,
    });
    if (preRegistered) return `user ${user.email} pre-registered (id ${user.id}); they complete registration by registering with this email`;
    return `user ${user.email} added (id ${user.id})${values.temporary === true ? ', with a temporary password to replace at first sign-in' : ''}`;
  }
  if (command === 'user require-reset') {
    const [email, ...extra] = args;
    if (!email || email.startsWith('--') || extra.length > 0) throw new UsageError('user require-reset takes exactly one EMAIL');
    const user = await channel.requireReset(email);
    return `user ${user.email} must reset their password at the next sign-in; their sessions were signed out`;
  }
  throw new UsageError(`unknown command "${command}"`);
}

async function main(argv: string[]): Promise<number> {
  const [noun, verb, ...rest] = argv;
  if (!noun || !verb) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  let channel: AdminChannel | undefined;
  try {
    channel = await openAdminChannel(loadConfig());
    process.stdout.write(`${await run(channel, `${noun} ${verb}`, rest)}\n`);
    return 0;
  } catch (error) {
    const known = [UsageError, OperationError, ConfigError, AdminRequestError, DataDirLockedError, DatabaseUnavailableError].some((kind) => error instanceof kind);
    process.stderr.write(`error: ${known ? (error as Error).message : `unexpected failure: ${(error as Error).message}`}\n`);
    if (error instanceof UsageError) process.stderr.write(`${USAGE}\n`);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    await channel?.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
