import { setClientFirstParty } from '../store/client-security.ts';
import { ACCOUNT_PAGE } from '../../contract/product.ts';
import type { Config } from '../config.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Queryable } from '../db/database.ts';
import { setClientLogout, upsertClient } from '../store/clients.ts';
import { setClientSignInStart } from '../store/invitations.ts';

/** The account page's own client id: a public client of our provider, signing in with code + PKCE like any app. */
export const ACCOUNT_CLIENT_ID = ACCOUNT_PAGE.clientId;

/** What the sign-in screens call the account page ("Signing in to My Account"). */
export const ACCOUNT_CLIENT_NAME = 'My Account';

/** The account page's address, which is also its redirect URI: it reads the code there. */
export const ACCOUNT_PATH = ACCOUNT_PAGE.path;

/** The account page's absolute address under the server's public URL. */
export function accountPageUrl(config: Pick<Config, 'publicUrl'>): string {
  return new URL(ACCOUNT_PATH, config.publicUrl).href;
}

/**
 * Registers (or brings up to date) the account page as a client of our own provider, at every start: it follows the
 * public URL, so a moved server never strands it. Signing out of it (RP-initiated logout) returns to it.
 */
export async function registerAccountClient(deps: { db: Queryable; box: SecretBox; config: Pick<Config, 'publicUrl'> }): Promise<void> {
  const url = accountPageUrl(deps.config);
  await upsertClient(deps.db, deps.box, { clientId: ACCOUNT_CLIENT_ID, name: ACCOUNT_CLIENT_NAME, redirectUris: [url], isPublic: true, secret: undefined });
  await setClientSignInStart(deps.db, ACCOUNT_CLIENT_ID, url);
  // The product's own page: nobody is asked to allow it access to their own account.
  await setClientFirstParty(deps.db, ACCOUNT_CLIENT_ID, true);
  // Its "Sign out" comes back to the page, which then asks for the password again.
  await setClientLogout(deps.db, ACCOUNT_CLIENT_ID, { postLogoutRedirectUris: [url], backchannelLogoutUri: undefined });
}
