/**
 * The bot-check widget's latest token, handed to the next submit of a bot-checked step. A token is good
 * for one verification, so taking it clears it and asks the widget for a fresh one.
 */

let token = '';
let renew: () => void = () => undefined;

/** Records the token the widget issued (empty when it expired or failed). */
export function setBotCheckToken(next: string): void {
  token = next;
}

/** Registers how the widget issues a fresh token. */
export function onBotCheckRenew(next: () => void): void {
  renew = next;
}

/** The token for this submit; the widget is asked for the next one. */
export function takeBotCheckToken(): string {
  const taken = token;
  token = '';
  renew();
  return taken;
}
