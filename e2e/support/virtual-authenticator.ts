/**
 * Chromium's virtual authenticator (CDP WebAuthn) as the person's device, for the passkey e2e tests and the gallery's
 * passkey screens (scripts/fixtures/passkey-screens.ts): one setup, so both make and use passkeys the same way.
 */
import type { Page } from '@playwright/test';

/** The person's device, and whether the person is using it right now. */
export interface VirtualAuthenticator {
  /**
   * Whether the person answers the browser's passkey requests. Answering (the default), every request made from now
   * on is confirmed at once, a conditional one (the login screen's autofill) included, as if the person picked the
   * passkey. Not answering, requests made from now on wait, as they do for a person who never picks the passkey from
   * the autofill: a request already waiting keeps waiting either way (Chromium asks the device once per request).
   */
  answers(answering: boolean): Promise<void>;
}

/**
 * Gives the page a platform authenticator that holds passkeys (resident keys) and verifies the user (a fingerprint,
 * say) by itself, answering every prompt at once as if the person confirmed it, until told otherwise.
 */
export async function addVirtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return {
    answers: async (answering) => {
      await cdp.send('WebAuthn.setAutomaticPresenceSimulation', { authenticatorId, enabled: answering });
    },
  };
}
