/** Toasts: the life cycle queued → active → closed, with fake timers, and the live region that announces them. */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createToastQueue } from '../../src/services/toasts.ts';
import { ToastRegion } from '../../src/ui/services/toast-region.tsx';

const OPTIONS = { defaultDurationMs: 4000, pollMs: 250, maxActive: 1 };

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('toast queue', () => {
  it('shows a toast at once and closes it after the default 4 s', () => {
    const queue = createToastQueue(OPTIONS);
    const id = queue.show({ type: 'info', title: 'Saved' });
    expect(queue.stateOf(id)).toBe('active');
    vi.advanceTimersByTime(3999);
    expect(queue.stateOf(id)).toBe('active');
    vi.advanceTimersByTime(1);
    expect(queue.stateOf(id)).toBe('closed');
  });

  it('keeps a toast queued while the screen is full, and activates it at the next 250 ms poll after a place frees', () => {
    const queue = createToastQueue(OPTIONS);
    const first = queue.show({ type: 'info', title: 'One' });
    const second = queue.show({ type: 'warning', title: 'Two', durationMs: 1000 });
    expect(queue.stateOf(second)).toBe('queued');
    queue.close(first);
    expect(queue.stateOf(second)).toBe('queued');
    vi.advanceTimersByTime(250);
    expect(queue.stateOf(second)).toBe('active');
    vi.advanceTimersByTime(1000);
    expect(queue.stateOf(second)).toBe('closed');
  });

  it('pauses while hovered and resumes with the time it had left', () => {
    const queue = createToastQueue(OPTIONS);
    const id = queue.show({ type: 'success', title: 'Done' });
    vi.advanceTimersByTime(3000);
    queue.pause(id);
    vi.advanceTimersByTime(60_000);
    expect(queue.stateOf(id)).toBe('active');
    queue.resume(id);
    vi.advanceTimersByTime(999);
    expect(queue.stateOf(id)).toBe('active');
    vi.advanceTimersByTime(1);
    expect(queue.stateOf(id)).toBe('closed');
  });

  it('closes queued and active toasts alike on clear', () => {
    const queue = createToastQueue(OPTIONS);
    const ids = [queue.show({ type: 'info', title: 'A' }), queue.show({ type: 'error', title: 'B' })];
    queue.clear();
    expect(ids.map((id) => queue.stateOf(id))).toEqual(['closed', 'closed']);
    expect(queue.list()).toEqual([]);
  });
});

describe('toast region', () => {
  it('announces a toast in a live region at its position, pauses on hover and closes on click', () => {
    const queue = createToastQueue({ ...OPTIONS, maxActive: 3 });
    render(<ToastRegion queue={queue} />);
    let id = 0;
    act(() => {
      id = queue.show({ type: 'error', title: 'Could not save', text: 'Try again', position: 'bottom-left' });
    });
    const title = screen.getByText('Could not save');
    expect(title.closest('ul')?.className).toContain('toast-bottom-left');
    expect(title.closest('ul')?.getAttribute('aria-live')).toBe('assertive');

    fireEvent.mouseEnter(title.closest('li') as HTMLElement);
    act(() => void vi.advanceTimersByTime(10_000));
    expect(screen.getByText('Could not save')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: /Could not save/ }));
    expect(screen.queryByText('Could not save')).toBeNull();
    expect(queue.stateOf(id)).toBe('closed');
  });
});
