import { monitorEventLoopDelay } from 'node:perf_hooks';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import { LIMITS } from '../limits.ts';
import { ApiError } from '../errors.ts';

/**
 * The mean event-loop delay since the last reading, in ms. A reading with no sample (the reading's timer ran before
 * the histogram's, after one long pause) counts as no delay: the pause shows in the next reading as one long sample.
 * (The plugin's own maxEventLoopDelay reads such an empty histogram as an infinite delay, and so refuses requests
 * after any pause longer than its interval, such as the server's own start.)
 */
function eventLoopDelayReader(): { read(): number; stop(): void } {
  const histogram = monitorEventLoopDelay({ resolution: 20 });
  histogram.enable();
  return {
    read() {
      const mean = histogram.count > 0 ? histogram.mean / 1e6 : 0;
      histogram.reset();
      return mean;
    },
    stop: () => histogram.disable(),
  };
}

/**
 * While the event-loop delay stays past the limit in LIMITS, new requests are answered at once, 503 with
 * Retry-After in the API's error shape, instead of joining a queue that only grows. (Password hashing has its own
 * bound: server/auth/argon2-gate.ts.)
 */
export async function installOverloadGuard(app: FastifyInstance): Promise<void> {
  const delay = eventLoopDelayReader();
  app.addHook('onClose', async () => delay.stop());
  // Overloaded only when the delay stays past the limit for EVENT_LOOP_OVERLOAD_READINGS readings in a row: a burst
  // (a slow query on the embedded database, whose work runs on this thread) delays requests, it does not refuse them.
  let readingsOver = 0;
  await app.register(underPressure, {
    healthCheck: async () => {
      readingsOver = delay.read() > LIMITS.MAX_EVENT_LOOP_DELAY_MS ? readingsOver + 1 : 0;
      return readingsOver < LIMITS.EVENT_LOOP_OVERLOAD_READINGS;
    },
    healthCheckInterval: LIMITS.EVENT_LOOP_SAMPLE_MS,
    retryAfter: LIMITS.OVERLOAD_RETRY_AFTER,
    pressureHandler: (request, reply, type) => {
      request.log.warn({ type }, 'overloaded: answering 503');
      const error = new ApiError('server.unavailable', undefined, { retryAfter: LIMITS.OVERLOAD_RETRY_AFTER });
      reply.code(error.status).header('retry-after', String(LIMITS.OVERLOAD_RETRY_AFTER)).send(error.toBody());
    },
  });
}
