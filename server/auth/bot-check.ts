/**
 * The bot-check adapter: verifies a widget token with the bot-check service (Cloudflare Turnstile's
 * siteverify protocol: a form POST of secret, response and remoteip, answered `{ success }`). Any failure to
 * get a clear yes (an unreachable service, a slow one, a malformed answer) counts as a failed check.
 */

/** Where and how to verify. */
export interface BotCheckOptions {
  secret: string;
  verifyUrl: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** Verifies tokens; resolves true only when the service says the token is good. */
export interface BotCheckVerifier {
  verify(token: string, remoteIp: string): Promise<boolean>;
}

/** The longest token the widget issues is about 2 KB; anything far longer is refused unread. */
const MAX_TOKEN_LENGTH = 4096;

export function createBotCheckVerifier(options: BotCheckOptions): BotCheckVerifier {
  const fetchImpl = options.fetch ?? fetch;
  return {
    async verify(token, remoteIp) {
      if (token === '' || token.length > MAX_TOKEN_LENGTH) return false;
      try {
        const response = await fetchImpl(options.verifyUrl, {
          method: 'POST',
          body: new URLSearchParams({ secret: options.secret, response: token, remoteip: remoteIp }),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        if (!response.ok) return false;
        const answer = (await response.json()) as { success?: unknown };
        return answer.success === true;
      } catch {
        return false;
      }
    },
  };
}
