/**
 * CSP hashes for a page's inline <style> elements: the prerendered login page inlines its stylesheet
 * (scripts/prerender.ts), and the policy allows exactly that text, never inline styles at large.
 */
import crypto from 'node:crypto';

/** "'sha256-…'" for each <style> element of `html`, in order. */
export function inlineStyleHashes(html: string): string[] {
  return [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(([, text = '']) => `'sha256-${crypto.createHash('sha256').update(text).digest('base64')}'`);
}
