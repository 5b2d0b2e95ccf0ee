/**
 * The browser side of a passkey on the account page: @simplewebauthn/browser is imported only when a person adds or
 * uses a passkey, so the page's first download does not carry it. A closed prompt or a browser without WebAuthn
 * becomes a message; nothing is sent, so nothing is half-registered.
 */
import { t } from './account-messages.ts';

/** A passkey ceremony the server asked for: create one, or use one, with the server's options. */
export interface PasskeyRequest {
  ceremony: 'create' | 'get';
  options: Record<string, unknown>;
}

/** Why a ceremony did not give an answer to send, in the person's words. */
export class PasskeyCeremonyError extends Error {}

/** The server's passkey request in an answer, if it has one. */
export function passkeyRequest(answer: Record<string, unknown> | undefined): PasskeyRequest | undefined {
  const passkey = answer?.passkey as { ceremony?: unknown; options?: unknown } | undefined;
  if ((passkey?.ceremony !== 'create' && passkey?.ceremony !== 'get') || typeof passkey.options !== 'object' || passkey.options === null) return undefined;
  return { ceremony: passkey.ceremony, options: passkey.options as Record<string, unknown> };
}

/** Whether this browser can use passkeys at all. */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/** Runs the ceremony and answers the browser's credential for the server; throws PasskeyCeremonyError with the text to show. */
export async function runPasskeyCeremony(request: PasskeyRequest): Promise<Record<string, unknown>> {
  if (!passkeysSupported()) throw new PasskeyCeremonyError(t('account.passkey.unsupported'));
  const browser = await import('@simplewebauthn/browser');
  try {
    const credential =
      request.ceremony === 'create'
        ? await browser.startRegistration({ optionsJSON: request.options as unknown as Parameters<typeof browser.startRegistration>[0]['optionsJSON'] })
        : await browser.startAuthentication({ optionsJSON: request.options as unknown as Parameters<typeof browser.startAuthentication>[0]['optionsJSON'] });
    return credential as unknown as Record<string, unknown>;
  } catch (error) {
    // NotAllowedError: the person closed the prompt or let it time out. InvalidStateError: this authenticator is already added.
    const name = error instanceof Error ? error.name : '';
    if (name === 'InvalidStateError') throw new PasskeyCeremonyError(t('apiError.passkey.already_registered'));
    throw new PasskeyCeremonyError(t(name === 'NotAllowedError' ? 'account.passkey.cancelled' : 'account.passkey.failed'));
  }
}
