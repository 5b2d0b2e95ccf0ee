/** The generic readers of environment variables: each checks one value and throws a ConfigError naming it. */

/** Thrown for bad environment variables: `problems` has one line per mistake, each naming its variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  /** One line per mistake. */
  readonly problems: readonly string[];
  constructor(problems: string | readonly string[]) {
    const lines = typeof problems === 'string' ? [problems] : problems;
    // One line all the same, for logs and error reports that show only the message; the boot prints `problems`, one a line.
    super(lines.join('; '));
    this.problems = lines;
  }
}

/** The environment as read: every variable is a string or absent. */
export type Env = Readonly<Record<string, string | undefined>>;

/** A port number from 0 to 65535 (`fallback` when unset). */
export function readPort(env: Env, name = 'PORT', fallback = '8080'): number {
  const raw = env[name] ?? fallback;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`${name} must be a whole number from 0 to 65535 (got "${raw}")`);
  }
  return port;
}

/** A host name or IP address to listen on (127.0.0.1 when unset). */
export function readHost(env: Env, name: string): string {
  const host = env[name] ?? '127.0.0.1';
  if (!/^[A-Za-z0-9.:-]+$/.test(host)) throw new ConfigError(`${name} must be a host name or IP address (got "${host}")`);
  return host;
}

/**
 * Runs each setting's reader and collects every ConfigError, so one start reports every mistake (one line each)
 * instead of one per attempt.
 */
export function createProblemCollector() {
  const problems: string[] = [];
  return {
    read<T>(reader: () => T, fallback: T): T {
      try {
        return reader();
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        problems.push(...error.problems);
        return fallback;
      }
    },
    check(reader: () => void): void {
      this.read(reader, undefined);
    },
    problems: () => problems,
  };
}

/** An absolute URL whose protocol is one of `protocols`. */
export function readUrl(name: string, raw: string, protocols: readonly string[]): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL (got "${raw}")`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')} (got "${raw}")`);
  }
  return url;
}

/** true/false, yes/no, on/off or 1/0 (`fallback` when unset). */
export function readBoolean(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false (got "${raw}")`);
}

/** A whole number of seconds from 1 to 3600 (`fallback` when unset). */
export function readSeconds(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > 3600) throw new ConfigError(`${name} must be a whole number of seconds from 1 to 3600 (got "${raw}")`);
  return value;
}
