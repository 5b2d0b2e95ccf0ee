/** Node's socket errors that mean the database could not be reached or dropped the connection. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** PostgreSQL SQLSTATEs of a server going away or not taking connections (class 08, shutdown, overload). */
const UNAVAILABLE_STATES = /^(08|57P0[1-3]|53300)/;

/** node-postgres' wording for a connection lost or never made, and PGlite's for a database shut (these have no code). */
const LOST_CONNECTION = /connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|server closed the connection|^PGlite is clos(ed|ing)$/i;

/**
 * Whether `error` says the database is out of reach (down, restarting, unreachable) rather than that a query was
 * wrong: such a failure is answered 503 with Retry-After, and the pool reconnects by itself once it is back.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as Error & { code?: unknown }).code;
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  return LOST_CONNECTION.test(error.message);
}

/** Thrown when the configured PostgreSQL cannot be reached or used; its message is one line, without the password. */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
}
