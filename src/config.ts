/**
 * The web app's configuration: one typed module, each key documented.
 * Values that differ per deployment can be overridden with VITE_* variables at build time.
 */

/** The shape of the web app's configuration. */
export interface WebConfig {
  /** The path the app is served under; every route lives below it. */
  readonly basePath: string;
  /** Where the single sign-on API lives (no trailing slash: redaxios adds one). */
  readonly apiBase: string;
  /** The external user guide behind the "Can't Log In or Register?" link. */
  readonly userGuideUrl: string;
  /** The step the root path, retry links and unknown routes lead back to. */
  readonly entryStep: string;
  /** The step that shows failures and unknown challenges. */
  readonly errorStep: string;
  /** The step shown for a path no step owns. */
  readonly notFoundStep: string;
  /** Page query values kept on every step navigation (the init calls' query values are kept too). */
  readonly carriedQuery: readonly string[];
  /** The sessionStorage key holding values submitted earlier in a flow (src/state/submitted-values-atom.ts). */
  readonly submittedStorageKey: string;
  /** The localStorage key holding the language the user picked (src/ui/language-preference.ts). */
  readonly languageStorageKey: string;
  /** Client-info lookup: the spec's 3 s timeout and 24 h cache. */
  readonly clientInfo: { readonly timeoutMs: number; readonly cacheTtlMs: number; readonly storageKey: string };
  /** Feature-flag defaults (spec section 9) used by `flag` conditions until a flag service answers. */
  readonly featureFlagDefaults: Readonly<Record<string, boolean>>;
  /**
   * The fixture recorder (src/recorder/): `?<query>=1` or Ctrl+Alt+R switches it on for the tab;
   * `switchKey` (sessionStorage) remembers that across pages, `walkKey` holds the walk so far.
   */
  readonly recorder: { readonly query: string; readonly switchKey: string; readonly walkKey: string };
  /** Release identity, for diagnostics and error reports. */
  readonly release: { readonly version: string; readonly environment: string; readonly label: string };
  /** The client apps of the operator's own (spec, section 9): the main one and the dashboard. */
  readonly clientIds: { readonly main: string; readonly dashboard: string };
  /**
   * The LaunchDarkly-style flag service (src/core/feature-flags/): `GET {baseUrl}/flags/{project}?env=…`, with
   * `clientId` as the authorization header; the spec's 3 s limit, 30 s background fetch and 30 min cache.
   */
  readonly featureFlags: {
    readonly baseUrl: string;
    readonly project: string;
    readonly environment: string;
    readonly clientId: string;
    readonly timeoutMs: number;
    readonly backgroundTimeoutMs: number;
    readonly cacheTtlMs: number;
    readonly storageKey: string;
  };
  /** Tag tracking: the analytics config call and Google Tag Manager's script. */
  readonly analytics: { readonly configUrl: string; readonly tagManagerUrl: string };
  /** Error reporting (@sentry/react); no DSN keeps it off. */
  readonly errorReporting: {
    readonly dsn: string | undefined;
    readonly tracesSampleRate: number;
    readonly normalizeDepth: number;
    readonly normalizeMaxBreadth: number;
    readonly maxValueLength: number;
  };
  /** Toasts: the spec's 4 s default and 250 ms poll while queued; at most `maxActive` on screen at once. */
  readonly toasts: { readonly defaultDurationMs: number; readonly pollMs: number; readonly maxActive: number };
  /**
   * The bot check (Cloudflare Turnstile) on steps marked `botCheck`: `mode` off (the default), `live` or `dummy`
   * (Cloudflare's always-passing test key, for non-production servers).
   */
  readonly botCheck: {
    readonly mode: 'off' | 'live' | 'dummy';
    readonly liveSiteKey: string;
    readonly dummySiteKey: string;
    readonly scriptUrl: string;
  };
}

const env = import.meta.env;

function botCheckMode(value: string | undefined): WebConfig['botCheck']['mode'] {
  return value === 'live' || value === 'dummy' ? value : 'off';
}

/** The configuration in force. */
export const config: WebConfig = {
  basePath: '/auth',
  apiBase: '/api/sso/v3',
  // `?.`: outside Vite (npm run flows:check reads this file under plain Node) there is no import.meta.env.
  userGuideUrl: import.meta.env?.VITE_USER_GUIDE_URL ?? 'https://support.example.com/sso/user-guide',
  entryStep: 'login',
  errorStep: 'error',
  notFoundStep: 'not-found',
  carriedQuery: ['client_id', 'redirect_uri', 'state', 'username', 'interaction'],
  submittedStorageKey: 'sso.submitted',
  languageStorageKey: 'sso.language',
  clientInfo: { timeoutMs: 3_000, cacheTtlMs: 24 * 60 * 60 * 1_000, storageKey: 'sso.client-info' },
  featureFlagDefaults: {
    'company-selection-removal': true,
    'test-flag': false,
    'sms-mfa-disable': false,
    'mfa-disable-skip-registration': false,
  },
  recorder: { query: 'record', switchKey: 'sso.recorder', walkKey: 'sso.recorder.walk' },
  release: { version: '0.1.0', environment: 'prod', label: 'single-sign-on@0.1.0' },
  clientIds: { main: env?.VITE_MAIN_CLIENT_ID ?? 'sso-account', dashboard: env?.VITE_DASHBOARD_CLIENT_ID ?? 'sso-dashboard' },
  featureFlags: {
    // The development server's compatible endpoint (server/flags/flag-service-routes.ts) unless a real service is named.
    baseUrl: env?.VITE_FLAG_SERVICE_URL ?? '/dev/flag-service',
    project: 'sso',
    environment: env?.VITE_FLAG_ENVIRONMENT ?? 'prod',
    clientId: env?.VITE_FLAG_CLIENT_ID ?? 'sso-web',
    timeoutMs: 3_000,
    backgroundTimeoutMs: 30_000,
    cacheTtlMs: 30 * 60 * 1_000,
    storageKey: 'sso.feature-flags',
  },
  analytics: { configUrl: '/api/gaid', tagManagerUrl: 'https://www.googletagmanager.com/gtm.js' },
  errorReporting: {
    dsn: env?.VITE_SENTRY_DSN || undefined,
    tracesSampleRate: 1,
    normalizeDepth: 3,
    normalizeMaxBreadth: 1_000,
    maxValueLength: 250,
  },
  toasts: { defaultDurationMs: 4_000, pollMs: 250, maxActive: 3 },
  botCheck: {
    mode: botCheckMode(env?.VITE_BOT_CHECK),
    liveSiteKey: env?.VITE_BOT_CHECK_SITE_KEY ?? '0x4AAAAAAAC3DHQFLr1GavRN',
    // Cloudflare's published test key that always passes.
    dummySiteKey: '1x00000000000000000000AA',
    scriptUrl: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
  },
};
