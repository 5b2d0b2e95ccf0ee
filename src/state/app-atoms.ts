/**
 * The app-wide store fields of the spec (section 3). Each is a plain atom: setting one replaces
 * the field wholesale, never merges into it.
 */
import { atom } from 'jotai';
import type { Flags } from '../../contract/conditions.ts';

/** The sign-up in progress; null until the register step records one. */
export interface UserRegistration {
  email: string;
  firstName: string;
  lastName: string;
  isVerifiedCompany: boolean;
}

/** The address a password recovery was asked for. */
export interface RecoverPassword {
  email: string;
}

/** One company the user may act for. */
export interface AvailableCompany {
  id: string;
  name: string;
}

export const userRegistrationAtom = atom<UserRegistration | null>(null);
export const recoverPasswordAtom = atom<RecoverPassword | null>(null);
/** True once Google Tag Manager's script has loaded (only ever with a gtmId from the analytics config). */
export const gtmLoadedAtom = atom(false);
/** The second-factor choices offered; its shape is the server's, so it stays opaque here. */
export const availableChoicesAtom = atom<unknown>(null);
export const availableCompaniesAtom = atom<readonly AvailableCompany[]>([]);
/** The flags in force once loaded (defaults, cache or service); null until then. */
export const featureFlagsAtom = atom<Flags | null>(null);
