import crypto from 'node:crypto';
import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';
import { LIMITS } from '../limits.ts';
import type { Queryable } from '../db/database.ts';

/** One plain-text email. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail: over SMTP when SMTP_URL is set, else into the development outbox. */
export interface Mailer {
  /**
   * Sends `message`. Through the durable outbox (server/outbox), `via` is the caller's transaction: the message is
   * written in it, so it is sent if and only if that transaction commits. A transport ignores `via`.
   */
  send(message: MailMessage, via?: Queryable): Promise<void>;
}

/**
 * Every message is built by nodemailer. With SMTP_URL it is sent over SMTP; without it (development only, the
 * config refuses production) it is stored in the database's outbox, which every server process can show.
 */
export function createMailer(deps: { config: Pick<Config, 'smtpUrl' | 'mailFrom'>; db: Queryable }): Mailer {
  const { config, db } = deps;
  const timeouts = { connectionTimeout: LIMITS.SMTP_TIMEOUT_MS, greetingTimeout: LIMITS.SMTP_TIMEOUT_MS, socketTimeout: LIMITS.SMTP_TIMEOUT_MS };
  const transport = config.smtpUrl ? nodemailer.createTransport({ url: config.smtpUrl, ...timeouts }) : nodemailer.createTransport({ jsonTransport: true });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: config.mailFrom, to: message.to, subject: message.subject, text: message.text });
      if (config.smtpUrl) return;
      const built = JSON.parse(String((info as { message: string }).message)) as { subject: string; text: string };
      await db.query('insert into mail_outbox (id, recipient, subject, text_body) values ($1, $2, $3, $4)', [
        crypto.randomUUID(),
        message.to,
        built.subject,
        built.text,
      ]);
    },
  };
}

/** Where a failed background send is reported (a request's logger). */
export interface MailLog {
  warn(details: object, text: string): void;
}

/**
 * Sends without making the request wait: a slow or failing mail server must neither delay the answer (which would
 * tell an observer that the account exists) nor fail it. Failures are logged without the message body.
 */
export function sendInBackground(mailer: Mailer, message: MailMessage, log: MailLog): void {
  mailer.send(message).catch((error: unknown) => {
    log.warn({ err: { message: error instanceof Error ? error.message : String(error) }, subject: message.subject }, 'sending mail failed');
  });
}

/** Reports a failed background send to a request's logger, without the message. */
export function mailFailureLogger(log: MailLog): (error: unknown) => void {
  return (error) => log.warn({ err: { message: error instanceof Error ? error.message : String(error) } }, 'sending mail failed');
}
