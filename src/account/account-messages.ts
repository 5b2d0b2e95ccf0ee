/**
 * The account page's words: flows/messages/account/<language>.json, loaded with the account chunk so the login
 * screen's download never carries them. A key not found there (validation texts, API errors) comes from the main
 * catalogues, in the page's language.
 */
import english from '../../flows/messages/account/en.json';
import german from '../../flows/messages/account/de.json';
import { formatMessage } from '../../contract/message-format.ts';
import { currentLanguage, hasMessage as hasMainMessage, t as mainText, type MessageParams } from '../services/messages.ts';

const CATALOGUES: Readonly<Record<string, Readonly<Record<string, string>>>> = { en: english, de: german };

/** Whether the account page or the main catalogue has a text for `key`. */
export function hasMessage(key: string): boolean {
  return key in english || hasMainMessage(key);
}

/** The text for `key` in the page's language with `{name}` placeholders filled from `params`. */
export function t(key: string, params: MessageParams = {}): string {
  const template = CATALOGUES[currentLanguage()]?.[key] ?? (english as Record<string, string>)[key];
  if (template === undefined) return mainText(key, params);
  return formatMessage(template, params, currentLanguage());
}
