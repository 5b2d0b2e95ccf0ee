/**
 * The configuration of the browser services that load after the first screen (src/ui/services/): their
 * addresses, timings, cache lifetimes and limits. It is kept apart from src/config.ts only so the login
 * screen's download does not carry it; src/config.ts holds the identity values (release, client ids, keys).
 */
import { config } from './config.ts';

const env = import.meta.env;

export const servicesConfig = {
  /**
   * The LaunchDarkly-style flag service (src/core/feature-flags/): `GET {baseUrl}/flags/{project}?env=…`; the
   * spec's 3 s limit, 30 s background fetch and 30 min cache. The default base is the development server's
   * compatible endpoint (server/flags/flag-service-routes.ts).
   */
  featureFlags: {
    baseUrl: env?.VITE_FLAG_SERVICE_URL ?? '/dev/flag-service',
    project: 'sso',
    environment: env?.VITE_FLAG_ENVIRONMENT ?? config.release.environment,
    timeoutMs: 3_000,
    backgroundTimeoutMs: 30_000,
    cacheTtlMs: 30 * 60 * 1_000,
    storageKey: 'sso.feature-flags',
  },
  /** Tag tracking: the analytics config call and Google Tag Manager's script. */
  analytics: { configUrl: '/api/gaid', tagManagerUrl: 'https://www.googletagmanager.com/gtm.js' },
  /** Error reporting (@sentry/react); no DSN keeps it off. */
  errorReporting: {
    dsn: env?.VITE_SENTRY_DSN || undefined,
    normalizeDepth: 3,
    normalizeMaxBreadth: 1_000,
    maxValueLength: 250,
  },
  /** Toasts: the spec's 4 s default and 250 ms poll while queued; at most `maxActive` on screen at once. */
  toasts: { defaultDurationMs: 4_000, pollMs: 250, maxActive: 3 },
  /** The bot-check widget's script (Cloudflare Turnstile, rendered explicitly). */
  botCheck: { scriptUrl: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit' },
} as const;
