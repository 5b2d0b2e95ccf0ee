import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { API_PREFIX } from '../contract/product.ts';
import { adminRoutes } from './admin/admin-routes.ts';
import { DEMO_CLIENTS } from './admin/seed.ts';
import { authorizeRoutes } from './api/authorize-routes.ts';
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
import { newPasswordRoutes } from './api/new-password-routes.ts';
import { passwordResetRoutes } from './api/password-reset-routes.ts';
import { createBotCheckVerifier } from './auth/bot-check.ts';
import { createLoginThrottle } from './auth/lockout.ts';
import { createOneTimeCodes } from './auth/one-time-codes.ts';
import { loadPasswordPolicy } from './auth/password-policy.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { createSmsSender, type SmsSender } from './sms/sms-sender.ts';
import { outboxRoutes } from './api/outbox-routes.ts';
import { profileAttributesRoutes } from './api/profile-attributes-routes.ts';
import { addSharedSchemas } from './api/response-schemas.ts';
import { registerRoutes } from './api/register-routes.ts';
import { registerUserinfoRoutes } from './api/register-userinfo-routes.ts';
import { registerVerificationRoutes } from './api/register-verification-routes.ts';
import { serviceRoutes } from './api/service-routes.ts';
import { userinfoRoutes } from './api/userinfo-routes.ts';
import { systemClock, type Clock } from './clock.ts';
import { LIMITS, type Config } from './config.ts';
import { createKeyStore } from './crypto/key-store.ts';
import { createSecretBox } from './crypto/secret-box.ts';
import type { Database } from './db/database.ts';
import { demoClientRoutes } from './demo/demo-client.ts';
import { createFeatureFlags, DEFAULT_FLAGS_FILE, readFlagFile, type FlagValues } from './flags/feature-flags.ts';
import { FLAG_SERVICE_PREFIX, flagServiceRoutes } from './api/flag-service-routes.ts';
import { loadFlowRegistry } from './flows/flow-registry.ts';
import { registerOidcRoutes } from './api/oidc-mount.ts';
import { createOidcProvider } from './oidc/provider.ts';
import type { Services } from './services.ts';
import { findClient } from './store/clients.ts';
import { installSecurityHeaders, securityHeaders } from './web/security-headers.ts';
import { thirdPartyOrigins } from './web/third-party-origins.ts';
import { installUnstorableInputGuard } from './web/unstorable-input.ts';
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
export async function buildApp(deps: AppDependencies): Promise<{ app: FastifyInstance; context: Services }> {
  const { config, db } = deps;
  const clock = deps.clock ?? systemClock;
  const box = createSecretBox(deps.masterKey);
  const keys = createKeyStore({ db, box, clock });
  // Made (or read) now, so the first visitor does not pay for generating an RSA key.
  await keys.currentCredentialKey();
  const flows = loadFlowRegistry();
  const provider = await createOidcProvider({ config, db, keys, box, onInteractionStart: createInteractionStart({ config, db, clock }) });
  const context: Services = {
    config,
    db,
    keys,
    box,
    clock,
    flows,
    provider,
    mailer: deps.mailer ?? createMailer({ config, db }),
    sms: deps.sms ?? createSmsSender({ config, db }),
    codes: createOneTimeCodes({ db, hashKey: box.derive('one-time-codes') }),
    throttle: createLoginThrottle(db),
    passwordPolicy: loadPasswordPolicy(),
    flags: createFeatureFlags({ ...readFlagFile(config.featureFlagsFile ?? DEFAULT_FLAGS_FILE), ...deps.flags }),
    botCheck: config.botCheckSecret
      ? createBotCheckVerifier({ secret: config.botCheckSecret, verifyUrl: config.botCheckVerifyUrl, timeoutMs: LIMITS.BOT_CHECK_VERIFY_TIMEOUT_MS })
      : undefined,
  };

  const app = Fastify({
    logger: { level: config.logLevel, serializers: { req: requestSerializer }, ...(deps.logStream ? { stream: deps.logStream } : {}) },
    bodyLimit: LIMITS.REQUEST_BODY_MAX_BYTES,
    trustProxy: false,
    return503OnClosing: true,
    ...frameworkErrorOptions(securityHeaders(config)),
  });
  installErrorHandling(app);
  installSecurityHeaders(app, config);
  installApiNoStore(app);
  addSharedSchemas(app);
  installUnstorableInputGuard(app);
  await app.register(fastifyCookie);

  await app.register(
    async (api) => {
      const resources = [cryptoRoutes, authorizeRoutes, loginRoutes, newPasswordRoutes, passwordResetRoutes, invitationRoutes, companyRoutes, clientRoutes, userinfoRoutes, signInStatusRoutes];
      for (const routes of resources) await api.register(routes(context));
      const registration = [registerRoutes, registerVerificationRoutes, registerUserinfoRoutes, profileAttributesRoutes];
      for (const routes of registration) await api.register(routes(context));
      for (const routes of [mfaSetupRoutes, mfaSignInRoutes]) await api.register(routes(context));
    },
    { prefix: API_PREFIX },
  );
  await app.register(serviceRoutes(context));
  // The outbox shows what was not really sent: mail without SMTP_URL, texts without SMS_PROVIDER_URL.
  if (config.env !== 'production' && (!config.smtpUrl || !config.sms.providerUrl)) await app.register(outboxRoutes({ db }));
  if (config.env !== 'production') {
    await app.register(flagServiceRoutes({ flags: context.flags, token: config.flagServiceToken }), { prefix: FLAG_SERVICE_PREFIX });
  }
  registerOidcRoutes(app, provider, securityHeaders(config));

  const demoClients = [];
  for (const demo of DEMO_CLIENTS) {
    const client = await findClient(db, box, demo.clientId);
    if (client) demoClients.push({ clientId: client.clientId, name: client.name, secret: client.secret, callbackPath: demo.callbackPath });
  }
  if (demoClients.length > 0) await app.register(demoClientRoutes({ config, box, clients: demoClients }));
  if (deps.adminToken) await app.register(adminRoutes({ db, box, token: deps.adminToken, mailer: context.mailer, config, clock }), { prefix: '/admin/v1' });
  await app.register(webAppRoutes(deps.webDir ?? path.join(ROOT, 'dist/web'), thirdPartyOrigins(config)));
  return { app, context };
}
