/**
 * How a catalogue text is filled, the same in the web app, the server's API answers and flows:check. `{name}` takes
 * the parameter as it is. `{name, plural, one {…} other {…}}` (ICU's plural form, the only one the catalogues use)
 * takes the branch the language's plural rules pick for the number, with `#` standing for it, so no text reads
 * "1 minutes".
 */
const PLURAL = /\{(\w+), plural,((?:\s*\w+ \{[^{}]*\})+)\s*\}/g;
const BRANCH = /(\w+) \{([^{}]*)\}/g;
const PLACEHOLDER = /\{(\w+)\}/g;

/** A message's parameters, by placeholder name. */
export type MessageValues = Readonly<Record<string, string | number | undefined>>;

/** `template` in `language`, with its placeholders filled from `values`; one without a value stays as written. */
export function formatMessage(template: string, values: MessageValues, language: string): string {
  const rules = new Intl.PluralRules(language);
  return template
    .replace(PLURAL, (whole, name: string, branches: string) => {
      const value = values[name];
      if (value === undefined) return whole;
      const texts = new Map([...branches.matchAll(BRANCH)].map(([, category, text]) => [category, text ?? '']));
      const text = texts.get(rules.select(Number(value))) ?? texts.get('other');
      return text === undefined ? whole : text.replaceAll('#', String(value));
    })
    .replace(PLACEHOLDER, (whole, name: string) => {
      const value = values[name];
      return value === undefined ? whole : String(value);
    });
}

/** The names of a text's placeholders, plain and plural, sorted and unique. */
export function placeholderNames(template: string): string[] {
  const plural = [...template.matchAll(PLURAL)].map(([, name]) => name ?? '');
  const plain = [...template.replace(PLURAL, '').matchAll(PLACEHOLDER)].map(([, name]) => name ?? '');
  return [...new Set([...plural, ...plain])].sort();
}
