import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';

/**
 * The spec's API paths whose steps have not been built yet. They answer a clear JSON error rather than a
 * generic 404, so the web app's "not available yet" step has something precise to show.
 */
const PENDING_PATHS = [
  'auth/2fa/initialization',
  'auth/2fa/verification',
  'auth/mfa/selection',
  'auth/mfa/verification',
  'auth/mfa/otp',
  'auth/mfa/otp/resend/request',
  'auth/mfa/otp/resend/submit',
  'register/totp',
  'register/totp/verification',
] as const;

/** Registers every pending path for GET and POST. */
export function pendingRoutes() {
  return async (app: FastifyInstance) => {
    for (const path of PENDING_PATHS) {
      app.route({
        method: ['GET', 'POST'],
        url: `/${path}`,
        handler: async () => {
          throw new ApiError('step.not_available');
        },
      });
    }
  };
}
