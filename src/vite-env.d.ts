/// <reference types="vite/client" />

/** Build-time settings the web app reads (see src/config.ts). */
interface ImportMetaEnv {
  /** The flag service's base URL and environment (`development` is asked for as `sit`). */
  readonly VITE_FLAG_SERVICE_URL?: string;
  readonly VITE_FLAG_ENVIRONMENT?: string;
  /** The error-reporting DSN; unset keeps error reporting off. */
  readonly VITE_SENTRY_DSN?: string;
  /** `live` or `dummy` switches the bot check on for steps marked `botCheck`; the live site key. */
  readonly VITE_BOT_CHECK?: string;
  readonly VITE_BOT_CHECK_SITE_KEY?: string;
}

/** The compiled flow graph as the web build carries it (scripts/vite/flow-graph-plugin.ts). */
declare module 'virtual:flow-graph' {
  /** The content hash of the flows the app was built from. */
  export const hash: string;
  /** step id -> its guard, for every guarded step. */
  export const guards: Readonly<Record<string, { readonly from?: readonly string[]; readonly otherwise: string }>>;
}
