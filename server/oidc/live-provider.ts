import type Provider from 'oidc-provider';
import { createOidcProvider, type OidcProviderDeps } from './provider.ts';

/** Where the key watcher reports that it could not read the keys (the current provider keeps serving). */
export interface LiveProviderLog {
  warn(details: object, text: string): void;
}

/**
 * The provider, rebuilt whenever the signing keys in the database change (`npm run sso -- keys rotate` on any
 * process), so every process picks a rotated key up without a restart. oidc-provider takes its keys only when it is
 * built; it keeps no state of its own (everything is in the database), so swapping instances loses nothing.
 */
export interface LiveProvider {
  current(): Provider;
  /** Re-reads the keys now; true when a new provider was built. */
  refresh(): Promise<boolean>;
  /** Re-reads the keys every `intervalSeconds` until stopped. */
  start(intervalSeconds: number): void;
  stop(): void;
}

/**
 * `configure` is applied to every provider built (listeners for its events), so a rebuild after a rotation keeps them.
 */
export async function createLiveProvider(deps: OidcProviderDeps, log: LiveProviderLog, configure: (provider: Provider) => void = () => {}): Promise<LiveProvider> {
  const build = async (jwks: Awaited<ReturnType<typeof deps.keys.signingKeySet>>['jwks']) => {
    const built = await createOidcProvider({ ...deps, jwks });
    configure(built);
    return built;
  };
  let keySet = await deps.keys.signingKeySet();
  let provider = await build(keySet.jwks);
  let timer: NodeJS.Timeout | undefined;
  let refreshing: Promise<boolean> | undefined;

  async function rebuildIfChanged(): Promise<boolean> {
    const next = await deps.keys.signingKeySet();
    if (next.version === keySet.version) return false;
    provider = await build(next.jwks);
    keySet = next;
    return true;
  }

  function refresh(): Promise<boolean> {
    refreshing ??= rebuildIfChanged().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  }

  return {
    current: () => provider,
    refresh,
    start(intervalSeconds) {
      timer ??= setInterval(() => {
        refresh().catch((error: unknown) => log.warn({ err: { message: error instanceof Error ? error.message : String(error) } }, 'the signing keys could not be re-read'));
      }, intervalSeconds * 1000);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
