import path from 'node:path';
import { fileURLToPath } from 'node:url';
import crypto from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { API_PREFIX } from '../contract/product.ts';
import { registerAccountClient } from './account/account-client.ts';
import { trackSessionDevices } from './account/session-tracking.ts';
import { adminRoutes } from './admin/admin-routes.ts';
import { DEMO_CLIENTS } from './admin/seed.ts';
import { directLinkRedirect } from './api/authorize-routes.ts';
import { FlowRouteMismatchError, registerStepApi, routeMismatches } from './api/step-api.ts';
import { installApiNoStore } from './api/cache-control.ts';
import { frameworkErrorOptions, installErrorHandling } from './api/http-errors.ts';
import { createInteractionStart } from './api/interaction-start.ts';
import { createBotCheckVerifier } from './auth/bot-check.ts';
import { createLoginThrottle } from './auth/lockout.ts';
import { createOneTimeCodes } from './auth/one-time-codes.ts';
import { loadPasswordPolicy } from './auth/password-policy.ts';
import { argon2Gate } from './auth/passwords.ts';
import { installOpenApi } from './api/openapi.ts';
import { installOverloadGuard } from './api/overload.ts';
import { createShutdownHooks, type ShutdownHooks } from './lifecycle/shutdown-hooks.ts';
import { countedCodes } from './observability/counted-codes.ts';
import { createMetrics, type Metrics } from './observability/metrics.ts';
import { fastifyTrustProxy } from './web/trust-proxy.ts';
import { installRequestObservation, requestIdOptions } from './observability/request-observation.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { createSmsSender, type SmsSender } from './sms/sms-sender.ts';
import { createOutbox } from './outbox/outbox.ts';
import { outboxRoutes } from './api/outbox-routes.ts';
import { addSharedSchemas } from './api/response-schemas.ts';
import { serviceRoutes } from './api/service-routes.ts';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import { LIMITS } from './limits.ts';
import { createKeyStore } from './crypto/key-store.ts';
import { createSecretBox } from './crypto/secret-box.ts';
import type { Database } from './db/database.ts';
import { demoRedirectRoutes } from './demo/demo-redirect.ts';
import { createFeatureFlags, DEFAULT_FLAGS_FILE, readFlagFile, type FlagValues } from './flags/feature-flags.ts';
import { FLAG_SERVICE_PREFIX, flagServiceRoutes } from './api/flag-service-routes.ts';
import { loadFlowRegistry } from './flows/flow-registry.ts';
import { registerOidcRoutes } from './api/oidc-mount.ts';
import { createClientCache } from './oidc/client-cache.ts';
import { createLiveProvider } from './oidc/live-provider.ts';
import type { Services } from './services.ts';
import { installSecurityHeaders, securityHeaders } from './web/security-headers.ts';
import { thirdPartyOrigins } from './web/third-party-origins.ts';
import { installUnstorableInputGuard } from './web/unstorable-input.ts';
import { helpRoute } from './web/help-route.ts';
import { webAppRoutes } from './web/web-app.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What the server needs from outside: its config, an open (migrated) database and the master key. */
export interface AppDependencies {
  config: Config;
  db: Database;
  masterKey: Buffer;
  clock?: Clock;
  /** The admin API's bearer token; without it the admin API is not mounted. */
  adminToken?: string;
  /** The built web app; defaults to dist/web. */
  webDir?: string;
  /** Replaces the configured mailer (tests). */
  mailer?: Mailer;
  /** Replaces the configured SMS sender (tests). */
  sms?: SmsSender;
  /** Overrides flags read from the flag file (tests). */
  flags?: Partial<FlagValues>;
  /** Where log lines go instead of stdout (tests read what the server logs). */
  logStream?: { write(line: string): void };
  /** The folder holding flows/ and schemas/ (a test's fixture flows); the project's by default. */
  flowsRoot?: string;
}

/**
 * Strips query strings from logged URLs: codes, states and tokens must never reach the logs. The provider's resume
 * and interaction paths carry the sign-in's interaction id, which is also its interaction cookie's value: it is
 * logged as `:uid`.
 */
const requestSerializer = (request: { method: string; url: string }) => ({
  method: request.method,
  url: (request.url.split('?')[0] ?? '').replace(/^(\/oidc\/(?:auth|interaction)\/)[^/]+/, '$1:uid'),
});

/** Builds the whole server (API, OIDC provider, web app) without listening; the demo client app is a server of its own (server/demo/demo-app.ts). */
export async function buildApp(deps: AppDependencies): Promise<{ app: FastifyInstance; context: Services; metrics: Metrics; shutdown: ShutdownHooks }> {
  const { config, db } = deps;
  const clock = deps.clock ?? systemClock;
  const app = Fastify({
    logger: { level: config.logLevel, serializers: { req: requestSerializer }, ...(deps.logStream ? { stream: deps.logStream } : {}) },
    bodyLimit: LIMITS.REQUEST_BODY_MAX_BYTES,
    // The client address per-IP limits count: the TCP peer, or what the trusted proxies (TRUST_PROXY) forwarded.
    trustProxy: fastifyTrustProxy(config.trustProxy),
    return503OnClosing: true,
    ...requestIdOptions(config, () => crypto.randomUUID()),
    ...frameworkErrorOptions(securityHeaders(config)),
  });
  // A hop count believes whatever stands that many hops in front, should the proxies in front ever change.
  if (typeof config.trustProxy === 'number') {
    app.log.warn({ trustProxy: config.trustProxy }, 'TRUST_PROXY is a hop count: list the proxies\' addresses instead (TRUST_PROXY=10.0.0.0/8,127.0.0.1), so only they are believed');
  }
  const metrics = createMetrics({ argon2: argon2Gate, db });
  const shutdown = createShutdownHooks(app.log);
  const box = createSecretBox(deps.masterKey);
  const keys = createKeyStore({ db, box, clock, signingTiming: { activationDelay: config.keyRefreshSeconds, retention: LIMITS.SIGNING_KEY_RETENTION } });
  // Made (or read) now, so the first visitor does not pay for generating an RSA key.
  await keys.currentCredentialKey();
  const flows = loadFlowRegistry(deps.flowsRoot);
  // Mail and texts go through the durable outbox; the configured (or a test's) mailer and SMS sender deliver them.
  const outbox = createOutbox({
    db,
    box,
    transports: { mailer: deps.mailer ?? createMailer({ config, db }), sms: deps.sms ?? createSmsSender({ config, db }) },
    log: { warn: (details, text) => app.log.warn(details, text) },
  });
  const clients = await createClientCache({ db, box });
  app.addHook('onClose', () => clients.close());
  const liveProvider = await createLiveProvider(
    { config, db, keys, box, clients: clients.find, onInteractionStart: createInteractionStart({ config, db, clock }) },
    { warn: (details, text) => app.log.warn(details, text) },
    (provider) => trackSessionDevices(provider, { db, clock }, (error) => app.log.error({ err: error }, 'noting the browser of a session failed')),
  );
  const context: Services = {
    config,
    db,
    keys,
    box,
    clock,
    flows,
    // Always the provider holding the current signing keys.
    get provider() {
      return liveProvider.current();
    },
    mailer: outbox.mailer,
    sms: outbox.sms,
    outbox,
    codes: countedCodes(createOneTimeCodes({ db, hashKey: box.derive('one-time-codes') }), metrics),
    throttle: createLoginThrottle(db, box.derive('unknown-email-throttle')),
    passwordPolicy: loadPasswordPolicy(),
    flags: createFeatureFlags({
      read: () => readFlagFile(config.featureFlagsFile ?? DEFAULT_FLAGS_FILE),
      overrides: deps.flags,
      intervalMs: LIMITS.FLAGS_REFRESH_INTERVAL * 1000,
      log: { warn: (details, text) => app.log.warn(details, text) },
    }),
    botCheck: config.botCheckSecret
      ? createBotCheckVerifier({ secret: config.botCheckSecret, verifyUrl: config.botCheckVerifyUrl, timeoutMs: LIMITS.BOT_CHECK_VERIFY_TIMEOUT_MS })
      : undefined,
    metrics,
    shutdown,
  };

  installErrorHandling(app);
  installRequestObservation(app, metrics);
  await installOverloadGuard(app);
  metrics.setOutboxBacklogSource(() => outbox.backlog());
  outbox.start();
  // Closing the server stops the outbox worker after sending what is due, within a bound.
  app.addHook('onClose', () => outbox.stop({ flushMs: LIMITS.OUTBOX_FLUSH_MS }));
  installSecurityHeaders(app, config);
  installApiNoStore(app);
  addSharedSchemas(app);
  installUnstorableInputGuard(app);
  // Every state-changing call takes application/json only: text/plain is a CORS-safelisted type, which a page on any
  // site could send without a preflight. (The provider's own endpoints keep their form bodies in their scope.)
  app.removeContentTypeParser('text/plain');
  await app.register(fastifyCookie);
  await installOpenApi(app, { flows, publicUrl: config.publicUrl });
  await registerAccountClient({ db, box, config });

  await app.register(
    async (api) => {
      const mismatches = routeMismatches(flows.graph, await registerStepApi(api, context));
      if (mismatches.length > 0) throw new FlowRouteMismatchError(mismatches);
    },
    { prefix: API_PREFIX },
  );
  await app.register(serviceRoutes(context));
  // The outbox shows what was not really sent: mail without SMTP_URL, texts without SMS_PROVIDER_URL.
  if (config.env !== 'production' && (!config.smtpUrl || !config.sms.providerUrl)) await app.register(outboxRoutes({ db }));
  if (config.env !== 'production') {
    await app.register(flagServiceRoutes({ flags: context.flags, token: config.flagServiceToken }), { prefix: FLAG_SERVICE_PREFIX });
  }
  registerOidcRoutes(app, liveProvider.current, securityHeaders(config));
  liveProvider.start(config.keyRefreshSeconds);
  app.addHook('onClose', async () => {
    liveProvider.stop();
    context.flags.stop();
  });

  if (config.seedDemo) await app.register(demoRedirectRoutes(config.demo.url));
  // Client apps as the provider of the moment knows them: it is rebuilt when the signing keys rotate.
  const currentClients = { Client: { find: (clientId: string) => context.provider.Client.find(clientId) } };
  if (deps.adminToken) await app.register(adminRoutes({ db, box, token: deps.adminToken, mailer: context.mailer, config, clock, keys, provider: currentClients }), { prefix: '/admin/v1' });
  await app.register(helpRoute(config.helpUrl));
  await app.register(webAppRoutes(deps.webDir ?? path.join(ROOT, 'dist/web'), thirdPartyOrigins(config), directLinkRedirect(context)));
  return { app, context, metrics, shutdown };
}
