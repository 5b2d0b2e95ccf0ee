/**
 * Conditional mediation on the login screen: while the email field (autocomplete "username webauthn") is on screen,
 * a passkey request waits for the browser's autofill, which offers this site's passkeys beside saved emails. Chosen,
 * its answer goes to the step's `answer` panel call and the flow moves on. It uses the browser's own JSON methods
 * (WebAuthn Level 3), not @simplewebauthn/browser, to keep the login screen's download small; a browser without
 * them simply offers no passkeys in autofill. It shows nothing, and any failure leaves the login screen as it was.
 */
import { useEffect } from 'react';
import { apiClient } from '../../services/api-client.ts';
import { runStepCall } from '../../engine/step-call.ts';
import type { PanelProps } from './panel-props.ts';

/** The Level 3 parts of PublicKeyCredential this panel uses, where the browser has them. */
interface JsonPublicKeyCredential {
  isConditionalMediationAvailable?: () => Promise<boolean>;
  parseRequestOptionsFromJSON?: (options: unknown) => PublicKeyCredentialRequestOptions;
}

async function awaitAutofill(props: PanelProps, signal: AbortSignal): Promise<void> {
  const credentialClass = (window as { PublicKeyCredential?: JsonPublicKeyCredential }).PublicKeyCredential;
  const { options, answer } = props.calls ?? {};
  if (!options || !answer || !credentialClass?.parseRequestOptionsFromJSON || !(await credentialClass.isConditionalMediationAvailable?.())) return;
  const offered = await runStepCall({ call: options, query: props.query ?? new URLSearchParams() }, apiClient);
  const passkey = offered.parameters?.passkey as { options?: unknown } | undefined;
  const publicKey = credentialClass.parseRequestOptionsFromJSON(passkey?.options);
  const credential = (await navigator.credentials.get({ mediation: 'conditional', publicKey, signal })) as (Credential & { toJSON?: () => unknown }) | null;
  if (credential?.toJSON && !signal.aborted) props.submitCall?.(answer, { credential: credential.toJSON() });
}

/** Starts the waiting passkey request once; leaving the screen (or choosing the passkey button) aborts it. */
export function PasskeyAutofillPanel(props: PanelProps) {
  useEffect(() => {
    const abort = new AbortController();
    awaitAutofill(props, abort.signal).catch(() => undefined);
    return () => abort.abort();
    // Once per screen: a new challenge for every render would replace the one the autofill is waiting with.
  }, []);
  return null;
}

export default PasskeyAutofillPanel;
