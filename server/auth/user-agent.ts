import Bowser from 'bowser';

/** "Chrome 140" and "Linux" from a user agent; empty strings when it says nothing we know. */
export function describeAgent(userAgent: string): { browser: string; os: string } {
  if (userAgent === '') return { browser: '', os: '' };
  const parsed = Bowser.parse(userAgent);
  const major = parsed.browser.version?.split('.')[0];
  return {
    browser: [parsed.browser.name, major].filter(Boolean).join(' '),
    os: [parsed.os.name, parsed.os.versionName ?? parsed.os.version].filter(Boolean).join(' '),
  };
}

/**
 * A user agent as a person reads it in a mail: "Chrome 155 on Linux", "Chrome 155" or "Linux"; undefined when it
 * names nothing we know (a raw user-agent string means nothing to most people, and could carry anything).
 */
export function agentLabel(userAgent: string | undefined): string | undefined {
  const { browser, os } = describeAgent(userAgent ?? '');
  return browser && os ? `${browser} on ${os}` : browser || os || undefined;
}
