import { currentProviderRequest, type PendingWrite } from './provider-request.ts';

// A row's consumption is kept apart from its upsert or destroy: neither may replace the other.
const keyOf = (write: PendingWrite) => `${write.kind === 'consume' ? 'consume' : 'write'}\u0000${write.model}\u0000${write.id}`;

/**
 * The provider's writes of one request, held back and sent together in one statement when the request's answer is
 * ready and before it leaves (a sign-in's resume destroys the Interaction and saves the code and the Session; the
 * token endpoint saves the access and refresh tokens). Nothing is deferred outside `runProviderRequest`, whose
 * caller must send what is still pending before the answer goes out, and the adapter sends them before any other
 * statement it runs, so the provider never reads around a write it made.
 */
export const requestWrites = {
  /** True inside a request whose writes are held back. */
  active: (): boolean => currentProviderRequest() !== undefined,
  /** Holds `write` back; a later write of the same row replaces it, as it would have overwritten it. */
  defer(write: PendingWrite): void {
    const state = currentProviderRequest()?.writes;
    if (!state) throw new Error('writes can only be deferred inside runProviderRequest');
    state.pending.delete(keyOf(write));
    state.pending.set(keyOf(write), write);
  },
  /**
   * Hands the writes held back so far (in the order they were made) to `writer`, after any sent before them, and
   * settles when all of them are written. Once a sending failed, every later one fails with it: what the request
   * does next would build on writes that never happened.
   */
  send(writer: (writes: PendingWrite[]) => Promise<void>): Promise<void> {
    const state = currentProviderRequest()?.writes;
    if (!state) return Promise.resolve();
    if (state.pending.size > 0) {
      const writes = [...state.pending.values()];
      state.pending.clear();
      state.sent = state.sent.then(() => writer(writes));
    }
    return state.sent;
  },
};
