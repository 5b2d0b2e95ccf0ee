/**
 * The passkey ceremony (WebAuthn, through @simplewebauthn/browser, which loads with this panel only): the answer's
 * `parameters.passkey` says whether to create a passkey or use one, with the server's options. The browser's answer
 * is the step's submit. A browser without WebAuthn, or a prompt the user closed, gets a message and the step's other
 * links; nothing is sent, so nothing is half-registered.
 */
import { useEffect, useRef, useState } from 'react';
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { t } from '../../services/messages.ts';
import type { PanelProps } from './panel-props.ts';

type Ceremony =
  | { ceremony: 'create'; options: PublicKeyCredentialCreationOptionsJSON }
  | { ceremony: 'get'; options: PublicKeyCredentialRequestOptionsJSON };

function readCeremony(parameters: PanelProps['parameters']): Ceremony | undefined {
  const passkey = parameters?.passkey as { ceremony?: unknown; options?: unknown } | undefined;
  if (typeof passkey?.options !== 'object' || passkey.options === null) return undefined;
  if (passkey.ceremony === 'create') return { ceremony: 'create', options: passkey.options as PublicKeyCredentialCreationOptionsJSON };
  if (passkey.ceremony === 'get') return { ceremony: 'get', options: passkey.options as PublicKeyCredentialRequestOptionsJSON };
  return undefined;
}

/** The browser's WebAuthn answer for `ceremony`. */
function runCeremony(ceremony: Ceremony) {
  return ceremony.ceremony === 'create' ? startRegistration({ optionsJSON: ceremony.options }) : startAuthentication({ optionsJSON: ceremony.options });
}

/**
 * Renders the passkey button; the ceremony starts once on its own (the user just chose a passkey) unless the step has
 * a form to fill in first ("Don't ask for a passkey on this device"), and on a click.
 */
export function PasskeyPanel({ parameters, submit, busy, autoStart = true }: PanelProps) {
  const ceremony = readCeremony(parameters);
  /** The message key of what went wrong, worded when shown so it follows a switch of language. */
  const [problem, setProblem] = useState<string>();
  const [running, setRunning] = useState(false);
  const started = useRef<Ceremony | undefined>(undefined);
  const supported = browserSupportsWebAuthn();

  const start = (current: Ceremony) => {
    setProblem(undefined);
    setRunning(true);
    runCeremony(current)
      .then((credential) => submit({ credential }))
      // NotAllowedError is the user closing the prompt or letting it time out; anything else is a failure.
      .catch((error: unknown) => setProblem(error instanceof Error && error.name === 'NotAllowedError' ? 'passkey.cancelled' : 'passkey.failed'))
      .finally(() => setRunning(false));
  };

  useEffect(() => {
    if (!autoStart || !supported || !ceremony || started.current?.options.challenge === ceremony.options.challenge) return;
    started.current = ceremony;
    start(ceremony);
  });

  if (!supported) {
    return (
      <p className="alert" role="alert">
        {t('passkey.unsupported')}
      </p>
    );
  }
  return (
    <section className="passkey-panel">
      {problem ? (
        <p className="alert" role="alert">
          {t(problem)}
        </p>
      ) : null}
      <button type="button" className="button-primary" disabled={!ceremony || running || busy} onClick={() => ceremony && start(ceremony)}>
        {t(ceremony?.ceremony === 'create' ? 'passkey.create' : 'passkey.use')}
      </button>
    </section>
  );
}

export default PasskeyPanel;
