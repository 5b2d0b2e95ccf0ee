/** What the account API answers (server/account/*), as the page reads it. */

export type FactorKind = 'email' | 'sms' | 'totp' | 'passkey';

export interface FactorSummary {
  id: string;
  kind: FactorKind;
  label: string | null;
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

export interface ActivityEntry {
  kind: string;
  at: string;
  ip: string | null;
  browser: string;
  os: string;
}
