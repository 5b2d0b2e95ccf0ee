import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { trustsPeer } from '../web/trust-proxy.ts';
import type { Metrics } from './metrics.ts';

/** The header that carries a request's id: answered on every response, and taken from a trusted proxy. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** An id a proxy may hand us: short and plain, so it cannot forge log lines or bloat them. */
const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * Fastify options for request ids: every log line of a request carries it (`reqId`). The id is ours (a UUID), or,
 * behind a trusted proxy (TRUST_PROXY), the proxy's X-Request-Id when it is plain, so the proxy's and our logs match.
 */
export function requestIdOptions(config: Pick<Config, 'trustProxy'>, newId: () => string) {
  return {
    requestIdHeader: false as const,
    genReqId(request: IncomingMessage): string {
      const offered = request.headers[REQUEST_ID_HEADER];
      const fromProxy = trustsPeer(config.trustProxy, request.socket.remoteAddress);
      return fromProxy && typeof offered === 'string' && ACCEPTABLE_ID.test(offered) ? offered : newId();
    },
  };
}

/** Answers every request with its id (X-Request-Id) and records its latency by route template, method and status. */
export function installRequestObservation(app: FastifyInstance, metrics: Pick<Metrics, 'observeRequest'>): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    metrics.observeRequest({ method: request.method, route: request.routeOptions.url ?? 'unmatched', status: reply.statusCode }, reply.elapsedTime / 1000);
  });
}
