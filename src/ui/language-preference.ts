/**
 * The browser side of the language: the user's stored choice, else the browser's languages
 * (`navigator.languages`); the choice is remembered in localStorage and mirrored in `<html lang>`
 * so screen readers pronounce the page right.
 */
import { useSyncExternalStore } from 'react';
import { config } from '../config.ts';
import { loadLanguage, pickLanguage } from '../services/languages.ts';
import { currentLanguage, onLanguageChange } from '../services/messages.ts';

/** localStorage, or undefined where it is blocked (some private modes throw on access). */
function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** The cookie the provider's own pages (sign-out, signed out, its error page) read the language from (server/oidc/page-words.ts). */
const LANGUAGE_COOKIE = 'sso_lang';
/** A year, in seconds: the cookie lasts as long as a remembered choice would. */
const LANGUAGE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

async function apply(language: string): Promise<void> {
  await loadLanguage(language);
  document.documentElement.lang = currentLanguage();
  document.cookie = `${LANGUAGE_COOKIE}=${encodeURIComponent(currentLanguage())}; Path=/; Max-Age=${LANGUAGE_COOKIE_MAX_AGE}; SameSite=Lax${window.location.protocol === 'https:' ? '; Secure' : ''}`;
}

/** The languages a client app asked for (OpenID Connect's `ui_locales`, space-separated, best first), carried in the address. */
function clientLanguages(): string[] {
  return (new URLSearchParams(window.location.search).get('ui_locales') ?? '').split(' ').filter(Boolean);
}

/**
 * Loads the language the user chose before, else the one the client app asked for (`ui_locales`), else the
 * browser's; the app renders once it is in place.
 */
export function startLanguage(): Promise<void> {
  const stored = storage()?.getItem(config.languageStorageKey);
  return apply(pickLanguage([stored, ...clientLanguages(), ...navigator.languages]));
}

/** Switches to `language` and remembers it for the next visit. */
export function chooseLanguage(language: string): Promise<void> {
  try {
    storage()?.setItem(config.languageStorageKey, language);
  } catch {
    // A full or blocked storage only costs the memory of the choice.
  }
  return apply(language);
}

/** The current language; the component re-renders when it changes. */
export function useLanguage(): string {
  // The prerendered login screen is English, as is the language at the start of hydration (src/main.tsx).
  return useSyncExternalStore(onLanguageChange, currentLanguage, currentLanguage);
}
