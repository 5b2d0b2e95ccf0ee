/**
 * The panel registry: a step shows a panel by name with `"panel": "<name>"`, above its form, fed the answer's
 * parameters. Panels load on demand as chunks of their own, so the login screen never carries them.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { PanelProps } from './panel-props.ts';

/** Panel name -> component. */
export const panelRegistry: Readonly<Record<string, LazyExoticComponent<ComponentType<PanelProps>>>> = {
  'totp-setup': lazy(() => import('./totp-setup-panel.tsx')),
  passkey: lazy(() => import('./passkey-panel.tsx')),
  'passkey-autofill': lazy(() => import('./passkey-autofill-panel.tsx')),
};
