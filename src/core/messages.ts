/**
 * The message catalogue: every user-facing string comes from flows/messages/en.json by key.
 */
import catalogue from '../../flows/messages/en.json';

/** Values substituted for `{name}` placeholders. */
export type MessageParams = Readonly<Record<string, string | number>>;

const messages: Readonly<Record<string, string>> = catalogue;

/** Whether the catalogue has a text for `key`. */
export function hasMessage(key: string): boolean {
  return key in messages;
}

/**
 * The text for `key` with `{name}` placeholders filled from `params`.
 * A missing key renders as the key itself so the gap is visible rather than blank.
 */
export function t(key: string, params: MessageParams = {}): string {
  const template = messages[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : String(value);
  });
}

/** Example values for validation messages: `validation.example.email` fills `{email}`. */
export function validationExamples(): Record<string, string> {
  const prefix = 'validation.example.';
  const examples: Record<string, string> = {};
  for (const [key, text] of Object.entries(messages)) {
    if (key.startsWith(prefix)) examples[key.slice(prefix.length)] = text;
  }
  return examples;
}
