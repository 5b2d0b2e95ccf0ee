/**
 * Guards the one place the app hands a server-provided URL to the browser.
 */

/** The absolute URL for `url` if it is http(s), else undefined (never follow javascript: or data:). */
export function safeNavigationUrl(url: unknown, base: string): string | undefined {
  if (typeof url !== 'string' || url === '') return undefined;
  try {
    const parsed = new URL(url, base);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}
