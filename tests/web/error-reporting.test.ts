/**
 * Error reporting: the SDK is pointed at a local endpoint standing in for the service, and the event that
 * arrives carries the release and environment, and no password, code, token or masked destination.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorReportingOptions, startErrorReporting } from '../../src/services/error-reporting.ts';
import { reportError } from '../../src/services/report-error.ts';
import { scrubEvent } from '../../src/services/scrub-event.ts';

let server: Server;
let dsn: string;
const envelopes: string[] = [];
let arrived: () => void = () => undefined;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      if (request.url?.includes('/envelope/')) envelopes.push(body);
      response.writeHead(200, { 'access-control-allow-origin': '*' }).end('{}');
      if (body.includes('"type":"event"')) arrived();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  dsn = `http://publickey@127.0.0.1:${(server.address() as AddressInfo).port}/1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('error reporting', () => {
  it('is configured as the spec says', () => {
    const options = errorReportingOptions('http://key@localhost/1');
    expect(options).toMatchObject({ release: 'single-sign-on@0.1.0', environment: 'prod', tracesSampleRate: 1, normalizeDepth: 3, normalizeMaxBreadth: 1000, maxValueLength: 250 });
    const targets = options.tracePropagationTargets ?? [];
    const propagates = (url: string) => targets.some((target) => (typeof target === 'string' ? url.includes(target) : target.test(url)));
    expect(['http://localhost:8080/x', '/api/sso/v3/auth/login'].map(propagates)).toEqual([true, true]);
    expect(['https://other.example/api', '//other.example/api'].map(propagates)).toEqual([false, false]);
  });

  it('stays off without a DSN', async () => {
    await expect(startErrorReporting(undefined)).resolves.toBe(false);
  });

  it('sends a scrubbed event to the configured endpoint', async () => {
    await expect(startErrorReporting(dsn)).resolves.toBe(true);
    const received = new Promise<void>((resolve) => (arrived = resolve));
    const error = Object.assign(new Error('Sign-in failed for ann@example.com with code 123456, sent to a***@e***.com'), {
      password: 'Secret-Passw0rd!',
      token: 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln',
    });
    reportError(error);
    await received;
    const sent = envelopes.join('\n');
    expect(sent).toContain('single-sign-on@0.1.0');
    expect(sent).toContain('"environment":"prod"');
    expect(sent).toContain('Sign-in failed for [email] with code [code], sent to [masked]');
    for (const secret of ['ann@example.com', '123456', 'a***@e***.com', 'Secret-Passw0rd!', 'eyJhbGciOiJFUzI1NiJ9']) expect(sent).not.toContain(secret);
  });
});

describe('scrubbing', () => {
  it('filters secret fields and secret-looking values anywhere in an event', () => {
    const event = {
      request: { url: 'https://sso.example/auth/callback?code=abc&state=xyz&client_id=app', data: { email: 'ann@example.com', password: 'x', status_code: 400 } },
      breadcrumbs: [{ message: 'POST /api/sso/v3/auth/login', data: { Authorization: 'Bearer eyJa.eyJb.c' } }],
      extra: { destination: '+44*******89' },
    };
    expect(scrubEvent(event)).toEqual({
      request: { url: 'https://sso.example/auth/callback?code=[filtered]&state=[filtered]&client_id=app', data: { email: '[filtered]', password: '[filtered]', status_code: 400 } },
      breadcrumbs: [{ message: 'POST /api/sso/v3/auth/login', data: { Authorization: '[filtered]' } }],
      extra: { destination: '[filtered]' },
    });
  });
});
