/**
 * Adds a third-party script (tag manager, bot check) to the page and resolves once it ran. The page's
 * Content-Security-Policy allows each such origin by name; when the page's own entry script carries a
 * CSP nonce, the new script gets it too, so the same code works under a nonce-based policy.
 */

/** Loads `src` once; rejects when the browser could not fetch or run it. */
export function loadScript(src: string, doc: Document = document): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = doc.createElement('script');
    script.src = src;
    script.async = true;
    const nonce = doc.querySelector<HTMLScriptElement>('script[nonce]')?.nonce;
    if (nonce) script.nonce = nonce;
    script.addEventListener('load', () => resolve());
    script.addEventListener('error', () => {
      script.remove();
      reject(new Error(`Could not load ${new URL(src, doc.baseURI).origin}`));
    });
    doc.head.append(script);
  });
}
