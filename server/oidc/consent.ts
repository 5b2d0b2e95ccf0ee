import type Provider from 'oidc-provider';
import type { Client, Grant } from 'oidc-provider';
import { SCOPE_CLAIMS } from './account.ts';
import { requestedAccess, type RequestedAccess } from './requested-access.ts';

/** The client metadata property saying a client is one of our own apps, which needs no consent. */
export const FIRST_PARTY_METADATA = 'sso_first_party';

/** True for a first-party client app (`sso client add --first-party`). */
export function isFirstParty(client: Client | undefined): boolean {
  return client?.metadata()[FIRST_PARTY_METADATA] === true;
}

/** What an authorization request asks a person to allow: its scopes but `openid`, which only says who they are. */
export function consentScopes(params: Record<string, unknown>): string[] {
  return requestedAccess(params).scopes.filter((scope) => scope !== 'openid');
}

/** What the consent step records in the sign-in: what the app asks, whether it asked with prompt=consent, and what was decided. */
export interface ConsentRequest {
  scopes: string[];
  /** The app sent prompt=consent: ask even if the person allowed all of it before. */
  prompt: boolean;
  firstParty: boolean;
  /** The person's answer, once given: the scopes they left unticked. */
  declined?: string[];
}

/** Reads the consent request a transaction's data carries, if any. */
export function consentRequestOf(data: Record<string, unknown>): ConsentRequest | undefined {
  const consent = data.consent as ConsentRequest | undefined;
  return consent && Array.isArray(consent.scopes) ? consent : undefined;
}

/** `access` narrowed to what the person allowed: `openid` always, and the scopes (and their claims) they allowed. */
export function withinConsent(access: RequestedAccess, allowed: readonly string[]): RequestedAccess {
  const scopes = access.scopes.filter((scope) => scope === 'openid' || allowed.includes(scope));
  const claims = access.claims.filter((claim) => Object.entries(SCOPE_CLAIMS).some(([scope, released]) => scopes.includes(scope) && (released as readonly string[]).includes(claim)));
  return { scopes, claims };
}

/** Writes down in `grant` the scopes the person declined, so the provider does not ask again within this grant. */
export function rejectDeclined(grant: Grant, declined: readonly string[]): void {
  if (declined.length > 0) grant.rejectOIDCScope(declined.join(' '));
}

/**
 * Answers an interaction that only asked for consent (the person was signed in already): the grant gets what the
 * app asked but `declined`, the sign-in itself is left as it was. Returns where the browser goes next.
 */
export async function completeConsent(provider: Provider, uid: string, accountId: string, declined: readonly string[]): Promise<string | undefined> {
  const interaction = await provider.Interaction.find(uid);
  const remaining = interaction ? interaction.exp - Math.floor(Date.now() / 1000) : 0;
  const clientId = interaction?.params.client_id;
  if (!interaction || remaining < 1 || typeof clientId !== 'string') return undefined;
  const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
  const grant = existing && existing.accountId === accountId && existing.clientId === clientId ? existing : new provider.Grant({ accountId, clientId });
  const access = requestedAccess(interaction.params);
  grant.addOIDCScope(access.scopes.filter((scope) => !declined.includes(scope)).join(' '));
  if (access.claims.length > 0) grant.addOIDCClaims(withinConsent(access, access.scopes.filter((scope) => !declined.includes(scope))).claims);
  rejectDeclined(grant, declined);
  interaction.result = { consent: { grantId: await grant.save() } };
  await interaction.save(remaining);
  return interaction.returnTo;
}

/** Answers an interaction the person declined: the app gets `access_denied`. Returns where the browser goes next. */
export async function declineInteraction(provider: Provider, uid: string): Promise<string | undefined> {
  const interaction = await provider.Interaction.find(uid);
  const remaining = interaction ? interaction.exp - Math.floor(Date.now() / 1000) : 0;
  if (!interaction || remaining < 1) return undefined;
  interaction.result = { error: 'access_denied', error_description: 'the person declined to allow the app access' };
  await interaction.save(remaining);
  return interaction.returnTo;
}
