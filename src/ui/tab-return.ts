/**
 * Going back from a page opened beside a form (the terms, read while registering): a tab whose only page is this one
 * was opened by the form's new-tab link, so it is closed and the form's own tab is there again, as it was; otherwise
 * the page was reached in the form's tab, and Back returns to the form, which keeps what was typed.
 */

/** Whether this page is the only one its tab has shown, so the tab may be closed by script. */
export function isOnlyPageOfTab(): boolean {
  return window.history.length <= 1;
}

/** Closes this tab; browsers do so for a tab opened by a link whose only page this is. */
export function closeTab(): void {
  window.close();
}

/** Returns to the page before this one in the same tab. */
export function goBack(): void {
  window.history.back();
}
