/**
 * A stand-in for fast-uri (aliased in vite.config.ts for the browser bundle). rjsf uses only
 * `resolve` and `equal`, to follow `$ref`s between schemas; the browser's URL parser does the
 * same for the absolute `$id`s our schemas carry, at none of the bundle cost.
 */

/** Splits off the fragment so relative references can be joined by hand when URL cannot parse. */
function withoutFragment(uri: string): string {
  const hash = uri.indexOf('#');
  return hash === -1 ? uri : uri.slice(0, hash);
}

/** `relative` resolved against `base` (RFC 3986), as fast-uri's `resolve`. */
export function resolve(base: string, relative: string): string {
  try {
    return new URL(relative, base).href;
  } catch {
    // A relative base (or none): only fragment references can be resolved without a scheme.
    return relative.startsWith('#') ? `${withoutFragment(base)}${relative}` : relative;
  }
}

/** Normalised form used for comparison; URL lower-cases scheme and host and drops default ports. */
function normalize(uri: string): string {
  try {
    const href = new URL(uri).href;
    return href.endsWith('#') ? href.slice(0, -1) : href;
  } catch {
    return uri.endsWith('#') ? uri.slice(0, -1) : uri;
  }
}

/** Whether two URIs name the same resource, as fast-uri's `equal`. */
export function equal(a: string, b: string): boolean {
  return normalize(a) === normalize(b);
}

const uriResolver = { resolve, equal };

export default uriResolver;
