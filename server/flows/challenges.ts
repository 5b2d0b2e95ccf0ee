/**
 * Every challenge kind the server can answer with. The flows must give each one a step; `npm run flows:check`
 * and the consistency tests read this list, so a new kind here without a step fails the build.
 */
export const SERVER_CHALLENGES = {
  /** Every sign-in starts here. */
  LOGIN_REQUIRED: 'LOGIN_REQUIRED',
  /** A temporary or expired password must be replaced before the sign-in finishes. */
  NEW_PASSWORD_REQUIRED: 'NEW_PASSWORD_REQUIRED',
  /** An operator forced a reset: the user goes through password recovery. */
  RESET_PASSWORD: 'RESET_PASSWORD',
  /** A reset code was sent (or would have been): the user enters it. */
  PASSWORD_RECOVERY: 'PASSWORD_RECOVERY',
  /** The password was reset. */
  SUCCESS_PASSWORD_RESET: 'SUCCESS_PASSWORD_RESET',
  /** The user belongs to several companies and picks the one this sign-in (or sign-up) acts for. */
  MULTIPLE_COMPANIES_REGISTRATION: 'MULTIPLE_COMPANIES_REGISTRATION',
  /** A new code was sent (registration, or a second factor's); the code screen shows it and counts down to the next. */
  RESEND_OTP: 'RESEND_OTP',
  /** The address belongs to an account an operator pre-registered: the user completes it and sets a password. */
  PRE_REGISTRATION: 'PRE_REGISTRATION',
  /** A user without a second factor sets one up (parameters.availableChoices; parameters.registration during sign-up). */
  MFA_SETUP: 'MFA_SETUP',
  /** A user with several second factors picks the one to sign in with (parameters.availableChoices). */
  SELECT_MFA_TYPE: 'SELECT_MFA_TYPE',
  /** A code went to the account's address: to sign in with it, or (parameters.action = setup) to set it up. */
  EMAIL_MFA: 'EMAIL_MFA',
  /** Setting up SMS: the user enters a phone number. */
  SETUP_SMS_MFA: 'SETUP_SMS_MFA',
  /** A code went to the phone being set up; entering it confirms the number. */
  VERIFY_SETUP_SMS_MFA: 'VERIFY_SETUP_SMS_MFA',
  /** A code went by SMS to the user's confirmed phone. */
  SMS_MFA: 'SMS_MFA',
  /** Setting up an authenticator app: the secret, its QR code and link (parameters.mfa_code is the setup's id). */
  SETUP_SOFTWARE_TOKEN_MFA: 'SETUP_SOFTWARE_TOKEN_MFA',
  /** The user enters the code their authenticator app shows. */
  SOFTWARE_TOKEN_MFA: 'SOFTWARE_TOKEN_MFA',
  /** The account was made (or completed) and every gate is settled; `redirect_to` leads back to the client app. */
  SUCCESS_REGISTRATION: 'SUCCESS_REGISTRATION',
} as const;
