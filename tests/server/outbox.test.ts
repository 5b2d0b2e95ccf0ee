import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../server/crypto/secret-box.ts';
import type { Database } from '../../server/db/database.ts';
import { createMailer, type MailMessage, type Mailer } from '../../server/mail/mailer.ts';
import { createOutbox, type Outbox } from '../../server/outbox/outbox.ts';
import type { SmsMessage, SmsSender } from '../../server/sms/sms-sender.ts';
import { testBackends } from './support/databases.ts';
import { startSmtpCapture, type SmtpCapture } from './support/smtp-capture.ts';

const box = createSecretBox(crypto.randomBytes(32));
const quiet = { warn: () => undefined };

/** A transport that records what it delivered, and fails while `failing` is set. */
function recordingTransports() {
  const mail: MailMessage[] = [];
  const texts: SmsMessage[] = [];
  const state = { failing: false };
  const mailer: Mailer = {
    async send(message) {
      if (state.failing) throw new Error('SMTP server unreachable');
      mail.push(message);
    },
  };
  const sms: SmsSender = {
    async send(message) {
      texts.push(message);
    },
  };
  return { mail, texts, state, transports: { mailer, sms } };
}

function commitSignal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => undefined as void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** Stands for a process killed right after its commit: signals the commit, then never lets the sends after it run. */
function dieAfter(committed: { resolve: () => void }): Promise<void> {
  committed.resolve();
  return new Promise<void>(() => undefined);
}

/** Makes every message due now, as if its back-off had run out. */
const timePasses = (db: Database) => db.query('update outbox set next_attempt_at = now() where sent_at is null');

describe.each(testBackends().filter((backend) => backend.name !== 'pglite-disk'))('the durable outbox on $name', (backend) => {
  let db: Database;
  beforeAll(async () => {
    db = await backend.open();
  });
  afterAll(async () => {
    await db.close();
  });

  it('sends a message committed with its cause even when the process dies before sending it', async () => {
    const dying = createOutbox({ db, box, transports: recordingTransports().transports, log: quiet });
    // The cause and its message commit together; then the process freezes for good before its send runs.
    const committed = commitSignal();
    void db.transaction(async (tx) => {
      tx.afterCommit(() => dieAfter(committed));
      await dying.mailer.send({ to: 'crash@example.com', subject: 'Your code', text: 'Your code is 123456' }, tx);
    });
    await committed.promise;
    const next = recordingTransports();
    const survivor = createOutbox({ db, box, transports: next.transports, log: quiet });
    expect(await survivor.backlog()).toBeGreaterThanOrEqual(1);
    await survivor.runOnce();
    expect(next.mail.filter((message) => message.to === 'crash@example.com')).toHaveLength(1);
  });

  it('sends nothing when the cause rolls back', async () => {
    const recorder = recordingTransports();
    const outbox = createOutbox({ db, box, transports: recorder.transports, log: quiet });
    await expect(
      db.transaction(async (tx) => {
        await outbox.sms.send({ to: '+447700900001', text: 'never' }, tx);
        throw new Error('the cause failed');
      }),
    ).rejects.toThrow('the cause failed');
    await timePasses(db);
    await outbox.runOnce();
    expect(recorder.texts.filter((text) => text.to === '+447700900001')).toHaveLength(0);
  });

  it('keeps a message whose send failed, retries it after the back-off and marks it sent once', async () => {
    const recorder = recordingTransports();
    const outbox = createOutbox({ db, box, transports: recorder.transports, log: quiet });
    recorder.state.failing = true;
    await expect(outbox.mailer.send({ to: 'retry@example.com', subject: 'Hello', text: 'again' })).rejects.toThrow('SMTP server unreachable');
    recorder.state.failing = false;
    // Not before the back-off...
    await outbox.runOnce();
    expect(recorder.mail).toHaveLength(0);
    // ...then once, and never again.
    await timePasses(db);
    await outbox.runOnce();
    await outbox.runOnce();
    expect(recorder.mail.filter((message) => message.to === 'retry@example.com')).toHaveLength(1);
    const row = await db.query<{ attempts: number; sent: boolean }>("select attempts, sent_at is not null as sent from outbox where last_error is null and attempts = 2");
    expect(row.rows.length).toBeGreaterThanOrEqual(1);
  });

  it('keeps addresses and texts sealed at rest', async () => {
    const outbox = createOutbox({ db, box, transports: recordingTransports().transports, log: quiet });
    await db.transaction((tx) => outbox.sms.send({ to: '+447700900777', text: 'Your code is 777777' }, tx).then(() => tx.afterCommit(async () => undefined)));
    const raw = await db.query<{ payload_sealed: string }>('select payload_sealed from outbox');
    expect(raw.rows.some((row) => row.payload_sealed.includes('777777') || row.payload_sealed.includes('+447700900777'))).toBe(false);
  });

  it('sends each message exactly once while several processes work the same outbox', async () => {
    await timePasses(db);
    await createOutbox({ db, box, transports: recordingTransports().transports, log: quiet }).runOnce();
    const writer = createOutbox({ db, box, transports: recordingTransports().transports, log: quiet });
    const committed = commitSignal();
    void db.transaction(async (tx) => {
      tx.afterCommit(() => dieAfter(committed));
      for (let index = 0; index < 60; index += 1) await writer.mailer.send({ to: `many${index}@example.com`, subject: 'Batch', text: `message ${index}` }, tx);
    });
    await committed.promise;
    const workers = [recordingTransports(), recordingTransports(), recordingTransports()];
    const outboxes: Outbox[] = workers.map((worker) => createOutbox({ db, box, transports: worker.transports, log: quiet }));
    await Promise.all(outboxes.map((outbox) => outbox.runOnce()));
    const delivered = workers.flatMap((worker) => worker.mail.map((message) => message.to)).filter((to) => to.startsWith('many'));
    expect(delivered).toHaveLength(60);
    expect(new Set(delivered).size).toBe(60);
    expect(await outboxes[0]!.backlog()).toBe(0);
  });
});

describe('the outbox with a real SMTP server that is down, then back', () => {
  let smtp: SmtpCapture;
  let db: Database;
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    db = await testBackends()[0]!.open();
  });
  afterAll(async () => {
    await smtp.close();
    await db.close();
  });

  it('retries a message the SMTP server refused and delivers it once it answers', async () => {
    const port = new URL(smtp.url).port;
    await smtp.close();
    const mailer = createMailer({ config: { smtpUrl: `smtp://127.0.0.1:${port}`, mailFrom: 'sso@example.com' }, db });
    const outbox = createOutbox({ db, box, transports: { mailer, sms: { send: async () => undefined } }, log: quiet });
    await expect(outbox.mailer.send({ to: 'later@example.com', subject: 'Later', text: 'Delivered after a retry' })).rejects.toThrow();
    expect(await outbox.backlog()).toBe(1);
    smtp = await startSmtpCapture();
    const revived = createMailer({ config: { smtpUrl: smtp.url, mailFrom: 'sso@example.com' }, db });
    const again = createOutbox({ db, box, transports: { mailer: revived, sms: { send: async () => undefined } }, log: quiet });
    await timePasses(db);
    expect(await again.runOnce()).toBe(1);
    expect((await smtp.waitFor('later@example.com')).map((message) => message.subject)).toEqual(['Later']);
    expect(await again.backlog()).toBe(0);
  });
});
