/** One-time codes as people paste them ("123 456", "123-456", "Your code is 123456"). */

/** The digits of `input`, cut to `length` when given. */
export function normalizeCode(input: string, length?: number): string {
  const digits = input.replace(/\D/g, '');
  return length === undefined ? digits : digits.slice(0, length);
}
