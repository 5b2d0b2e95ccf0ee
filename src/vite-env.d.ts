/// <reference types="vite/client" />

/** Build-time settings the web app reads (see src/config.ts). */
interface ImportMetaEnv {
  /** Overrides the user-guide URL behind the help link. */
  readonly VITE_USER_GUIDE_URL?: string;
}
