/** A mistake in how the CLI was called; the usage is printed after it. */
export class UsageError extends Error {}
