import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { AuditEntry, TrustedDeviceView, UserReport } from '../admin/user-operations.ts';
import type { AdminChannel } from './admin-channel.ts';
import { UsageError } from './usage-error.ts';

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** `24h`, `30m`, `7d`, `90s` in seconds. */
export function parseDuration(text: string): number {
  const match = /^(\d{1,6})([smhd])$/.exec(text.trim());
  if (!match) throw new UsageError(`--since "${text}" is not a duration such as 30m, 24h or 7d`);
  return Number(match[1]) * UNIT_SECONDS[match[2]!]!;
}

function oneEmail(command: string, args: string[]): string {
  const [email, ...extra] = args;
  if (!email || email.startsWith('--') || extra.length > 0) throw new UsageError(`${command} takes exactly one EMAIL`);
  return email;
}

function eventLine(event: AuditEntry): string {
  const detail = Object.keys(event.detail).length === 0 ? '' : ` ${JSON.stringify(event.detail)}`;
  const who = event.email ? `${event.email} ` : '';
  return `${event.at}  ${who}${event.kind}${detail}${event.ip ? `  from ${event.ip}` : ''}`;
}

function sessionLine(session: UserReport['sessions'][number]): string {
  const apps = session.clientIds.length === 0 ? 'no app' : session.clientIds.join(', ');
  return `${session.id}  started ${session.startedAt ?? 'unknown'}  ${apps}`;
}

function trustedDeviceLine(device: TrustedDeviceView): string {
  return `${device.id}  trusted ${device.createdAt} from ${device.ip ?? 'unknown'}  last used ${device.lastUsedAt ?? 'never'}  until ${device.expiresAt}  ${device.userAgent ?? 'unknown browser'}`;
}

function report(shown: UserReport): string {
  const { user, lockout } = shown;
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
  const state = user.disabledAt ? `DISABLED since ${user.disabledAt}` : 'enabled';
  const waiting = lockout.waitingUntil ? `, waiting until ${lockout.waitingUntil}` : '';
  const codes = lockout.codeFailures.map((entry) => `; ${entry.failures} wrong ${entry.purpose} codes (until ${entry.until})`).join('');
  const caps = lockout.codeCaps.map((cap) => `; ${cap.purpose} codes capped: ${cap.issued} sent in the last hour (until ${cap.until})`).join('');
  const lines = [
    `${user.email}${name ? ` (${name})` : ''}  id ${user.id}`,
    `account: ${state}; password changed ${user.passwordChangedAt}${user.resetRequired ? '; must reset at next sign-in' : ''}`,
    `lockout: ${lockout.loginFailures} failed sign-ins${waiting}${codes}${lockout.totpFailures > 0 ? `; ${lockout.totpFailures} wrong authenticator codes` : ''}${caps}`,
    `factors: ${shown.factors.length === 0 ? 'none (the next sign-in sets one up)' : shown.factors.map((factor) => (factor.destination ? `${factor.kind} ${factor.destination}` : factor.kind)).join(', ')}`,
    `companies: ${shown.companies.length === 0 ? 'none' : shown.companies.join(', ')}`,
    `sessions (${shown.sessions.length}):`,
    ...shown.sessions.map((session) => `  ${sessionLine(session)}`),
    `trusted devices (${shown.trustedDevices.length}):`,
    ...shown.trustedDevices.map((device) => `  ${trustedDeviceLine(device)}`),
    `last events (${shown.events.length}, newest first):`,
    ...shown.events.map((event) => `  ${eventLine(event)}`),
  ];
  return lines.join('\n');
}

/** The `user show|reset-mfa|unlock|disable|enable|sessions` commands; undefined for any other. */
export async function runUserCommand(channel: AdminChannel, command: string, args: string[]): Promise<string | undefined> {
  if (command === 'user show') return report(await channel.showUser(oneEmail(command, args)));
  if (command === 'user reset-mfa') {
    const done = await channel.resetMfa(oneEmail(command, args));
    const removed = done.removed.length === 0 ? 'no factors' : done.removed.join(', ');
    return `${done.email}: removed ${removed}, ended ${done.sessionsEnded} session(s), mailed the user; the next sign-in sets up a factor`;
  }
  if (command === 'user unlock') {
    const done = await channel.unlockUser(oneEmail(command, args));
    return `${done.email} unlocked: the next password and codes are checked at once`;
  }
  if (command === 'user disable') {
    const done = await channel.disableUser(oneEmail(command, args));
    return `${done.email} ${done.changed ? 'disabled' : 'was already disabled'}; ended ${done.sessionsEnded} session(s); sign-in is refused`;
  }
  if (command === 'user enable') {
    const done = await channel.enableUser(oneEmail(command, args));
    return `${done.email} ${done.changed ? 'enabled' : 'was not disabled'}; they can sign in`;
  }
  if (command === 'user sessions') {
    const { values, positionals } = parseOrUsage(args, { end: { type: 'string' }, 'end-all': { type: 'boolean' } });
    const email = oneEmail(command, positionals);
    if (values.end !== undefined && values['end-all'] === true) throw new UsageError('give --end ID or --end-all, not both');
    const action = typeof values.end === 'string' ? { end: values.end } : values['end-all'] === true ? { endAll: true as const } : { list: true as const };
    const done = await channel.userSessions(email, action);
    const ended = done.ended.length === 0 ? [] : [`ended ${done.ended.length} session(s): ${done.ended.join(', ')}`];
    const listing = done.sessions.length === 0 ? [`${done.email} has no session`] : [`${done.email} has ${done.sessions.length} session(s):`, ...done.sessions.map(sessionLine)];
    const revoked = done.trustRevoked === 0 ? [] : [`revoked ${done.trustRevoked} trusted device(s)`];
    const trusted = done.trustedDevices.length === 0 ? [] : [`${done.trustedDevices.length} trusted device(s):`, ...done.trustedDevices.map(trustedDeviceLine)];
    return [...ended, ...revoked, ...listing, ...trusted].join('\n');
  }
  return undefined;
}

/** `audit [--user EMAIL] [--since DURATION] [--limit N]`. */
export async function runAuditCommand(channel: AdminChannel, args: string[]): Promise<string> {
  const { values, positionals } = parseOrUsage(args, { user: { type: 'string' }, since: { type: 'string' }, limit: { type: 'string' } });
  if (positionals.length > 0) throw new UsageError('audit takes only --user EMAIL, --since DURATION and --limit N');
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 1000)) throw new UsageError('--limit must be a whole number from 1 to 1000');
  const { events } = await channel.audit({
    ...(typeof values.user === 'string' ? { email: values.user } : {}),
    ...(typeof values.since === 'string' ? { sinceSeconds: parseDuration(values.since) } : {}),
    ...(limit !== undefined ? { limit } : {}),
  });
  return events.length === 0 ? 'no events' : events.map(eventLine).join('\n');
}

function parseOrUsage(args: string[], options: NonNullable<ParseArgsConfig['options']>) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
