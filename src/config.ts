/**
 * The web app's configuration: one typed module, each key documented. It holds plain values only (no code; its
 * only import is the product constants shared with the server), so the login screen's download carries the later services' settings at the cost of a few strings.
 * Values that differ per deployment can be overridden with VITE_* variables at build time.
 */

import { API_PREFIX, APP_NAME, FLAG_DEFAULTS } from '../contract/product.ts';

/** The shape of the web app's configuration. */
export interface WebConfig {
  /** The path the app is served under; every route lives below it. */
  readonly basePath: string;
  /** Where the single sign-on API lives (no trailing slash: redaxios adds one). */
  readonly apiBase: string;
  /**
   * The "Can't Log In or Register?" link: the built-in help page, which the server redirects to the operator's own
   * user guide when HELP_URL names one (server/web/help-route.ts), so changing it needs no rebuild.
   */
  readonly userGuideUrl: string;
  /** The step the root path, retry links and unknown routes lead back to. */
  readonly entryStep: string;
  /** The step that shows failures and unknown challenges. */
  readonly errorStep: string;
  /** The step shown for a path no step owns. */
  readonly notFoundStep: string;
  /** The step a route of the route table shows while no flow owns it yet. */
  readonly notAvailableStep: string;
  /** Page query values kept on every step navigation (the init calls' query values are kept too). */
  readonly carriedQuery: readonly string[];
  /** The sessionStorage key holding values submitted earlier in a flow (src/state/submitted-values-atom.ts). */
  readonly submittedStorageKey: string;
  /** The sessionStorage key holding what was typed on a form that opens a page beside it (src/state/form-drafts.ts). */
  readonly draftStorageKey: string;
  /** The sessionStorage key holding the guarded steps this tab reached properly (src/state/reached-steps.ts). */
  readonly reachedStorageKey: string;
  /** The localStorage key holding the language the user picked (src/ui/language-preference.ts). */
  readonly languageStorageKey: string;
  /** How long a lazily loaded part of the app (a flow file, a form's validator) may take before the error page offers a retry. */
  readonly chunkLoadTimeoutMs: number;
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
  /** The flag service's client id, sent as its authorization header. */
  readonly featureFlagClientId: string;
  /**
   * The LaunchDarkly-style flag service (src/services/feature-flags/): `GET {baseUrl}/flags/{project}?env=…`; the
   * spec's 3 s limit, 30 s background fetch and 30 min cache. The default base is the development server's
   * compatible endpoint (server/flags/flag-service-routes.ts).
   */
  readonly featureFlagService: {
    readonly baseUrl: string;
    readonly project: string;
    readonly environment: string;
    readonly timeoutMs: number;
    readonly backgroundTimeoutMs: number;
    readonly cacheTtlMs: number;
    readonly storageKey: string;
  };
  /** Tag tracking: the analytics config call and Google Tag Manager's script. */
  readonly analytics: { readonly configUrl: string; readonly tagManagerUrl: string };
  /** Error reporting (@sentry/react): no DSN keeps it off; the spec's share of traces sent (all) and event limits. */
  readonly errorReporting: {
    readonly dsn: string | undefined;
    readonly traceSampleRate: number;
    readonly normalizeDepth: number;
    readonly normalizeMaxBreadth: number;
    readonly maxValueLength: number;
  };
  /** Toasts: the spec's 4 s default and 250 ms poll while queued; at most `maxActive` on screen at once. */
  readonly toasts: { readonly defaultDurationMs: number; readonly pollMs: number; readonly maxActive: number };
  /**
   * The bot check (Cloudflare Turnstile, rendered explicitly): its script, the operator's live site key, and
   * Cloudflare's always-passing dummy for non-production servers. VITE_BOT_CHECK=live|dummy at build time picks a
   * key and switches the check on for steps marked `botCheck`; unset, it is off and not built in.
   */
  readonly botCheck: { readonly scriptUrl: string; readonly liveSiteKey: string; readonly dummySiteKey: string };
}

// `?.`: outside Vite (npm run flows:check reads this file under plain Node) there is no import.meta.env.
const env = import.meta.env;
const release = { version: '0.1.0', environment: 'prod', label: 'single-sign-on@0.1.0' };

/** The configuration in force. */
export const config: WebConfig = {
  basePath: '/auth',
  apiBase: API_PREFIX,
  userGuideUrl: '/auth/help',
  entryStep: 'login',
  errorStep: 'error',
  notFoundStep: 'not-found',
  notAvailableStep: 'not-available',
  carriedQuery: ['client_id', 'redirect_uri', 'state', 'username', 'interaction'],
  submittedStorageKey: 'sso.submitted',
  draftStorageKey: 'sso.drafts',
  reachedStorageKey: 'sso.reached',
  languageStorageKey: 'sso.language',
  chunkLoadTimeoutMs: 2 * 60 * 1_000,
  clientInfo: { timeoutMs: 3_000, cacheTtlMs: 24 * 60 * 60 * 1_000, storageKey: 'sso.client-info' },
  featureFlagDefaults: FLAG_DEFAULTS,
  recorder: { query: 'record', switchKey: 'sso.recorder', walkKey: 'sso.recorder.walk' },
  release,
  featureFlagClientId: APP_NAME,
  featureFlagService: {
    baseUrl: env?.VITE_FLAG_SERVICE_URL ?? '/dev/flag-service',
    project: 'sso',
    environment: env?.VITE_FLAG_ENVIRONMENT ?? release.environment,
    timeoutMs: 3_000,
    backgroundTimeoutMs: 30_000,
    cacheTtlMs: 30 * 60 * 1_000,
    storageKey: 'sso.feature-flags',
  },
  analytics: { configUrl: '/api/gaid', tagManagerUrl: 'https://www.googletagmanager.com/gtm.js' },
  errorReporting: {
    dsn: env?.VITE_SENTRY_DSN || undefined,
    traceSampleRate: 1,
    normalizeDepth: 3,
    normalizeMaxBreadth: 1_000,
    maxValueLength: 250,
  },
  toasts: { defaultDurationMs: 4_000, pollMs: 250, maxActive: 3 },
  botCheck: {
    scriptUrl: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
    // The operator's own site key, issued by Cloudflare for the production host.
    liveSiteKey: env?.VITE_BOT_CHECK_SITE_KEY ?? '',
    // Cloudflare's published test key that always passes.
    dummySiteKey: '1x00000000000000000000AA',
  },
};
