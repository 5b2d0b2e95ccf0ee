/**
 * The sign-in challenge kinds (spec section 4), defined once for the server, the web app's flows and the checks.
 * `schemas/flow.schema.json`'s `challengeKind` enum is generated from this list (`npm run contract:generate`), and
 * `npm run flows:check` fails when it drifts. `sentByServer` says whether the server answers with the kind; a kind it
 * never sends stays here only because the spec lists it, and a flow may claim it so such an answer still has a screen.
 */

/** What the contract says about one challenge kind. */
export interface ChallengeDefinition {
  /** Whether this server ever answers with the kind. */
  readonly sentByServer: boolean;
}

/** Every challenge kind, in the spec's order. */
export const CHALLENGES = {
  /** Every sign-in starts here. */
  LOGIN_REQUIRED: { sentByServer: true },
  /** A temporary or expired password must be replaced before the sign-in finishes. */
  NEW_PASSWORD_REQUIRED: { sentByServer: true },
  /** An operator forced a reset: the user goes through password recovery. */
  RESET_PASSWORD: { sentByServer: true },
  /** A user without a second factor sets one up (parameters.availableChoices; parameters.registration during sign-up). */
  MFA_SETUP: { sentByServer: true },
  /** A code went by SMS to the user's confirmed phone. */
  SMS_MFA: { sentByServer: true },
  /** Setting up SMS: the user enters a phone number. */
  SETUP_SMS_MFA: { sentByServer: true },
  /** A code went to the phone being set up; entering it confirms the number. */
  VERIFY_SETUP_SMS_MFA: { sentByServer: true },
  /** Setting up an authenticator app: the secret, its QR code and link (parameters.mfa_code is the setup's id). */
  SETUP_SOFTWARE_TOKEN_MFA: { sentByServer: true },
  /** The user enters the code their authenticator app shows. */
  SOFTWARE_TOKEN_MFA: { sentByServer: true },
  /** In the spec's list but never sent here (an SMS code answers SMS_MFA); the SMS code screen claims it. */
  SMS_TOKEN_MFA: { sentByServer: false },
  /** A reset code was sent (or would have been): the user enters it. */
  PASSWORD_RECOVERY: { sentByServer: true },
  /** A user with several second factors picks the one to sign in with (parameters.availableChoices). */
  SELECT_MFA_TYPE: { sentByServer: true },
  /** A new code was sent (registration, or a second factor's); the code screen shows it and counts down to the next. */
  RESEND_OTP: { sentByServer: true },
  /** The address belongs to an account an operator pre-registered: the user completes it and sets a password. */
  PRE_REGISTRATION: { sentByServer: true },
  /** A code went to the account's address: to sign in with it, or (parameters.action = setup) to set it up. */
  EMAIL_MFA: { sentByServer: true },
  /** The account was made (or completed) and every gate is settled; `redirect_to` leads back to the client app. */
  SUCCESS_REGISTRATION: { sentByServer: true },
  /** The password was reset. */
  SUCCESS_PASSWORD_RESET: { sentByServer: true },
  /** The user belongs to several companies and picks the one this sign-in (or sign-up) acts for. */
  MULTIPLE_COMPANIES_REGISTRATION: { sentByServer: true },
  /** The user proves a passkey as the second factor (parameters.passkey: the ceremony and the browser's options). */
  PASSKEY_MFA: { sentByServer: true },
  /** Setting up a passkey as the second factor (parameters.passkey: the options to create one). */
  SETUP_PASSKEY_MFA: { sentByServer: true },
  /** Signing in with a passkey instead of the password (parameters.passkey); the sign-in stays at the login step until it verifies. */
  PASSKEY_SIGN_IN: { sentByServer: true },
  /** A client app that is not first-party asks for access the person has not allowed yet (or asked with prompt=consent): the person allows or declines (parameters.client_name, parameters.scopes). */
  CONSENT_REQUIRED: { sentByServer: true },
  /**
   * A first second factor was just set up at sign-in and the account has no recovery codes left: the server made a set,
   * shown once (parameters.recovery_codes); the person saves them and goes on. A sign-up shows its set on SUCCESS_REGISTRATION.
   */
  SAVE_RECOVERY_CODES: { sentByServer: true },
} as const satisfies Record<string, ChallengeDefinition>;

/** A challenge kind of the contract. */
export type ChallengeKind = keyof typeof CHALLENGES;

/** A challenge kind the server answers with. */
export type ServerChallengeKind = { [Kind in ChallengeKind]: (typeof CHALLENGES)[Kind]['sentByServer'] extends true ? Kind : never }[ChallengeKind];

/** Every challenge kind, in the spec's order. */
export const CHALLENGE_KINDS = Object.keys(CHALLENGES) as ChallengeKind[];

/** The kinds the server answers with, in the spec's order. */
export const SERVER_CHALLENGE_KINDS = CHALLENGE_KINDS.filter((kind) => CHALLENGES[kind].sentByServer) as ServerChallengeKind[];
