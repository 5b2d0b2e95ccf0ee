/** The person's authenticator app, as the browser tests and the screenshot walk use it. */
import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';

/** The app's code for `secret`, `stepsAhead` 30-second steps from now (a step already used is refused). */
export function appCode(secret: string, stepsAhead = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });
}

/** The key the authenticator-app setup shows (in groups of four), as the app takes it. */
export async function shownSecret(page: Page): Promise<string> {
  return ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
}
