/** Per-file setup for web tests: unmount what a test rendered and undo its stubs. */
import { afterEach, vi } from 'vitest';

if (typeof document !== 'undefined') {
  // Under jsdom the global Uint8Array is jsdom's while TextEncoder is Node's, so encoded bytes fail
  // jose's `instanceof Uint8Array`. A browser has one realm; copying the bytes restores that here.
  const NodeTextEncoder = globalThis.TextEncoder;
  globalThis.TextEncoder = class extends NodeTextEncoder {
    override encode(input?: string): Uint8Array<ArrayBuffer> {
      return new Uint8Array(super.encode(input));
    }
  };
}

afterEach(async () => {
  // Only jsdom tests render; node-environment files in tests/web have no document.
  if (typeof document !== 'undefined') {
    const { cleanup } = await import('@testing-library/react');
    cleanup();
    localStorage.clear();
    sessionStorage.clear();
  }
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
