import type { MailMessage } from './mailer.ts';

const SIGNATURE = '\n\n— Payments Network Sign-In\nThis message was sent automatically; replies are not read.';

/** The reset code. The code is in the body only, never in a link, so it reaches no log or referrer. */
export function resetCodeMail(to: string, code: string, minutes: number): MailMessage {
  return {
    to,
    subject: 'Your password reset code',
    text: `Your code is ${code}\n\nEnter it on the reset page within ${minutes} minutes to choose a new password. If you did not ask to reset your password, ignore this email: your password stays as it is.${SIGNATURE}`,
  };
}

/** Sent after every successful reset or change, so an owner learns of a change they did not make. */
export function passwordChangedMail(to: string, resetUrl: string): MailMessage {
  return {
    to,
    subject: 'Your password was changed',
    text: `The password of your account was just changed, and every session was signed out.\n\nIf this was not you, reset your password now: ${resetUrl}${SIGNATURE}`,
  };
}

/** Sent once when repeated wrong passwords start delaying sign-in to the account. */
export function lockoutMail(to: string, failures: number, resetUrl: string): MailMessage {
  return {
    to,
    subject: 'Several failed sign-in attempts on your account',
    text: `Someone entered a wrong password for your account ${failures} times in a row, so each further attempt now has to wait a little longer. The wait lifts by itself.\n\nIf this was you and you have forgotten your password, reset it here: ${resetUrl}\nIf it was not you, your account is still safe; you may want to reset your password anyway.${SIGNATURE}`,
  };
}

/** The code that proves a new user owns the address. In the body only, never in a link. */
export function registrationCodeMail(to: string, code: string, minutes: number): MailMessage {
  return {
    to,
    subject: 'Your registration code',
    text: `Your code is ${code}\n\nEnter it on the registration page within ${minutes} minutes to finish creating your account. If you did not try to register, ignore this email: no account is created without the code.${SIGNATURE}`,
  };
}

/**
 * Sent instead of a code when someone registers with an address that already has an account: the sign-up
 * answers exactly as for a new address, so only the owner learns of it, here.
 */
export function registrationAttemptMail(to: string, forgotUrl: string): MailMessage {
  return {
    to,
    subject: 'Someone tried to register with your email address',
    text: `Someone just tried to create a new account with this email address, which already has an account. No new account was created and yours is unchanged.\n\nIf it was you, go back to the app and log in instead. If you have forgotten your password, reset it here: ${forgotUrl}\nIf it was not you, you can ignore this email.${SIGNATURE}`,
  };
}

/** A second-factor sign-in code. In the body only, never in a link. */
export function mfaCodeMail(to: string, code: string, minutes: number): MailMessage {
  return {
    to,
    subject: 'Your sign-in code',
    text: `Your code is ${code}\n\nEnter it on the sign-in page within ${minutes} minutes. If you are not signing in right now, someone knows your password: change it at once and do not share this code.${SIGNATURE}`,
  };
}
