/**
 * Shows a toast from code the first screen downloads, without carrying the toast queue in that download: the queue's
 * chunk (the one the services chunk mounts the toast region for) loads on first use.
 */
import type { ToastRequest } from './toasts.ts';

/** Queues `request` on the app's toast queue; a queue that cannot load (offline) costs only the toast. */
export function showToast(request: ToastRequest): void {
  void import('./app-toasts.ts').then(
    ({ appToasts }) => appToasts.show(request),
    () => undefined,
  );
}
