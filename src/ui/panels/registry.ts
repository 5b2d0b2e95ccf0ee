/**
 * The panel registry: a step shows a panel by name with `"panel": "<name>"`, above its form, fed the answer's
 * parameters. Each panel is a chunk of its own, with its words in its step's word set, so the login screen never
 * carries one it does not show. The panels of a flow's steps are fetched once one of its steps shows, so the step
 * that has one usually shows it at once, whole.
 */
import { lazy, type ComponentType } from 'react';
import type { PanelProps } from './panel-props.ts';

type PanelModule = { default: ComponentType<PanelProps> };

const loaders: Readonly<Record<string, () => Promise<PanelModule>>> = {
  'totp-setup': () => import('./totp-setup-panel.tsx'),
  passkey: () => import('./passkey-panel.tsx'),
  'passkey-autofill': () => import('./passkey-autofill-panel.tsx'),
  'recovery-codes': () => import('./recovery-codes-panel.tsx'),
};

const requested = new Set<string>();
const fetched = new Map<string, ComponentType<PanelProps>>();
const onFirstRender = new Map(Object.entries(loaders).map(([name, load]) => [name, lazy(load)]));

/** Fetches panel `name`'s code ahead of its step; a panel that cannot be fetched now is fetched when it shows. */
export function prefetchPanel(name: string): void {
  const load = loaders[name];
  if (!load || requested.has(name)) return;
  requested.add(name);
  load().then(
    (module) => fetched.set(name, module.default),
    () => requested.delete(name),
  );
}

/** Panel `name`: at hand once prefetched, else fetched on its first render (its step shows meanwhile). */
export function panelFor(name: string): ComponentType<PanelProps> | undefined {
  return fetched.get(name) ?? onFirstRender.get(name);
}
