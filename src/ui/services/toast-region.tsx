/**
 * The toasts on screen: one region per position. Each region is a live region, so screen readers
 * announce a toast as it appears (errors assertively); hovering or focusing a toast pauses it, a click closes it.
 */
import { useSyncExternalStore } from 'react';
import type { Toast, ToastPosition, ToastQueue } from '../../services/toasts.ts';
import './toasts.css';

const POSITIONS: readonly ToastPosition[] = ['top', 'top-left', 'top-right', 'bottom', 'bottom-left', 'bottom-right'];

function ToastCard({ toast, queue }: { toast: Toast; queue: ToastQueue }) {
  return (
    <li
      className={`toast toast-${toast.type}`}
      onMouseEnter={() => queue.pause(toast.id)}
      onMouseLeave={() => queue.resume(toast.id)}
      onFocus={() => queue.pause(toast.id)}
      onBlur={() => queue.resume(toast.id)}
    >
      <button type="button" className="toast-body" onClick={() => queue.close(toast.id)}>
        <strong className="toast-title">{toast.title}</strong>
        {toast.text ? <span className="toast-text">{toast.text}</span> : null}
      </button>
    </li>
  );
}

/** Renders the active toasts of `queue`. */
export function ToastRegion({ queue }: { queue: ToastQueue }) {
  const toasts = useSyncExternalStore(queue.subscribe, queue.list);
  return (
    <>
      {POSITIONS.map((position) => {
        const shown = toasts.filter((toast) => toast.state === 'active' && toast.position === position);
        const urgent = shown.some((toast) => toast.type === 'error');
        return (
          <ul key={position} className={`toast-region toast-${position}`} aria-live={urgent ? 'assertive' : 'polite'} aria-label="Notifications">
            {shown.map((toast) => (
              <ToastCard key={toast.id} toast={toast} queue={queue} />
            ))}
          </ul>
        );
      })}
    </>
  );
}
