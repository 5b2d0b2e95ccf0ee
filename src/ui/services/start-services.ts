/**
 * The browser services, started after the first screen has rendered (this module is a chunk of its own):
 * feature flags, tag tracking, error reporting and the toast region. None of them can delay or break the
 * sign-in: each failure leaves the defaults in force or the service off.
 */
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { config } from '../../config.ts';
import { appToasts } from '../../core/app-toasts.ts';
import type { DataLayerHost } from '../../core/analytics.ts';
import { applyFlags } from '../../core/feature-flags/active-flags.ts';
import { createFlagCache } from '../../core/feature-flags/flag-cache.ts';
import { createFlagLoader } from '../../core/feature-flags/flag-loader.ts';
import { createFlagService } from '../../core/feature-flags/flag-service.ts';
import type { Flags } from '../../../contract/conditions.ts';
import { loadScript } from '../../core/load-script.ts';
import { startErrorReporting } from '../../core/services/error-reporting.ts';
import { startTagManager } from '../../core/services/tag-manager.ts';
import { servicesConfig } from '../../services-config.ts';
import { featureFlagsAtom, gtmLoadedAtom } from '../../state/app-atoms.ts';
import { appStore } from '../../state/app-store.ts';
import { ToastRegion } from './toast-region.tsx';

/** The window event announcing flags a background fetch brought. */
export const FLAGS_UPDATED_EVENT = 'sso:feature-flags-updated';

function putFlagsInForce(flags: Flags): void {
  applyFlags(flags);
  appStore.set(featureFlagsAtom, flags);
}

async function startFeatureFlags(): Promise<void> {
  const settings = servicesConfig.featureFlags;
  const loader = createFlagLoader({
    service: createFlagService({ baseUrl: settings.baseUrl, project: settings.project, environment: settings.environment, authorization: config.featureFlagClientId }),
    cache: createFlagCache({ storageKey: settings.storageKey, ttlMs: settings.cacheTtlMs }),
    defaults: config.featureFlagDefaults,
    timeoutMs: settings.timeoutMs,
    backgroundTimeoutMs: settings.backgroundTimeoutMs,
    onFailure: (message) => console.warn(`Feature flags: ${message}; the defaults apply`),
  });
  loader.subscribe((flags) => {
    putFlagsInForce(flags);
    window.dispatchEvent(new CustomEvent(FLAGS_UPDATED_EVENT, { detail: flags }));
  });
  putFlagsInForce(await loader.load());
}

function mountToasts(): void {
  const host = document.createElement('div');
  host.className = 'toast-host';
  document.body.append(host);
  createRoot(host).render(createElement(ToastRegion, { queue: appToasts }));
}

/** Starts every service; resolves when each has settled. */
export async function startServices(): Promise<void> {
  mountToasts();
  await Promise.allSettled([
    startFeatureFlags(),
    startTagManager({ ...servicesConfig.analytics, host: window as DataLayerHost, loadScript: (src) => loadScript(src) }).then((loaded) =>
      appStore.set(gtmLoadedAtom, loaded),
    ),
    startErrorReporting(),
  ]);
}
