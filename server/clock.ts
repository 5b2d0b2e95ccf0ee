/** The current time in milliseconds; injected so tests can move time forward. */
export type Clock = () => number;

/** The real wall clock. */
export const systemClock: Clock = () => Date.now();
