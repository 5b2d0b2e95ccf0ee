/**
 * Characters no name or label may hold: the Unicode bidirectional controls (embeddings, overrides, isolates and the
 * marks), which can make a name shown in a mail, a session list or a security notice read as something else
 * ("Trojan Source"). A JSON Schema pattern; a field refuses it with `not`.
 */
export const BIDI_CONTROLS_PATTERN = '[\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069]';

/** The schema part a name or label field carries: `not` any bidirectional control. */
export const NO_BIDI_CONTROLS = { not: { pattern: BIDI_CONTROLS_PATTERN } } as const;
