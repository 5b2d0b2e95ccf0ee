import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A client app's back end on 127.0.0.1 that keeps every logout token the provider POSTs to it. */
export async function startLogoutReceiver(): Promise<{ origin: string; tokens: string[]; close(): Promise<void> }> {
  const tokens: string[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const token = new URLSearchParams(body).get('logout_token');
      if (request.method === 'POST' && request.url === '/logout' && token) tokens.push(token);
      response.writeHead(token ? 200 : 400, { 'cache-control': 'no-store' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, tokens, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
