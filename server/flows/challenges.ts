/**
 * The challenge kinds the server answers with, by name, as contract/challenges.ts marks them. The flows must give
 * each one a step; `npm run flows:check` and the consistency tests check that, so a new kind without a step fails.
 */
import { SERVER_CHALLENGE_KINDS, type ServerChallengeKind } from '../../contract/challenges.ts';

/** Each kind the server sends, keyed by itself: `SERVER_CHALLENGES.LOGIN_REQUIRED`. */
export const SERVER_CHALLENGES = Object.fromEntries(SERVER_CHALLENGE_KINDS.map((kind) => [kind, kind])) as {
  readonly [Kind in ServerChallengeKind]: Kind;
};
