/** Constants the web app and the server share, each written once (spec sections 7 and 9). */

/** Where the single sign-on API is mounted; every API path of the spec is under it. */
export const API_PREFIX = '/api/sso/v3';

/** The app's name: the feature-flag client id the web app sends, and the development flag service's default token. */
export const APP_NAME = 'sso-web';

/** The feature flags of the spec (section 9) with their defaults; the server enforces them, the browser follows. */
export const FLAG_DEFAULTS = {
  /** No company picker: the last-used company, or else the first, is taken. */
  'company-selection-removal': true,
  'test-flag': false,
  /** SMS is neither offered nor accepted as a second factor. */
  'sms-mfa-disable': false,
  /** No MFA step at sign-in and no MFA setup during sign-up. */
  'mfa-disable-skip-registration': false,
} as const;

/** A feature flag's key. */
export type FlagKey = keyof typeof FLAG_DEFAULTS;

/** The account page (/auth/account): a first-party client of our own provider, registered by the server at start. */
export const ACCOUNT_PAGE = { clientId: 'sso-account-page', path: '/auth/account' } as const;
