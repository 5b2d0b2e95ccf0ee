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

/** The brand of the web app (src/ui/theme.css) for the pages the provider serves itself, which do not load the app. */
export const PRODUCT_STYLE =
  'body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1b2433;background:#eef3f8;line-height:1.5}' +
  '.page{min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;padding:24px 12px;gap:16px;box-sizing:border-box}' +
  'main{width:100%;max-width:420px;box-sizing:border-box;background:#fff;border-radius:10px;border-top:4px solid #14b8a6;box-shadow:0 8px 24px rgba(11,37,69,.12);padding:28px 24px}' +
  '.logo{display:block;width:180px;height:40px;margin-bottom:20px}h1{font-size:1.5rem;color:#0b2545;margin:0 0 12px}p{margin:0 0 16px}' +
  '.actions{display:flex;flex-direction:column;gap:10px;margin-top:8px}' +
  '.button,button{display:block;width:100%;box-sizing:border-box;font:inherit;font-weight:600;text-align:center;text-decoration:none;padding:12px 16px;border-radius:10px;border:1px solid #0f766e;background:#0f766e;color:#fff;cursor:pointer}' +
  '.secondary{background:#fff;color:#0f766e}a{color:#0f766e}:focus-visible{outline:3px solid #2563eb;outline-offset:2px}' +
  'footer{text-align:center;font-size:.875rem;color:#52607a}footer p{margin:4px 0}';

/** The style's hash, for a page policy that allows this one inline style and nothing else. */
const PRODUCT_STYLE_HASH = crypto.createHash('sha256').update(PRODUCT_STYLE).digest('base64');

// The inline styles are allowed by their hashes, so the policy needs no 'unsafe-inline'.
const STYLE_HASH = crypto.createHash('sha256').update(STYLE).digest('base64');

/**
 * Security headers for the server-rendered pages (error, sign-out, demo), which do not load the web app. A page whose
 * form leads to a client app (a form_post answer, or a sign-out confirmation the provider answers with a redirect to
 * the app's registered post-logout address) names that app's origin in `formTargets`: browsers apply `form-action`
 * to the redirect that follows a form's submission too, so `'self'` alone would stop the browser on our page.
 */
export function pageHeaders(formTargets: readonly string[] = []): Readonly<Record<string, string>> {
  const origins = [...new Set(formTargets.map((target) => URL.parse(target)?.origin).filter((origin) => origin !== undefined && origin !== 'null'))];
  const formAction = ["'self'", ...origins].join(' ');
  return {
    'content-security-policy': `default-src 'none'; style-src 'sha256-${STYLE_HASH}' 'sha256-${PRODUCT_STYLE_HASH}'; img-src 'self'; form-action ${formAction}; base-uri 'none'; frame-ancestors 'none'`,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

/** The headers of a page whose forms only post to this server. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = pageHeaders();

/** A small, self-contained HTML page; `body` must already be escaped. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}
