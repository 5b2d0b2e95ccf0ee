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
  /** Release identity, for diagnostics. */
  readonly release: { readonly version: string; readonly environment: string; readonly label: string };
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
  notAvailableStep: 'not-available',
  carriedQuery: ['client_id', 'redirect_uri', 'state', 'username', 'interaction'],
  submittedStorageKey: 'sso.submitted',
  languageStorageKey: 'sso.language',
  chunkLoadTimeoutMs: 2 * 60 * 1_000,
  clientInfo: { timeoutMs: 3_000, cacheTtlMs: 24 * 60 * 60 * 1_000, storageKey: 'sso.client-info' },
  featureFlagDefaults: {
    'company-selection-removal': true,
    'test-flag': false,
    'disable-sms-mfa': false,
    'disable-mfa-skip-registration': false,
  },
  recorder: { query: 'record', switchKey: 'sso.recorder', walkKey: 'sso.recorder.walk' },
  release: { version: '0.1.0', environment: 'prod', label: 'single-sign-on@0.1.0' },
};
