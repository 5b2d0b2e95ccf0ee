/** The studio is a tool for product staff's own machines: it never starts where NODE_ENV says production. */

/** Why the studio refuses to start under `env`, or undefined when it may start. */
export function studioRefusal(env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (env.NODE_ENV === 'production') {
    return 'npm run studio is for development only and does not start with NODE_ENV=production: it serves the flows as they are being edited. Run it on a development checkout without NODE_ENV=production.';
  }
  return undefined;
}
