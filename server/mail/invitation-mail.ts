import type { MailMessage } from './mailer.ts';

const SIGNATURE = '\n\n— Payments Network Sign-In\nThis message was sent automatically; replies are not read.';

/** The invitation link. Opening it only shows the step; the password the person then sets is what accepts it. */
export function invitationMail(to: string, input: { link: string; companyName: string | undefined; days: number }): MailMessage {
  const company = input.companyName ? ` for ${input.companyName}` : '';
  return {
    to,
    subject: 'You are invited to Payments Network Sign-In',
    text: `You have been invited to an account${company}.\n\nOpen this link and choose a password to accept: ${input.link}\n\nThe link works once and for ${input.days} days. If you did not expect this invitation, ignore this email.${SIGNATURE}`,
  };
}

/** Sent instead of an invitation to someone who already has an account: there is nothing to accept. */
export function companyAddedMail(to: string, input: { companyName: string; signInUrl: string }): MailMessage {
  return {
    to,
    subject: `You were added to ${input.companyName}`,
    text: `Your account can now act for ${input.companyName}. Sign in as usual to use it: ${input.signInUrl}${SIGNATURE}`,
  };
}
