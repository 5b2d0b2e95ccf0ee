/** Thrown when the configured PostgreSQL cannot be reached or used; its message is one line, without the password. */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
}
