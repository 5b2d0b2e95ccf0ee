import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as the SMTP server received it, with its text body decoded. */
export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

/** Undoes quoted-printable: soft line breaks and =XX escapes (nodemailer wraps long lines such as links). */
function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_whole, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** A real SMTP server on a free local port, keeping what it receives: the server under test mails it over SMTP_URL. */
export async function startSmtpInbox() {
  const received: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('latin1')));
      stream.on('end', () => {
        const split = raw.indexOf('\r\n\r\n');
        const headers = raw.slice(0, split);
        const subject = /^Subject: (.*)$/m.exec(headers)?.[1]?.trim() ?? '';
        const quoted = /Content-Transfer-Encoding: quoted-printable/i.test(headers);
        const body = raw.slice(split + 4);
        received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), subject, text: quoted ? decodeQuotedPrintable(body) : body });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Messages to `to`, oldest first. */
    to: (to: string) => received.filter((mail) => mail.to.includes(to.toLowerCase())),
    /** The newest message to `to`, waiting briefly since some mail is sent in the background. */
    async latest(to: string): Promise<ReceivedMail> {
      for (let tries = 0; tries < 100; tries += 1) {
        const mail = received.filter((message) => message.to.includes(to.toLowerCase())).at(-1);
        if (mail) return mail;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no mail reached ${to}`);
    },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
