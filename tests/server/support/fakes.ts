import type { Mailer, MailMessage } from '../../../server/mail/mailer.ts';

/** A clock tests move by hand. */
export function fakeClock(start = Date.UTC(2026, 10, 22, 9, 0, 0)) {
  let now = start;
  return {
    now: () => now,
    advance(seconds: number) {
      now += seconds * 1000;
    },
  };
}

/** A mailer that keeps what it is given, so tests can read codes and links. */
export function capturingMailer() {
  const sent: MailMessage[] = [];
  const mailer: Mailer = {
    async send(message) {
      sent.push(message);
    },
  };
  return {
    mailer,
    sent,
    /** Messages to `to`, oldest first. */
    to: (to: string) => sent.filter((message) => message.to.toLowerCase() === to.toLowerCase()),
    /** The 6-digit code in the newest message to `to`, waiting briefly since mail is sent in the background. */
    async latestCode(to: string): Promise<string> {
      for (let tries = 0; tries < 50; tries += 1) {
        const code = /\b(\d{6})\b/.exec(this.to(to).at(-1)?.text ?? '')?.[1];
        if (code) return code;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`no code was mailed to ${to}`);
    },
  };
}

/** Lets mail sent in the background land. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 30));
