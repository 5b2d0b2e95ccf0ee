import { setClientFirstParty } from '../store/client-security.ts';
import type { Config } from '../config.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Database } from '../db/database.ts';
import { findClientInfo, setClientLogout, setClientRefreshTokens } from '../store/clients.ts';
import { DEMO_BACKCHANNEL_LOGOUT_PATH, DEMO_POST_LOGOUT_PATH } from '../demo/demo-paths.ts';
import { setClientSignInStart } from '../store/invitations.ts';
import { findCredentialsByEmail } from '../store/users.ts';
import { addClient, addUser } from './operations.ts';
import { demoFapi2Jwks } from '../demo/demo-fapi2-keys.ts';

/** The spec's two client apps: the account area and the dashboard, pointing at the demo client's callbacks; both keep sessions alive with refresh tokens. */
export const DEMO_CLIENTS = [
  { clientId: 'sso-account', name: 'Account Area', callbackPath: '/demo/user-management/auth/callback', isPublic: true },
  { clientId: 'sso-dashboard', name: 'Dashboard', callbackPath: '/demo/auth/callback', isPublic: false },
] as const;

/** The demo's third app, for money: the fapi2 profile (PAR, private_key_jwt, DPoP), its keys derived from the master key. */
export const DEMO_FAPI2_CLIENT = { clientId: 'sso-payments', name: 'Payments (FAPI 2.0)', callbackPath: '/demo/payments/auth/callback' } as const;

/** The development user printed at start. */
export const DEMO_USER = { email: 'demo@example.com', password: 'Demo-Passw0rd!', firstName: 'Dana', lastName: 'Demo' } as const;

/** Seeds the demo clients and user; running it again changes nothing (existing secrets are kept). */
export async function seedDemo(deps: { db: Database; box: SecretBox; config: Config }): Promise<void> {
  for (const client of DEMO_CLIENTS) {
    // The demo lives on an origin of its own (DEMO_URL), as every real client app does.
    const demoUrl = deps.config.demo.url;
    const redirectUri = new URL(client.callbackPath, demoUrl).href;
    const signInStart = new URL(`/demo/login?client=${client.clientId}`, demoUrl).href;
    const existing = await findClientInfo(deps.db, client.clientId);
    if (existing?.redirectUris.includes(redirectUri) && existing.isPublic === client.isPublic) {
      await setClientSignInStart(deps.db, client.clientId, signInStart);
      await setClientRefreshTokens(deps.db, client.clientId, true);
    } else {
      await addClient(deps, { clientId: client.clientId, name: client.name, redirectUris: [redirectUri], isPublic: client.isPublic, initiateLoginUri: signInStart, refreshTokens: true });
    }
    // The demo's apps are ours: people sign in to them without a consent screen.
    await setClientFirstParty(deps.db, client.clientId, true);
    // The demo signs out for real: back to its home page after logout, and told when a session ends elsewhere.
    await setClientLogout(deps.db, client.clientId, {
      postLogoutRedirectUris: [new URL(DEMO_POST_LOGOUT_PATH, demoUrl).href],
      backchannelLogoutUri: new URL(DEMO_BACKCHANNEL_LOGOUT_PATH, demoUrl).href,
    });
  }
  await addClient(deps, {
    clientId: DEMO_FAPI2_CLIENT.clientId,
    name: DEMO_FAPI2_CLIENT.name,
    redirectUris: [new URL(DEMO_FAPI2_CLIENT.callbackPath, deps.config.demo.url).href],
    isPublic: false,
    profile: 'fapi2',
    jwks: demoFapi2Jwks(deps.box),
    refreshTokens: true,
    postLogoutRedirectUris: [new URL(DEMO_POST_LOGOUT_PATH, deps.config.demo.url).href],
    backchannelLogoutUri: new URL(DEMO_BACKCHANNEL_LOGOUT_PATH, deps.config.demo.url).href,
  });
  await setClientFirstParty(deps.db, DEMO_FAPI2_CLIENT.clientId, true);
  if (!(await findCredentialsByEmail(deps.db, DEMO_USER.email))) await addUser(deps, DEMO_USER);
}
