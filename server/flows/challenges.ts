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
  /** A new registration code was sent; the verification screen shows it and counts down to the next. */
  RESEND_OTP: 'RESEND_OTP',
  /** The address belongs to an account an operator pre-registered: the user completes it and sets a password. */
  PRE_REGISTRATION: 'PRE_REGISTRATION',
  /** The account was made (or completed) and every gate is settled; `redirect_to` leads back to the client app. */
  SUCCESS_REGISTRATION: 'SUCCESS_REGISTRATION',
} as const;
