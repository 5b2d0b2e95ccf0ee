import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/database.ts';

interface OutboxRow {
  id: string;
  recipient: string;
  subject: string;
  text_body: string;
  created_at: Date;
}

/** How many messages the outbox shows. */
const OUTBOX_LIMIT = 50;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] ?? character);

/** `GET /dev/outbox`: the mail the server would have sent, newest first, as JSON or as a page. Development only. */
export function outboxRoutes(deps: { db: Queryable }) {
  return async (app: FastifyInstance) => {
    app.get<{ Querystring: { to?: string } }>('/dev/outbox', async (request, reply) => {
      const to = typeof request.query.to === 'string' ? request.query.to.trim().toLowerCase() : undefined;
      const result = await deps.db.query<OutboxRow>(
        `select id, recipient, subject, text_body, created_at from mail_outbox
         where $1::text is null or lower(recipient) = $1 order by created_at desc limit ${OUTBOX_LIMIT}`,
        [to ?? null],
      );
      const messages = result.rows.map((row) => ({ id: row.id, to: row.recipient, subject: row.subject, text: row.text_body, created_at: new Date(row.created_at).toISOString() }));
      reply.header('cache-control', 'no-store');
      if (!(request.headers.accept ?? '').includes('text/html')) return { messages };
      const items = messages
        .map((message) => `<article><h2>${escapeHtml(message.subject)}</h2><p class="meta">to ${escapeHtml(message.to)} at ${escapeHtml(message.created_at)}</p><pre>${escapeHtml(message.text)}</pre></article>`)
        .join('');
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
        .send(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Dev outbox</title><style>body{font:15px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#0b2545}article{border:1px solid #d0d7e2;border-radius:8px;padding:1rem;margin:1rem 0}h2{margin:0;font-size:1.05rem}.meta{color:#5a6b85;margin:.25rem 0}pre{white-space:pre-wrap;font:inherit}</style></head><body><h1>Dev outbox</h1><p>Mail the server would have sent (development only; set SMTP_URL to send for real).</p>${items || '<p>No mail yet.</p>'}</body></html>`,
        );
    });
  };
}
