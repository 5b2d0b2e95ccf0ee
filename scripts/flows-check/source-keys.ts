/**
 * Message keys named literally in source code: `t('key'…)`, and both keys of
 * `t(cond ? 'a' : 'b')`. Keys built at run time (a flow's keys, the password policy's) are
 * checked where they are written instead.
 */

/** A key and the 1-based line it is on. */
export interface SourceKey {
  line: number;
  key: string;
}

const CALL = /\bt\(\s*'([a-z][\w.]*)'/g;
const TERNARY = /\bt\([^)]*?\?\s*'([a-z][\w.]*)'\s*:\s*'([a-z][\w.]*)'/g;

/** The message keys `text` passes to `t` literally, in source order. */
export function sourceMessageKeys(text: string): SourceKey[] {
  const lineOf = (index: number): number => text.slice(0, index).split('\n').length;
  const found: Array<SourceKey & { index: number }> = [];
  for (const match of text.matchAll(CALL)) found.push({ index: match.index, line: lineOf(match.index), key: match[1] ?? '' });
  for (const match of text.matchAll(TERNARY)) {
    for (const key of [match[1], match[2]]) found.push({ index: match.index, line: lineOf(match.index), key: key ?? '' });
  }
  return found.sort((a, b) => a.index - b.index).map(({ line, key }) => ({ line, key }));
}
