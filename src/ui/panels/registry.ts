/**
 * The panel registry: a step shows a panel by name with `"panel": "<name>"`, above its form, fed the answer's
 * parameters. Each panel is a chunk of its own, with its words in its step's word set, so the login screen never
 * carries one it does not show.
 */
import { lazy, type ComponentType } from 'react';
import type { PanelProps } from './panel-props.ts';

/** Panel name -> component. */
export const panelRegistry: Readonly<Record<string, ComponentType<PanelProps>>> = {
  'totp-setup': lazy(() => import('./totp-setup-panel.tsx')),
  passkey: lazy(() => import('./passkey-panel.tsx')),
  'passkey-autofill': lazy(() => import('./passkey-autofill-panel.tsx')),
  'recovery-codes': lazy(() => import('./recovery-codes-panel.tsx')),
};
