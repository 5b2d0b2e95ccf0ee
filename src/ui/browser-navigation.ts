/** Leaving the app: the one call that hands the browser to another URL (mocked in tests, as jsdom cannot navigate). */

/**
 * Sends the browser to `url` in place of the current address: the page that hands over (a spinner on its way out)
 * is no place to come Back to, so Back from wherever `url` leads returns to the screen before it.
 */
export function leaveTo(url: string): void {
  window.location.replace(url);
}
