import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMetricsServer } from '../../server/observability/metrics-server.ts';
import { signIn, openLoginScreen, submitLogin, TestBrowser } from './support/sign-in.ts';
import { testBackends } from './support/databases.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

/** The value of one sample line of the Prometheus text, e.g. `sso_sign_ins_total{result="success"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('the Prometheus metrics', () => {
  let server: TestApp;
  let metricsServer: { port: number; close(): Promise<void> };
  beforeAll(async () => {
    server = await startTestApp({ env: { MFA_REQUIRED: 'false' } });
    metricsServer = await startMetricsServer(server.context.metrics, { host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await metricsServer.close();
    await server.close();
  });

  const scrape = async () => {
    const response = await fetch(`http://127.0.0.1:${metricsServer.port}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    return response.text();
  };

  it('counts sign-ins by result, and times each route by its template, as a scrape of its own port shows', async () => {
    const failing = new TestBrowser(server.app);
    await openLoginScreen(failing, server.publicClient);
    expect((await submitLogin(failing, server.user.email, 'Wrong-Passw0rd!')).statusCode).toBe(401);
    await signIn(new TestBrowser(server.app), { ...server.publicClient, email: server.user.email, password: server.user.password });

    const text = await scrape();
    expect(sample(text, 'sso_sign_ins_total{result="invalid_credentials"}')).toBe(1);
    expect(sample(text, 'sso_sign_ins_total{result="success"}')).toBe(1);
    expect(sample(text, 'sso_http_request_duration_seconds_count{method="POST",route="/api/sso/v3/auth/login",status_code="401"}')).toBe(1);
    expect(sample(text, 'sso_http_request_duration_seconds_count{method="POST",route="/api/sso/v3/auth/login",status_code="200"}')).toBe(1);
  });

  it('shows the argon2 queue, the database connections, and the outbox backlog a worker reports (0 until one does)', async () => {
    let text = await scrape();
    expect(sample(text, 'sso_argon2_queue_depth')).toBe(0);
    expect(sample(text, 'sso_argon2_running')).toBe(0);
    expect(sample(text, 'sso_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'sso_outbox_backlog')).toBe(0);
    server.context.metrics.setOutboxBacklogSource(async () => 7);
    text = await scrape();
    expect(sample(text, 'sso_outbox_backlog')).toBe(7);
  });

  it('declares the code and lockout counters, and counts a lockout when an account starts to wait', async () => {
    const text = await scrape();
    expect(text).toContain('# TYPE sso_codes_sent_total counter');
    expect(text).toContain('# TYPE sso_codes_verified_total counter');
    expect(text).toContain('# TYPE sso_lockouts_total counter');
    server.context.metrics.codeSent('mfa_email');
    server.context.metrics.codeVerified('mfa_email', 'invalid');
    const after = await scrape();
    expect(sample(after, 'sso_codes_sent_total{purpose="mfa_email"}')).toBe(1);
    expect(sample(after, 'sso_codes_verified_total{purpose="mfa_email",outcome="invalid"}')).toBe(1);
  });

  it('serves nothing but /metrics on the metrics port, and no /metrics on the public one', async () => {
    expect((await fetch(`http://127.0.0.1:${metricsServer.port}/`)).status).toBe(404);
    expect((await server.app.inject({ method: 'GET', url: '/metrics' })).statusCode).not.toBe(200);
  });
});

describe.skipIf(!testBackends().some((backend) => backend.name === 'postgres'))('the database pool metric on PostgreSQL', () => {
  it('shows the connections the pool holds while a transaction has one checked out', async () => {
    const server = await startTestApp({ backend: testBackends().find((backend) => backend.name === 'postgres') });
    try {
      const during = await server.db.transaction(async () => (await server.context.metrics.scrape()).body);
      expect(sample(during, 'sso_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
      const after = (await server.context.metrics.scrape()).body;
      expect(sample(after, 'sso_db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(1);
      expect(sample(after, 'sso_db_pool_connections{state="waiting"}')).toBe(0);
    } finally {
      await server.close();
    }
  });
});
