/**
 * Switches the fixture recorder, a development aid, on and off: `?record=1` on any page starts a
 * new recording in this tab, and Ctrl+Alt+R starts one (reloading the page, so the walk begins
 * with the page's own requests) or stops it. Only this file ships with the login screen; the
 * recorder itself is loaded on demand.
 */
import { config } from '../config.ts';

/** What this page load does: nothing, start a new recording, or go on with the tab's recording. */
export type RecorderMode = 'off' | 'new' | 'continue';

/** The mode for a page opened with `search`, given the tab's stored switch value. */
export function recorderMode(search: string, stored: string | null): RecorderMode {
  if (new URLSearchParams(search).get(config.recorder.query) === '1' || stored === 'new') return 'new';
  return stored === 'on' ? 'continue' : 'off';
}

let stop: (() => void) | undefined;

/** Turns the recorder off, or on from the top of this page. */
function toggle(): void {
  const { switchKey, walkKey } = config.recorder;
  if (stop || sessionStorage.getItem(switchKey)) {
    stop?.();
    stop = undefined;
    sessionStorage.removeItem(switchKey);
    sessionStorage.removeItem(walkKey);
    return;
  }
  sessionStorage.setItem(switchKey, 'new');
  location.reload();
}

/** Listens for Ctrl+Alt+R and, when this page load records, loads the recorder; resolves once it watches. */
export async function startRecorderIfAsked(): Promise<void> {
  try {
    document.addEventListener('keydown', (event) => {
      // `code`, not `key`: with Alt held, macOS types "®" for R.
      if (event.ctrlKey && event.altKey && event.code === 'KeyR') toggle();
    });
    const mode = recorderMode(location.search, sessionStorage.getItem(config.recorder.switchKey));
    if (mode === 'off') return;
    sessionStorage.setItem(config.recorder.switchKey, 'on');
    const { startRecorder } = await import('./recorder.ts');
    stop = startRecorder({ fresh: mode === 'new' });
  } catch {
    // No session storage (a locked-down browser) or a failed chunk load: the app runs unrecorded.
  }
}
