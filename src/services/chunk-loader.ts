/**
 * Loads a lazy chunk with a time limit. A browser can leave a script request hanging for minutes on
 * a bad connection; past the limit the step shows the error page with a retry instead of a spinner
 * that never ends.
 */

/** A chunk that did not arrive: a network failure, or no answer within the limit. */
export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError';
}

/** Runs `load`, rejecting with a ChunkLoadError when it fails or takes longer than `timeoutMs`. */
export function loadChunk<T>(load: () => Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(`A part of the app took longer than ${timeoutMs} ms to load`)), timeoutMs);
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError(error instanceof Error ? error.message : String(error)));
      },
    );
  });
}
