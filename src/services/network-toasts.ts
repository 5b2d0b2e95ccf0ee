/**
 * A request that got no answer at all (offline, DNS, a dropped connection or a timeout) while a step is on screen is
 * announced with an error toast, since the step's own alert may not say why; one such toast at a time is enough.
 */
import type { ApiObservers } from './api-client.ts';
import { t } from './messages.ts';
import type { ToastQueue } from './toasts.ts';

/** Shows an error toast for each API request that ends without a response; returns the function that stops it. */
export function toastNetworkFailures(observers: ApiObservers, toasts: ToastQueue): () => void {
  return observers.add(() => (outcome) => {
    if (outcome.status !== undefined) return;
    const title = t('toast.networkError');
    if (toasts.list().some((toast) => toast.title === title)) return;
    toasts.show({ type: 'error', title, text: t('toast.networkError.text') });
  });
}
