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

/** Sent once when repeated wrong passwords start delaying sign-in to the account. */
export function lockoutMail(to: string, failures: number, resetUrl: string, guessed: 'password' | 'authenticator_code' = 'password'): MailMessage {
  if (guessed === 'authenticator_code') {
    return {
      to,
      subject: 'Several wrong authenticator codes on your account',
      text: `Someone signed in with your password and then entered a wrong authenticator code ${failures} times in a row, so each further code now has to wait a long time.\n\nIf this was not you, someone knows your password: reset it now here: ${resetUrl}${SIGNATURE}`,
    };
  }
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

/** What a security notice tells the owner happened. */
export type SecurityNoticeKind =
  | 'new_browser'
  | 'factor_added'
  | 'factor_removed'
  | 'mfa_reset'
  | 'recovery_code_used'
  | 'password_changed'
  | 'password_reset'
  | 'email_changed';

const NOTICES: Record<SecurityNoticeKind, { subject: string; what: string }> = {
  new_browser: { subject: 'New sign-in to your account', what: 'Your account was just signed in to from a browser it has not been used with before.' },
  factor_added: { subject: 'A sign-in method was added to your account', what: 'A new second factor (a way to confirm it is you when signing in) was added to your account.' },
  factor_removed: { subject: 'A sign-in method was removed from your account', what: 'A second factor was removed from your account.' },
  mfa_reset: {
    subject: 'Your sign-in methods were reset',
    what: 'Support removed every second factor of your account and signed out its sessions. At your next sign-in you will set up a new one.',
  },
  recovery_code_used: { subject: 'A recovery code was used on your account', what: 'One of your recovery codes was just used to sign in to your account.' },
  password_changed: { subject: 'Your password was changed', what: 'The password of your account was just changed.' },
  password_reset: {
    subject: 'Your password was changed',
    what: 'The password of your account was just reset with a code sent to this address, and every session was signed out.',
  },
  email_changed: { subject: 'The email address of your account was changed', what: 'The email address of your account was just changed.' },
};

/** What some notices add: an email change names the new address (masked), so the owner knows where it went. */
export interface SecurityNoticeDetail {
  newEmail?: string;
}

/** The notice's link and what it does: an email change is undone by it; every other notice is reported with it. */
function noticeLinkLines(kind: SecurityNoticeKind, url: string, days: number): string {
  if (kind === 'email_changed') {
    return (
      `This wasn't me, undo this change: ${url}\n` +
      `The link (valid ${days} days) puts this address back on your account, signs your account out everywhere, tells our support team, and has you choose a new password with a code sent to this address.`
    );
  }
  return `This wasn't me: ${url}\nThe link (valid ${days} days) signs your account out everywhere, tells our support team, and has you choose a new password.`;
}

/**
 * A security notice: what happened, when, and from which address and browser, with the "This wasn't me" link.
 * The link only opens a page; nothing happens until the owner confirms there.
 */
export function securityNoticeMail(
  to: string,
  notice: { kind: SecurityNoticeKind; at: Date; ip?: string; browser?: string; notMeUrl: string; resetUrl: string; linkDays: number } & SecurityNoticeDetail,
): MailMessage {
  const { subject, what } = NOTICES[notice.kind];
  const where = [notice.browser, notice.ip && `address ${notice.ip}`].filter(Boolean).join(', ');
  const when = `When: ${notice.at.toISOString().replace('T', ' ').slice(0, 16)} UTC${where ? `\nFrom: ${where}` : ''}`;
  const newAddress = notice.newEmail ? `\nNew address: ${notice.newEmail}` : '';
  return {
    to,
    subject,
    text:
      `${what}${newAddress}\n\n${when}\n\nIf this was you, there is nothing to do.\n\n` +
      `${noticeLinkLines(notice.kind, notice.notMeUrl, notice.linkDays)}\n\n` +
      `To choose a new password at any time: ${notice.resetUrl}${SIGNATURE}`,
  };
}

/**
 * Sent instead of a code when someone asks, on their account page, to move their account to an address that already
 * has an account: the form answers exactly as for a free address, so only the address's owner learns of it, here.
 */
export function emailChangeAttemptMail(to: string, forgotUrl: string): MailMessage {
  return {
    to,
    subject: 'Someone tried to use your email address for another account',
    text: `Someone just asked to move another account to this email address, which already has an account. Nothing was changed and yours is unchanged.\n\nIf it was you, sign in to the account that has this address. If you have forgotten its password, reset it here: ${forgotUrl}\nIf it was not you, you can ignore this email.${SIGNATURE}`,
  };
}

/** The code that proves a new address before an email change counts. */
export function emailChangeCodeMail(to: string, code: string, minutes: number): MailMessage {
  return {
    to,
    subject: 'Confirm your new email address',
    text: `Your code is ${code}\n\nEnter it on your account page within ${minutes} minutes to make this your sign-in address. If you did not ask for this, ignore this email.${SIGNATURE}`,
  };
}
