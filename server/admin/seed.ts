import type { Config } from '../config.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Database } from '../db/database.ts';
import { findClientInfo, setClientLogout } from '../store/clients.ts';
import { DEMO_BACKCHANNEL_LOGOUT_PATH, DEMO_POST_LOGOUT_PATH } from '../demo/demo-paths.ts';
import { setClientSignInStart } from '../store/invitations.ts';
import { findCredentialsByEmail } from '../store/users.ts';
import { addClient, addUser } from './operations.ts';

/** The spec's two client apps: the account area and the dashboard, pointing at the demo client's callbacks. */
export const DEMO_CLIENTS = [
  { clientId: 'sso-account', name: 'Account Area', callbackPath: '/demo/user-management/auth/callback', isPublic: true },
  { clientId: 'sso-dashboard', name: 'Dashboard', callbackPath: '/demo/auth/callback', isPublic: false },
] as const;

/** The development user printed at start. */
export const DEMO_USER = { email: 'demo@example.com', password: 'Demo-Passw0rd!', firstName: 'Dana', lastName: 'Demo' } as const;

/** Seeds the demo clients and user; running it again changes nothing (existing secrets are kept). */
export async function seedDemo(deps: { db: Database; box: SecretBox; config: Config }): Promise<void> {
  for (const client of DEMO_CLIENTS) {
    const redirectUri = new URL(client.callbackPath, deps.config.publicUrl).href;
    const signInStart = new URL(`/demo/login?client=${client.clientId}`, deps.config.publicUrl).href;
    const existing = await findClientInfo(deps.db, client.clientId);
    if (existing?.redirectUris.includes(redirectUri) && existing.isPublic === client.isPublic) {
      await setClientSignInStart(deps.db, client.clientId, signInStart);
    } else {
      await addClient(deps, { clientId: client.clientId, name: client.name, redirectUris: [redirectUri], isPublic: client.isPublic, initiateLoginUri: signInStart });
    }
    // The demo signs out for real: back to its home page after logout, and told when a session ends elsewhere.
    await setClientLogout(deps.db, client.clientId, {
      postLogoutRedirectUris: [new URL(DEMO_POST_LOGOUT_PATH, deps.config.publicUrl).href],
      backchannelLogoutUri: new URL(DEMO_BACKCHANNEL_LOGOUT_PATH, deps.config.publicUrl).href,
    });
  }
  if (!(await findCredentialsByEmail(deps.db, DEMO_USER.email))) await addUser(deps, DEMO_USER);
}
