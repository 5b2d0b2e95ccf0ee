import type { FastifyInstance } from 'fastify';
import { secretsEqual } from '../crypto/hash.ts';
import type { FeatureFlags } from '../flags/feature-flags.ts';

/** Where the development flag service answers; the web app's default `featureFlags.baseUrl`. */
export const FLAG_SERVICE_PREFIX = '/dev/flag-service';

/** The one project the service serves, as the web app asks for it. */
const PROJECT = 'sso';

interface FlagQuery {
  env?: string;
}

/**
 * A development stand-in for the LaunchDarkly-style flag service (spec, section 7), so the web app's
 * whole flag path (authorization, timeout, cache) runs for real: `GET /flags/sso?env=…` lists every flag
 * as `items: [{ key, environments: { <env>: { on } } }]`, `GET /flags/sso/{flagKey}` reads one. It serves
 * the server's own flag file, the same values the server enforces, in whichever environment is asked for.
 */
export function flagServiceRoutes(deps: { flags: FeatureFlags; token: string }) {
  const item = (key: string, on: boolean, env: string) => ({ key, environments: { [env]: { on } } });

  return async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request, reply) => {
      const given = request.headers.authorization ?? '';
      if (!secretsEqual(given, deps.token)) {
        return reply.code(401).send({ error_code: 'flags.unauthorized', error_message: 'The flag service needs its authorization header.' });
      }
      reply.header('cache-control', 'no-store');
    });
    app.get<{ Querystring: FlagQuery }>(`/flags/${PROJECT}`, async (request) => {
      const env = request.query.env ?? 'prod';
      return { items: Object.entries(deps.flags.all()).map(([key, on]) => item(key, on, env)) };
    });
    app.get<{ Querystring: FlagQuery; Params: { flagKey: string } }>(`/flags/${PROJECT}/:flagKey`, async (request, reply) => {
      const values: Record<string, boolean> = deps.flags.all();
      const on = values[request.params.flagKey];
      if (on === undefined) return reply.code(404).send({ error_code: 'flags.unknown', error_message: 'There is no such flag.' });
      return item(request.params.flagKey, on, request.query.env ?? 'prod');
    });
  };
}
