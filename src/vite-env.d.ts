/// <reference types="vite/client" />

/** Build-time settings the web app reads (see src/config.ts). */
interface ImportMetaEnv {
  /** Overrides the user-guide URL behind the help link. */
  readonly VITE_USER_GUIDE_URL?: string;
}

/** flowId -> a loader of the full steps of an on-demand flow (written by vite.config.ts). */
declare module 'virtual:on-demand-flows' {
  const loaders: Readonly<Record<string, () => Promise<import('./core/flow-types.ts').FlowDefinition>>>;
  export default loaders;
}

/** The English `apiError.*` texts, loaded with another language (written by vite.config.ts). */
declare module '*/en.json?api-errors' {
  const messages: Readonly<Record<string, string>>;
  export default messages;
}
