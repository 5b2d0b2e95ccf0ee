import crypto from 'node:crypto';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

const STYLE =
  'body{font-family:system-ui,sans-serif;background:#f4f5f7;color:#1d2433;margin:0;padding:48px 16px}' +
  'main{max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:24px 28px;box-shadow:0 1px 3px rgba(0,0,0,.15)}' +
  'h1{font-size:1.4rem;margin:0 0 12px}code{background:#f0f1f4;padding:1px 4px;border-radius:3px}' +
  'table{border-collapse:collapse;width:100%;margin:12px 0}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #e3e5ea;vertical-align:top}th{white-space:nowrap}td{word-break:break-all}' +
  '.button,button{display:inline-block;font:inherit;text-decoration:none;padding:8px 14px;margin:4px 8px 0 0;border-radius:4px;' +
  'border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer}.secondary{background:#fff;color:#1d4ed8}a{color:#1d4ed8}';

// The one inline style is allowed by its hash, so the policy needs no 'unsafe-inline'.
const STYLE_HASH = crypto.createHash('sha256').update(STYLE).digest('base64');

/** Security headers for the server-rendered pages (error, sign-out, demo), which do not load the web app. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** A small, self-contained HTML page; `body` must already be escaped. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}
