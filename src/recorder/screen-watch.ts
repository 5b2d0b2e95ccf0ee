/**
 * Notices each screen the app shows. Every step sets the document title when it appears, so a
 * title write is a screen, reported with the path at that moment.
 */

/** Calls `report` for every screen shown from now on; returns the function that stops watching. */
export function watchScreens(report: (path: string, title: string) => void): () => void {
  // Self-contained on purpose: browser replays inject this function's source into pages before
  // the app loads, so it may use no imports and no names from outside its own body.
  const observer = new MutationObserver((mutations) => {
    // The parser writing index.html's own <title> is not a screen.
    if (document.readyState === 'loading') return;
    const titleWritten = mutations.some(
      (mutation) =>
        mutation.target.nodeName === 'TITLE' ||
        mutation.target.parentNode?.nodeName === 'TITLE' ||
        Array.from(mutation.addedNodes).some((node) => node.nodeName === 'TITLE'),
    );
    if (titleWritten) report(location.pathname, document.title);
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true });
  return () => observer.disconnect();
}
