/**
 * One press of Back or Forward, one screen: an end screen (a finished or expired sign-in) stands for every history
 * entry of its sign-in, as each of them would show the same screen. Reached by Back, it moves to the sign-in's first
 * entry, so the next Back leaves for the page before the sign-in; reached by Forward, it moves past the sign-in's
 * last entry, to the page after it (the client app). Where the browser lacks the Navigation API, nothing is skipped.
 */

/** The slice of the Navigation API read here (not yet in TypeScript's DOM library). */
interface HistoryEntry {
  readonly url: string | null;
  readonly index: number;
}
interface EntryChange extends Event {
  readonly navigationType: string | null;
  readonly from: HistoryEntry;
}
interface NavigationHistory extends EventTarget {
  readonly currentEntry: HistoryEntry | null;
  /** How this document was reached: `from` is null when that page was of another origin (the client app). */
  readonly activation?: { readonly navigationType: string; readonly from: HistoryEntry | null } | null;
  entries(): HistoryEntry[];
}

/** A traversal from a page of another origin: which way it went is read from where it landed. */
const FROM_ELSEWHERE = 'elsewhere';

/** The query parameter that names one sign-in (the provider's interaction), carried by each of its screens. */
const SIGN_IN_PARAM = 'interaction';

// Absent when prerendering (no window) and in browsers without the Navigation API.
const navigation = typeof window === 'undefined' ? undefined : (window as Window & { navigation?: NavigationHistory }).navigation;

/**
 * The direction of the last traversal: -1 Back, 1 Forward, 0 none since. A step that sends the person on replaces its
 * entry, which keeps the direction: the end screen often shows only after such a replace.
 */
let lastTraversal: number | typeof FROM_ELSEWHERE = traversalOfActivation();
navigation?.addEventListener('currententrychange', (event) => {
  const { navigationType, from } = event as EntryChange;
  const to = navigation.currentEntry?.index ?? from.index;
  if (navigationType === 'traverse') lastTraversal = Math.sign(to - from.index);
  else if (navigationType !== 'replace') lastTraversal = 0;
});

/** The traversal that loaded this document (Back from the client app loads the page anew), if it was one. */
function traversalOfActivation(): number | typeof FROM_ELSEWHERE {
  const activation = navigation?.activation;
  if (activation?.navigationType !== 'traverse') return 0;
  const to = navigation?.currentEntry?.index;
  return activation.from && to !== undefined ? Math.sign(to - activation.from.index) : FROM_ELSEWHERE;
}

function signInOf(entry: HistoryEntry | undefined): string | null {
  if (!entry?.url) return null;
  return new URL(entry.url).searchParams.get(SIGN_IN_PARAM);
}

/**
 * Called when an end screen shows: after a traversal onto one entry of a sign-in, moves to its first entry (Back)
 * or past its last (Forward). Entries of other origins (the client app) are not listed by the browser, so the run
 * of the sign-in's entries ends at them.
 */
export function skipEndedSignInEntries(): void {
  const current = navigation?.currentEntry;
  const traversal = lastTraversal;
  lastTraversal = 0;
  if (!navigation || !current || traversal === 0) return;
  const signIn = signInOf(current);
  if (!signIn) return;
  const entries = navigation.entries();
  const position = entries.findIndex((entry) => entry.index === current.index);
  const runEnd = (direction: number) => {
    let end = position;
    while (signInOf(entries[end + direction]) === signIn) end += direction;
    return end;
  };
  const first = runEnd(-1);
  const last = runEnd(1);
  // From another origin, the landing tells the way: on the sign-in's last entry, from the app after it (Back); on its
  // first, from the page before it (Forward). A sign-in of one entry has nothing to skip.
  const direction = traversal !== FROM_ELSEWHERE ? traversal : position === last && first < position ? -1 : position === first && last > position ? 1 : 0;
  // Back: to the first entry of the sign-in. Forward: one past its last, wherever that page is (nothing, if none).
  const steps = direction < 0 ? first - position : direction > 0 ? last - position + 1 : 0;
  if (steps !== 0) window.history.go(steps);
}
