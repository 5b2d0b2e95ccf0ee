/** Codes the e2e servers "send", read from their development outbox (/dev/outbox) as a person reads their mail. */
import { expect, type APIRequestContext } from '@playwright/test';

/**
 * The 6-digit code in the newest message to `to` (an address, or a phone for texts), waiting for it to arrive;
 * a code in `notIn` (one read before) does not count, so a resent code is waited for.
 */
export async function outboxCode(request: APIRequestContext, to: string, notIn: readonly string[] = []): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/dev/outbox?to=${encodeURIComponent(to)}`, { headers: { accept: 'application/json' } });
        const { messages } = (await response.json()) as { messages: Array<{ text: string }> };
        code = messages[0]?.text.match(/(?:Your code is |#)(\d{6})/)?.[1];
        return code !== undefined && !notIn.includes(code);
      },
      { message: `a code sent to ${to}` },
    )
    .toBe(true);
  return code as string;
}
