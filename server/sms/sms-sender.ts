import crypto from 'node:crypto';
import type { Config } from '../config.ts';
import { LIMITS } from '../limits.ts';
import type { Queryable } from '../db/database.ts';

/** One text message. */
export interface SmsMessage {
  /** E.164, such as +4915112345678. */
  to: string;
  text: string;
}

/** Sends text messages through the configured provider. */
export interface SmsSender {
  /** Sends `message`; `via` as for Mailer.send (the caller's transaction, used by the durable outbox). */
  send(message: SmsMessage, via?: Queryable): Promise<void>;
}

/** Development: texts land in the dev outbox beside the mail (subject "SMS"), where tests and developers read them. */
function outboxSender(db: Queryable): SmsSender {
  return {
    async send(message) {
      await db.query('insert into mail_outbox (id, recipient, subject, text_body) values ($1, $2, $3, $4)', [crypto.randomUUID(), message.to, 'SMS', message.text]);
    },
  };
}

/** An HTTP provider: POST { from, to, text } as JSON with a bearer token; any answer but 2xx is a failure. */
function httpSender(url: string, token: string, sender: string, fetchImpl: typeof fetch): SmsSender {
  return {
    async send(message) {
      const response = await fetchImpl(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ from: sender, to: message.to, text: message.text }),
        signal: AbortSignal.timeout(LIMITS.SMS_PROVIDER_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`SMS provider answered ${response.status}`);
    },
  };
}

/** The SMS sender the configuration names: the HTTP provider when SMS_PROVIDER_URL is set, else the dev outbox. */
export function createSmsSender(deps: { config: Pick<Config, 'sms'>; db: Queryable; fetchImpl?: typeof fetch }): SmsSender {
  const { providerUrl, providerToken, sender } = deps.config.sms;
  if (providerUrl && providerToken) return httpSender(providerUrl, providerToken, sender, deps.fetchImpl ?? fetch);
  return outboxSender(deps.db);
}

/**
 * The text of a sign-in code. The last line is the origin-bound one-time code format (`@host #code`), which lets
 * phones offer the code for autofill on that site only (WebOTP / the one-time-code autocomplete).
 */
export function smsCodeText(code: string, publicUrl: string, minutes: number): string {
  return `Your Payments Network sign-in code is ${code}. It expires in ${minutes} minutes. Never share it.\n\n@${new URL(publicUrl).host} #${code}`;
}
