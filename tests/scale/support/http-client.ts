import http from 'node:http';
import { CompactEncrypt, importJWK, type JWK } from 'jose';
import { CookieJar } from '../../server/support/cookie-jar.ts';

/** One HTTP answer, with the instance that served it (HAProxy's X-Served-By). */
export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  servedBy: string | undefined;
  json<T = Record<string, unknown>>(): T;
}

/** How long one request may take before the client gives up (ms). */
const REQUEST_TIMEOUT_MS = 30_000;

/** Sends one request over real HTTP; `localAddress` picks the client's own loopback address (127.0.0.x). */
export function httpRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {},
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: options.method ?? 'GET', headers: options.headers, localAddress: options.localAddress, timeout: REQUEST_TIMEOUT_MS }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body,
          servedBy: typeof response.headers['x-served-by'] === 'string' ? response.headers['x-served-by'] : undefined,
          json: <T>() => JSON.parse(body) as T,
        }),
      );
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`${options.method ?? 'GET'} ${url} took longer than ${REQUEST_TIMEOUT_MS} ms`)));
    request.on('error', reject);
    request.end(options.body);
  });
}

/** A browser over real HTTP: a cookie jar, a fixed client address, and a log of which instance served each request. */
export class HttpBrowser {
  readonly jar = new CookieJar();
  readonly servedBy: string[] = [];

  readonly base: string;
  readonly localAddress: string;

  // No parameter properties: the bench imports this file under Node's type stripping, which does not support them.
  constructor(base: string, localAddress = '127.0.0.1') {
    this.base = base;
    this.localAddress = localAddress;
  }

  async request(method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer> {
    const target = new URL(url, this.base);
    const answer = await httpRequest(target.href, {
      method,
      localAddress: this.localAddress,
      headers: { cookie: this.jar.header(target.pathname), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    this.jar.store(answer.headers['set-cookie']);
    if (answer.servedBy) this.servedBy.push(answer.servedBy);
    return answer;
  }

  /** Encrypts `value` to the server's credential key with a fresh nonce, as the web app does. */
  async encrypt(value: string): Promise<string> {
    const key = (await this.request('GET', '/api/sso/v3/crypto/rsa-public-key')).json<{ kid: string; jwk: JWK; nonce: string }>();
    const publicKey = await importJWK(key.jwk, 'RSA-OAEP-256');
    return new CompactEncrypt(new TextEncoder().encode(JSON.stringify({ v: value, n: key.nonce })))
      .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: key.kid })
      .encrypt(publicKey);
  }
}
