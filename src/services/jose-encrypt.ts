/**
 * The only jose functions the app uses, in one module so the bundler splits exactly these into
 * the lazily loaded encryption chunk.
 */
export { CompactEncrypt, importJWK } from 'jose';
