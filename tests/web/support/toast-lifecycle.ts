/** Watching a toast as the user does: its card on screen, and its life from appearing to closing. */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { expect, vi } from 'vitest';

/** The toast card showing `title`, if one is on screen (a button may carry the same word). */
export function toastCard(title: string): HTMLElement | undefined {
  return screen.queryAllByText(title).find((element) => element.closest('.toast'))?.closest('li') ?? undefined;
}

/** The toast `title` appears (with `text`), survives 3 s and a long hover, and is gone 1 s after the pointer leaves. */
export async function expectToastLifecycle(title: string, text?: string): Promise<void> {
  await waitFor(() => expect(toastCard(title)).toBeTruthy());
  if (text) expect(toastCard(title)?.textContent).toContain(text);
  act(() => void vi.advanceTimersByTime(3_000));
  const card = toastCard(title) as HTMLElement;
  expect(card).toBeTruthy();
  fireEvent.mouseEnter(card);
  act(() => void vi.advanceTimersByTime(60_000));
  expect(toastCard(title)).toBeTruthy();
  fireEvent.mouseLeave(card);
  act(() => void vi.advanceTimersByTime(1_000));
  expect(toastCard(title)).toBeUndefined();
}
