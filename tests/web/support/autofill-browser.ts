/**
 * jsdom as a browser that offers passkeys in autofill (WebAuthn Level 3's conditional mediation), as the browsers
 * that record fixtures do: the login screen asks for a passkey challenge and waits, and the person, who types a
 * password instead, never picks one. The waiting request ends when the screen aborts it.
 */

/** Installs the browser's side; returns the function that removes it. */
export function offerPasskeyAutofill(): () => void {
  const had = { credentialClass: Object.getOwnPropertyDescriptor(window, 'PublicKeyCredential'), credentials: Object.getOwnPropertyDescriptor(navigator, 'credentials') };
  const credentialClass = { isConditionalMediationAvailable: async () => true, parseRequestOptionsFromJSON: (options: unknown) => options };
  const credentials = {
    get: (request?: { signal?: AbortSignal }) =>
      new Promise((_resolve, reject) => request?.signal?.addEventListener('abort', () => reject(new DOMException('The request was aborted.', 'AbortError')))),
  };
  Object.defineProperty(window, 'PublicKeyCredential', { configurable: true, value: credentialClass });
  Object.defineProperty(navigator, 'credentials', { configurable: true, value: credentials });
  return () => {
    for (const [target, name, descriptor] of [
      [window, 'PublicKeyCredential', had.credentialClass],
      [navigator, 'credentials', had.credentials],
    ] as const) {
      if (descriptor) Object.defineProperty(target, name, descriptor);
      else Reflect.deleteProperty(target, name);
    }
  };
}
