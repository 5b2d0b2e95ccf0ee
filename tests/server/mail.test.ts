import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../server/mail/mailer.ts';
import { resetCodeMail } from '../../server/mail/templates.ts';
import { testBackends } from './support/databases.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

describe('mail over SMTP', () => {
  const received: Array<{ from: string; to: string[]; raw: string }> = [];
  let smtp: SMTPServer;
  let port: number;
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
        stream.on('end', () => {
          received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('delivers a reset code through a real SMTP server, from MAIL_FROM', async () => {
    const db = await testBackends()[0]!.open();
    const mailer = createMailer({ config: { smtpUrl: `smtp://127.0.0.1:${port}`, mailFrom: 'Sign-In <signin@payments.example>' }, db });
    await mailer.send(resetCodeMail('ada@example.com', '123456', 10));
    expect(received).toHaveLength(1);
    expect(received[0]?.from).toBe('signin@payments.example');
    expect(received[0]?.to).toEqual(['ada@example.com']);
    expect(received[0]?.raw).toContain('Subject: Your password reset code');
    expect(received[0]?.raw).toContain('Your code is 123456');
    const outbox = await db.query('select 1 from mail_outbox');
    expect(outbox.rows).toHaveLength(0);
    await db.close();
  });
});

describe('the development outbox', () => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startTestApp();
  });
  afterAll(async () => {
    await server.close();
  });

  it('shows mail that would have been sent, newest first, as JSON and as a page', async () => {
    await server.context.mailer.send(resetCodeMail('first@example.com', '111111', 10));
    await server.context.mailer.send(resetCodeMail('second@example.com', '<b>2</b>', 10));
    const json = await server.app.inject({ method: 'GET', url: '/dev/outbox' });
    const messages = json.json().messages as Array<{ to: string; subject: string; text: string }>;
    expect(messages.map((message) => message.to).slice(0, 2).sort()).toEqual(['first@example.com', 'second@example.com']);
    expect(messages[0]).toMatchObject({ subject: 'Your password reset code' });
    const filtered = await server.app.inject({ method: 'GET', url: '/dev/outbox?to=FIRST@example.com' });
    expect(filtered.json().messages.map((message: { to: string }) => message.to)).toEqual(['first@example.com']);
    const page = await server.app.inject({ method: 'GET', url: '/dev/outbox', headers: { accept: 'text/html' } });
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('&lt;b&gt;2&lt;/b&gt;');
    expect(page.body).not.toContain('<b>2</b>');
  });

  it('does not exist in production', async () => {
    const production = await startTestApp({ env: { NODE_ENV: 'production', MASTER_KEY: randomBytes(32).toString('base64url'), PUBLIC_URL: 'https://sso.example.com', SMTP_URL: 'smtp://127.0.0.1:1' } });
    const response = await production.app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(response.statusCode).toBe(404);
    await production.close();
  });
});
