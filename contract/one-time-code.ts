/**
 * The one schema of a six-digit code, for every endpoint and form that takes one (sign-in, reset, registration,
 * step-up, email change): ASCII digits only, so full-width or Arabic-Indic digits or a combining mark are refused as
 * bad input (400) before any comparison could throw on them.
 */
export const ONE_TIME_CODE_PATTERN = '^[0-9]{6}$';

/** The JSON Schema of a code field. */
export const ONE_TIME_CODE_SCHEMA = { type: 'string', pattern: ONE_TIME_CODE_PATTERN } as const;
