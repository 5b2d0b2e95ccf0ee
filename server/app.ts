import path from 'node:path';
import { fileURLToPath } from 'node:url';
import crypto from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { API_PREFIX } from '../contract/product.ts';
import { registerAccountClient } from './account/account-client.ts';
import { trackSessionDevices } from './account/session-tracking.ts';
import { adminRoutes } from './admin/admin-routes.ts';
import { accountRoutes } from './api/account-routes.ts';
import { recoveryCodeRoutes } from './api/recovery-code-routes.ts';
import { DEMO_CLIENTS } from './admin/seed.ts';
import { authorizeRoutes, directLinkRedirect } from './api/authorize-routes.ts';
import { installApiNoStore } from './api/cache-control.ts';
import { clientRoutes } from './api/client-routes.ts';
import { signInStatusRoutes } from './api/sign-in-status-routes.ts';
import { cryptoRoutes } from './api/crypto-routes.ts';
import { frameworkErrorOptions, installErrorHandling } from './api/http-errors.ts';
import { createInteractionStart } from './api/interaction-start.ts';
import { invitationRoutes } from './api/invitation-routes.ts';
import { companyRoutes } from './api/company-routes.ts';
import { loginRoutes } from './api/login-routes.ts';
import { mfaSetupRoutes } from './api/mfa-setup-routes.ts';
import { mfaSignInRoutes } from './api/mfa-sign-in-routes.ts';
import { passkeySignInRoutes } from './api/passkey-sign-in-routes.ts';
import { newPasswordRoutes } from './api/new-password-routes.ts';
import { passwordResetRoutes } from './api/password-reset-routes.ts';
import { notMeRoutes } from './api/not-me-routes.ts';
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
import { profileAttributesRoutes } from './api/profile-attributes-routes.ts';
import { addSharedSchemas } from './api/response-schemas.ts';
import { registerRoutes } from './api/register-routes.ts';
import { registerUserinfoRoutes } from './api/register-userinfo-routes.ts';
import { registerVerificationRoutes } from './api/register-verification-routes.ts';
import { serviceRoutes } from './api/service-routes.ts';
import { userinfoRoutes } from './api/userinfo-routes.ts';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import { LIMITS } from './limits.ts';
import { createKeyStore } from './crypto/key-store.ts';
import { createSecretBox } from './crypto/secret-box.ts';
import type { Database } from './db/database.ts';
import { demoClientRoutes } from './demo/demo-client.ts';
import { createFeatureFlags, DEFAULT_FLAGS_FILE, readFlagFile, type FlagValues } from './flags/feature-flags.ts';
import { FLAG_SERVICE_PREFIX, flagServiceRoutes } from './api/flag-service-routes.ts';
import { loadFlowRegistry } from './flows/flow-registry.ts';
import { registerOidcRoutes } from './api/oidc-mount.ts';
import { createClientCache } from './oidc/client-cache.ts';
import { createLiveProvider } from './oidc/live-provider.ts';
import type { Services } from './services.ts';
import { findClient } from './store/clients.ts';
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
}

/** Strips query strings from logged URLs: codes, states and tokens must never reach the logs. */
const requestSerializer = (request: { method: string; url: string }) => ({ method: request.method, url: request.url.split('?')[0] });

/** Builds the whole server (API, OIDC provider, web app, demo client) without listening. */
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
  const metrics = createMetrics({ argon2: argon2Gate, db });
  const shutdown = createShutdownHooks(app.log);
  const box = createSecretBox(deps.masterKey);
  const keys = createKeyStore({ db, box, clock, signingTiming: { activationDelay: config.keyRefreshSeconds, retention: LIMITS.SIGNING_KEY_RETENTION } });
  // Made (or read) now, so the first visitor does not pay for generating an RSA key.
  await keys.currentCredentialKey();
  const flows = loadFlowRegistry();
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
  await app.register(fastifyCookie);
  await installOpenApi(app, { flows, publicUrl: config.publicUrl });
  await registerAccountClient({ db, box, config });

  await app.register(
    async (api) => {
      const resources = [cryptoRoutes, authorizeRoutes, loginRoutes, newPasswordRoutes, passwordResetRoutes, invitationRoutes, companyRoutes, clientRoutes, userinfoRoutes, signInStatusRoutes];
      for (const routes of resources) await api.register(routes(context));
      const registration = [registerRoutes, registerVerificationRoutes, registerUserinfoRoutes, profileAttributesRoutes];
      for (const routes of registration) await api.register(routes(context));
      for (const routes of [mfaSetupRoutes, mfaSignInRoutes, passkeySignInRoutes, recoveryCodeRoutes]) await api.register(routes(context));
      await api.register(accountRoutes(context));
      await api.register(notMeRoutes(context));
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

  const demoClients = [];
  for (const demo of DEMO_CLIENTS) {
    const client = await findClient(db, box, demo.clientId);
    if (client) demoClients.push({ clientId: client.clientId, name: client.name, secret: client.secret, callbackPath: demo.callbackPath });
  }
  if (demoClients.length > 0) await app.register(demoClientRoutes({ config, box, db, clients: demoClients }));
  // Client apps as the provider of the moment knows them: it is rebuilt when the signing keys rotate.
  const currentClients = { Client: { find: (clientId: string) => context.provider.Client.find(clientId) } };
  if (deps.adminToken) await app.register(adminRoutes({ db, box, token: deps.adminToken, mailer: context.mailer, config, clock, keys, provider: currentClients }), { prefix: '/admin/v1' });
  await app.register(helpRoute(config.helpUrl));
  await app.register(webAppRoutes(deps.webDir ?? path.join(ROOT, 'dist/web'), thirdPartyOrigins(config), directLinkRedirect(context)));
  return { app, context, metrics, shutdown };
}
