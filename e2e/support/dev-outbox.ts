/** What the e2e servers "send", read from their development outbox (/dev/outbox) as a person reads their mail. */
import { expect, type APIRequestContext } from '@playwright/test';

/** A 6-digit code as the mails and texts carry it. */
const CODE = /(?:Your code is |#)(\d{6})/;

/**
 * The first group of `pattern` in the newest message to `to` (an address, or a phone for texts) that carries it,
 * waiting for one; a value in `notIn` (one read before) does not count, so a resent one is waited for. A newer
 * message without it (a security notice sent since) does not hide it.
 */
export async function outboxMatch(
  request: APIRequestContext,
  to: string,
  pattern: RegExp,
  options: { notIn?: readonly string[]; timeout?: number } = {},
): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/dev/outbox?to=${encodeURIComponent(to)}`, { headers: { accept: 'application/json' } });
        expect(response.ok()).toBe(true);
        const { messages } = (await response.json()) as { messages: Array<{ text: string }> };
        found = messages.map((message) => message.text.match(pattern)?.[1]).find((match) => match !== undefined);
        return found !== undefined && !(options.notIn ?? []).includes(found);
      },
      { message: `a message to ${to} matching ${pattern}`, timeout: options.timeout },
    )
    .toBe(true);
  return found as string;
}

/** The 6-digit code in the newest message to `to` that carries one, other than those in `notIn`. */
export function outboxCode(request: APIRequestContext, to: string, notIn: readonly string[] = []): Promise<string> {
  return outboxMatch(request, to, CODE, { notIn });
}
