/**
 * The web app's configuration: one typed module, each key documented.
 * Values that differ per deployment can be overridden with VITE_* variables at build time.
 */

import { API_PREFIX, APP_NAME, FLAG_DEFAULTS } from '../contract/product.ts';

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
  /** The step a route of the route table shows while no flow owns it yet. */
  readonly notAvailableStep: string;
  /** Page query values kept on every step navigation (the init calls' query values are kept too). */
  readonly carriedQuery: readonly string[];
  /** The sessionStorage key holding values submitted earlier in a flow (src/state/submitted-values-atom.ts). */
  readonly submittedStorageKey: string;
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
  /** The client apps of the operator's own (spec, section 9): the main one and the dashboard. */
  readonly clientIds: { readonly main: string; readonly dashboard: string };
  /** The flag service's client id, sent as its authorization header (src/services-config.ts has the rest). */
  readonly featureFlagClientId: string;
  /** Error reporting's share of traces sent (spec: all of them); the rest is in src/services-config.ts. */
  readonly traceSampleRate: number;
  /**
   * The bot check's (Cloudflare Turnstile) site keys: the operator's live one, and Cloudflare's always-passing
   * dummy for non-production servers. VITE_BOT_CHECK=live|dummy at build time picks one and switches the check
   * on for steps marked `botCheck`; unset, it is off and not built in.
   */
  readonly botCheck: { readonly liveSiteKey: string; readonly dummySiteKey: string };
}

/** The configuration in force. */
export const config: WebConfig = {
  basePath: '/auth',
  apiBase: API_PREFIX,
  // `?.`: outside Vite (npm run flows:check reads this file under plain Node) there is no import.meta.env.
  userGuideUrl: import.meta.env?.VITE_USER_GUIDE_URL ?? 'https://support.example.com/sso/user-guide',
  entryStep: 'login',
  errorStep: 'error',
  notFoundStep: 'not-found',
  notAvailableStep: 'not-available',
  carriedQuery: ['client_id', 'redirect_uri', 'state', 'username', 'interaction'],
  submittedStorageKey: 'sso.submitted',
  languageStorageKey: 'sso.language',
  chunkLoadTimeoutMs: 2 * 60 * 1_000,
  clientInfo: { timeoutMs: 3_000, cacheTtlMs: 24 * 60 * 60 * 1_000, storageKey: 'sso.client-info' },
  featureFlagDefaults: FLAG_DEFAULTS,
  recorder: { query: 'record', switchKey: 'sso.recorder', walkKey: 'sso.recorder.walk' },
  release: { version: '0.1.0', environment: 'prod', label: 'single-sign-on@0.1.0' },
  clientIds: { main: 'sso-account', dashboard: 'sso-dashboard' },
  featureFlagClientId: APP_NAME,
  traceSampleRate: 1,
  botCheck: {
    // The operator's own site key, issued by Cloudflare for the production host.
    liveSiteKey: import.meta.env?.VITE_BOT_CHECK_SITE_KEY ?? '',
    // Cloudflare's published test key that always passes.
    dummySiteKey: '1x00000000000000000000AA',
  },
};
