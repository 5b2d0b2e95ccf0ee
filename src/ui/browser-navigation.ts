/** Leaving the app: the one call that hands the browser to another URL (mocked in tests, as jsdom cannot navigate). */

/** Sends the browser to `url`, replacing nothing in the app's own history. */
export function leaveTo(url: string): void {
  window.location.assign(url);
}
