import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as the SMTP server received it. */
export interface CapturedMail {
  from: string;
  to: string[];
  subject: string;
  /** The raw message (headers and body), as sent over the wire. */
  raw: string;
}

/** A real SMTP server on a free loopback port that keeps every message it receives. */
export interface SmtpCapture {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL or createMailer. */
  url: string;
  messages: CapturedMail[];
  /** Messages to `to`, oldest first. */
  to(to: string): CapturedMail[];
  /** Waits (briefly: mail goes out in the background) until `to` has at least `count` messages; returns them. */
  waitFor(to: string, count?: number): Promise<CapturedMail[]>;
  /** The newest message to `to`, once one has arrived. */
  latest(to: string): Promise<CapturedMail>;
  /** The 6-digit code in the newest message to `to`. */
  latestCode(to: string): Promise<string>;
  close(): Promise<void>;
}

const WAIT_STEP_MS = 20;
const WAIT_STEPS = 250;

/** Quoted-printable soft line breaks and escapes, undone, so a test can read the body as written. */
function readableBody(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_whole, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Starts the capture server; close it in afterAll. */
export async function startSmtpCapture(): Promise<SmtpCapture> {
  const messages: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      stream.on('end', () => {
        const subject = /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '';
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          subject,
          raw: readableBody(raw),
        });
        callback();
      });
    },
  });
  // A sender that goes away mid-connection (a server process stopped with its mail pool open) resets the socket;
  // smtp-server reports that as an 'error' event, which would end the whole test process if nobody listened.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') process.stderr.write(`smtp capture: ${error.message}\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const to = (address: string) => messages.filter((message) => message.to.includes(address.toLowerCase()));
  const waitFor = async (address: string, count = 1) => {
    for (let step = 0; step < WAIT_STEPS && to(address).length < count; step += 1) await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    const found = to(address);
    if (found.length < count) throw new Error(`expected ${count} message(s) to ${address}, got ${found.length}`);
    return found;
  };
  const latest = async (address: string) => (await waitFor(address)).at(-1)!;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to,
    waitFor,
    latest,
    async latestCode(address) {
      const code = /Your code is (\d{6})/.exec((await latest(address)).raw)?.[1];
      if (!code) throw new Error(`the newest message to ${address} carries no code`);
      return code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
