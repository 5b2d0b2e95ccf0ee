import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Database, Queryable } from '../db/database.ts';
import { sendInvitation } from '../auth/invitations.ts';
import { companyAddedMail } from '../mail/invitation-mail.ts';
import type { Mailer } from '../mail/mailer.ts';
import {
  addMembership,
  DuplicateCompanyError,
  findCompanyByName,
  insertCompany,
  listCompanies,
  membersOf,
  type Company,
} from '../store/companies.ts';
import { clientSignInStart, ensureInvitedUser } from '../store/invitations.ts';
import { findCredentialsByEmail } from '../store/users.ts';
import { OperationError } from './operation-error.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const COMPANY_NAME_MAX = 200;
/** The account area, which invitations land in unless the operator names another client app. */
export const DEFAULT_INVITATION_CLIENT = 'sso-account';

function checkEmail(email: string): void {
  if (!EMAIL.test(email.trim()) || email.length > 254) throw new OperationError(`"${email}" is not a valid email address`);
}

async function requireCompany(db: Queryable, name: string): Promise<Company> {
  const company = await findCompanyByName(db, name);
  if (!company) throw new OperationError(`no company is named "${name.trim()}" (see: npm run sso -- company list)`);
  return company;
}

/** `company add NAME`. */
export async function addCompany(deps: { db: Queryable }, name: string): Promise<Company> {
  const clean = name.trim();
  if (clean === '') throw new OperationError('the company name must not be empty');
  if (clean.length > COMPANY_NAME_MAX) throw new OperationError(`the company name must be at most ${COMPANY_NAME_MAX} characters`);
  try {
    return await insertCompany(deps.db, clean);
  } catch (error) {
    if (error instanceof DuplicateCompanyError) throw new OperationError(error.message);
    throw error;
  }
}

/** `company add-user NAME EMAIL`: the user must exist (invite people who have no account yet). */
export async function addUserToCompany(deps: { db: Queryable }, name: string, email: string): Promise<{ company: Company; email: string }> {
  const company = await requireCompany(deps.db, name);
  const found = await findCredentialsByEmail(deps.db, email);
  if (!found) throw new OperationError(`no user has the email ${email.trim()} (invite them instead: npm run sso -- invite --email ... --company ...)`);
  if (!(await addMembership(deps.db, found.user.id, company.id))) throw new OperationError(`${found.user.email} already belongs to ${company.name}`);
  return { company, email: found.user.email };
}

/** `company list`, or `company members NAME`. */
export async function companyListing(deps: { db: Queryable }, name?: string): Promise<{ companies: Array<Company & { members: number }>; members?: string[] }> {
  if (name === undefined) return { companies: await listCompanies(deps.db) };
  const company = await requireCompany(deps.db, name);
  const members = await membersOf(deps.db, company.id);
  return { companies: [{ ...company, members: members.length }], members };
}

/** What `invite` takes. */
export interface InviteInput {
  email: string;
  company: string;
  clientId?: string;
}

/**
 * `invite`: adds the person to the company and emails a link to choose a password. Someone who already has an
 * account gets no link (there is nothing to accept), only a note that they were added.
 */
export async function invite(
  deps: { db: Database; mailer: Mailer; config: Pick<Config, 'publicUrl'>; clock: Clock },
  input: InviteInput,
): Promise<{ email: string; company: string; invited: boolean; expiresAt?: string }> {
  checkEmail(input.email);
  const company = await requireCompany(deps.db, input.company);
  const clientId = input.clientId ?? DEFAULT_INVITATION_CLIENT;
  if ((await clientSignInStart(deps.db, clientId)) === undefined) {
    throw new OperationError(`client ${clientId} is unknown or has no sign-in start address (client add --initiate-login-uri URI)`);
  }
  const user = await ensureInvitedUser(deps.db, input.email);
  await addMembership(deps.db, user.id, company.id);
  if (user.hasPassword) {
    const signInUrl = new URL('/auth/login', deps.config.publicUrl).href;
    await deps.mailer.send(companyAddedMail(user.email, { companyName: company.name, signInUrl }));
    return { email: user.email, company: company.name, invited: false };
  }
  const { expiresAt } = await sendInvitation(deps, { userId: user.id, email: user.email, companyId: company.id, clientId });
  return { email: user.email, company: company.name, invited: true, expiresAt: expiresAt.toISOString() };
}
