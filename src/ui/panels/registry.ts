/**
 * The panel registry: a step shows a panel by name with `"panel": "<name>"`, above its form, fed the answer's
 * parameters. A panel's heavy part loads on demand as a chunk of its own (the QR code's drawing code), so the login
 * screen never carries it; the panel's frame renders at once, its room kept, so nothing below it moves on arrival.
 */
import { lazy, type ComponentType } from 'react';
import type { PanelProps } from './panel-props.ts';
import { TotpSetupPanel } from './totp-setup-panel.tsx';

/** Panel name -> component. */
export const panelRegistry: Readonly<Record<string, ComponentType<PanelProps>>> = {
  'totp-setup': TotpSetupPanel,
  passkey: lazy(() => import('./passkey-panel.tsx')),
  'passkey-autofill': lazy(() => import('./passkey-autofill-panel.tsx')),
  'recovery-codes': lazy(() => import('./recovery-codes-panel.tsx')),
};
