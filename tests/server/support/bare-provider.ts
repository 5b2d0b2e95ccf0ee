import type Provider from 'oidc-provider';
import { systemClock } from '../../../server/clock.ts';
import type { Config } from '../../../server/config.ts';
import { createKeyStore } from '../../../server/crypto/key-store.ts';
import type { SecretBox } from '../../../server/crypto/secret-box.ts';
import type { Database } from '../../../server/db/database.ts';
import { createOidcProvider } from '../../../server/oidc/provider.ts';

/**
 * The provider alone, with the web app's login stubbed out: an interaction just points the browser at
 * `/auth/login?interaction=<uid>`, and the test finishes it with `completeInteraction`.
 */
export function createBareProvider(deps: { config: Config; db: Database; box: SecretBox }): Promise<Provider> {
  return createOidcProvider({
    ...deps,
    keys: createKeyStore({ db: deps.db, box: deps.box, clock: systemClock }),
    onInteractionStart: async (_ctx, interaction) => `/auth/login?interaction=${interaction.uid}`,
  });
}
