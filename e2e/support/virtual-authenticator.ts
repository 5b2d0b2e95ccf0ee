/**
 * Chromium's virtual authenticator (CDP WebAuthn) as the person's device, for the passkey e2e tests and the gallery's
 * passkey screens (scripts/fixtures/passkey-screens.ts): one setup, so both make and use passkeys the same way.
 */
import type { Page } from '@playwright/test';

/**
 * Gives the page a platform authenticator that holds passkeys (resident keys) and verifies the user (a fingerprint,
 * say) by itself, answering every prompt at once as if the person confirmed it.
 */
export async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
}
