/**
 * A new account's first recovery codes, in the answer that ends its sign-up: shown this once, to copy. Nothing at
 * all without them (an account that has codes already, or no second factor).
 */
import { useState } from 'react';
import { t } from '../../services/messages.ts';
import type { PanelProps } from './panel-props.ts';
import './recovery-codes-panel.css';

const codesOf = (parameters: PanelProps['parameters']): string[] => {
  const value = parameters?.recovery_codes;
  return Array.isArray(value) ? value.filter((code): code is string => typeof code === 'string') : [];
};

/** The codes as a list a screen reader names, and a button that copies them all. */
export default function RecoveryCodesPanel({ parameters }: PanelProps) {
  const codes = codesOf(parameters);
  const [copied, setCopied] = useState(false);
  if (codes.length === 0) return null;
  // A browser that refuses the clipboard leaves the button as it was: the codes stay on screen to copy by hand.
  const copy = () =>
    navigator.clipboard
      ?.writeText(codes.join('\n'))
      .then(() => setCopied(true))
      .catch(() => undefined);
  return (
    <section className="step-section" aria-labelledby="recovery-codes-title">
      <h2 className="step-section-headline" id="recovery-codes-title">
        {t('recoveryCodes.title')}
      </h2>
      <p className="body">{t('recoveryCodes.shownOnce')}</p>
      <ol className="recovery-codes" aria-labelledby="recovery-codes-title">
        {codes.map((code, index) => (
          // By place, not by code: a replayed fixture shows one sample code ten times.
          <li key={index}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <button type="button" data-step-action className="step-action" onClick={() => void copy()}>
        {copied ? t('recoveryCodes.copied') : t('recoveryCodes.copy')}
      </button>
    </section>
  );
}
