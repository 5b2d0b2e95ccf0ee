/**
 * What the account API answers (server/account/*, under /api/sso/v3/account/), defined once for the server that answers
 * and the account page (src/account/) that reads it.
 */

export type FactorKind = 'email' | 'sms' | 'totp' | 'passkey';

/** One line of the sign-in methods list. */
export interface FactorSummary {
  id: string;
  kind: FactorKind;
  /** The person's name for it, if they gave one. */
  label: string | null;
  /** Where its codes go, masked (none for an authenticator app). */
  destination: string | null;
  isDefault: boolean;
  addedAt: string;
  lastUsedAt: string | null;
  /** A passkey's authenticator model, where its AAGUID is a well-known one. */
  authenticator: string | null;
}

export interface FactorList {
  factors: FactorSummary[];
  addable: FactorKind[];
  mfaRequired: boolean;
  stepUpUntil: string | null;
}

export interface RecoveryStatus {
  left: number;
  generatedAt?: string;
  low: boolean;
  codes?: string[];
}

/** One signed-in browser as the account page shows it. */
export interface SessionSummary {
  id: string;
  browser: string;
  os: string;
  ip: string;
  apps: string[];
  startedAt: string;
  lastActiveAt: string;
  current: boolean;
}

/** One line of the security activity: what happened, when, from which address and browser. */
export interface ActivityEntry {
  kind: string;
  at: string;
  ip: string | null;
  browser: string;
  os: string;
}

/** One browser the person trusted ("Don't ask for a code on this device"), as the account page shows it. */
export interface TrustedDeviceSummary {
  id: string;
  browser: string;
  os: string;
  ip: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string;
}

/** A client app the person allowed access to their account ("Apps with access"), as the account page shows it. */
export interface AppAccessSummary {
  clientId: string;
  clientName: string;
  /** The scopes allowed (openid aside): email, profile, company, offline_access. */
  scopes: string[];
  grantedAt: string;
}
