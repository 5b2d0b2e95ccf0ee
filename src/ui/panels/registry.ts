/**
 * The panel registry: a step shows a panel by name with `"panel": "<name>"`, above its form, fed the answer's
 * parameters. Panels load on demand as chunks of their own, so the login screen never carries them.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** What every panel receives. */
export interface PanelProps {
  parameters: Readonly<Record<string, unknown>> | undefined;
}

/** Panel name -> component. */
export const panelRegistry: Readonly<Record<string, LazyExoticComponent<ComponentType<PanelProps>>>> = {
  'totp-setup': lazy(() => import('./totp-setup-panel.tsx')),
};
