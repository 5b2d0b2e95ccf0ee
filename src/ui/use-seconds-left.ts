/** A countdown in whole seconds, for waits the server sets (a resend cooldown). */
import { useEffect, useState } from 'react';

/** Seconds left of a `seconds` wait that started when `origin` (the answer that set it) arrived; 0 when over. */
export function useSecondsLeft(seconds: number | undefined, origin: unknown): number {
  const [left, setLeft] = useState(seconds ?? 0);
  useEffect(() => {
    setLeft(seconds ?? 0);
    if (!seconds || seconds <= 0) return undefined;
    const started = Date.now();
    const timer = setInterval(() => {
      const remaining = Math.max(0, seconds - Math.floor((Date.now() - started) / 1000));
      setLeft(remaining);
      if (remaining === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [seconds, origin]);
  return left;
}
