/**
 * The recorder's panel: says that the tab is recording and offers the walk as a fixture file.
 * Plain DOM outside the app's root, so the app's screens (and the recording) never include it.
 * Developer tooling: its few words are English only, not catalogue messages.
 */
import './recorder.css';

/** The panel's handle. */
export interface RecorderPanel {
  /** Shows how much has been recorded. */
  update(summary: string): void;
  /** Whether an event target is part of the panel (its own clicks are not the walk's). */
  owns(target: EventTarget | null): boolean;
  remove(): void;
}

/** Adds the panel to the page; `fixture` gives the file to download when the button is pressed. */
export function mountRecorderPanel(fixture: () => { name: string; json: string }): RecorderPanel {
  const panel = document.createElement('aside');
  panel.className = 'recorder-panel';
  panel.setAttribute('aria-label', 'Fixture recorder');
  const status = document.createElement('p');
  status.className = 'recorder-status';
  status.setAttribute('role', 'status');
  // The red dot says "recording" to the eye; the words say it to a screen reader.
  const label = document.createElement('span');
  label.className = 'visually-hidden';
  label.textContent = 'Recording: ';
  const count = document.createElement('span');
  status.append(label, count);
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'recorder-download';
  button.textContent = 'Download fixture';
  button.addEventListener('click', () => {
    const { name, json } = fixture();
    const url = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    panel.append(link);
    link.click();
    link.remove();
    // Revoking at once can cancel the download in some browsers; a few seconds is plenty.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  });
  panel.append(status, button);
  document.body.append(panel);
  return {
    update(summary) {
      if (count.textContent !== summary) count.textContent = summary;
    },
    owns: (target) => target instanceof Node && panel.contains(target),
    remove: () => panel.remove(),
  };
}
