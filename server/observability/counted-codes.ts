import type { OneTimeCodes } from '../auth/one-time-codes.ts';
import type { Metrics } from './metrics.ts';

/** The one-time codes, counting each code issued (and so sent) and each code submitted, by purpose and outcome. */
export function countedCodes(codes: OneTimeCodes, metrics: Pick<Metrics, 'codeSent' | 'codeVerified'>): OneTimeCodes {
  return {
    ...codes,
    async issue(userId, purpose, now, deliver) {
      const code = await codes.issue(userId, purpose, now, deliver);
      metrics.codeSent(purpose);
      return code;
    },
    async redeem(userId, purpose, code, now) {
      const outcome = await codes.redeem(userId, purpose, code, now);
      metrics.codeVerified(purpose, outcome);
      return outcome;
    },
  };
}
