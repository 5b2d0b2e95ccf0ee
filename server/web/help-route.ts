import type { FastifyInstance } from 'fastify';

/** The address of the "Can't Log In or Register?" link on every screen (src/config.ts `userGuideUrl`). */
const HELP_PATH = '/auth/help';

/**
 * The help link's target: the operator's own user guide when HELP_URL names one (a redirect, so the built app needs
 * no rebuild), else nothing is registered and the web app shows its built-in help page at the same address.
 */
export function helpRoute(helpUrl: string | undefined) {
  return async (app: FastifyInstance) => {
    if (helpUrl === undefined) return;
    app.get(HELP_PATH, (_request, reply) => reply.header('cache-control', 'no-cache').redirect(helpUrl, 302));
  };
}
