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

async function apply(language: string): Promise<void> {
  await loadLanguage(language);
  document.documentElement.lang = currentLanguage();
}

/** Loads the language the user chose before, or the browser's; the app renders once it is in place. */
export function startLanguage(): Promise<void> {
  const stored = storage()?.getItem(config.languageStorageKey);
  return apply(pickLanguage([stored, ...navigator.languages]));
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
