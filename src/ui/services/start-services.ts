/**
 * The browser services, started after the first screen has rendered (this module is a chunk of its own):
 * feature flags, tag tracking, error reporting and the toast region. None of them can delay or break the
 * sign-in: each failure leaves the defaults in force or the service off.
 */
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { config } from '../../config.ts';
import type { DataLayerHost } from '../../services/analytics.ts';
import { apiObservers } from '../../services/api-client.ts';
import { appToasts } from '../../services/app-toasts.ts';
import { applyFlags } from '../../services/feature-flags/active-flags.ts';
import { createFlagCache } from '../../services/feature-flags/flag-cache.ts';
import { createFlagLoader } from '../../services/feature-flags/flag-loader.ts';
import { createFlagService } from '../../services/feature-flags/flag-service.ts';
import { startErrorReporting } from '../../services/error-reporting.ts';
import { loadScript } from '../../services/load-script.ts';
import { t } from '../../services/messages.ts';
import { toastNetworkFailures } from '../../services/network-toasts.ts';
import { startTagManager } from '../../services/tag-manager.ts';
import { ToastRegion } from './toast-region.tsx';

async function startFeatureFlags(): Promise<void> {
  const settings = config.featureFlagService;
  const loader = createFlagLoader({
    service: createFlagService({ baseUrl: settings.baseUrl, project: settings.project, environment: settings.environment, authorization: config.featureFlagClientId }),
    cache: createFlagCache({ storageKey: settings.storageKey, ttlMs: settings.cacheTtlMs }),
    defaults: config.featureFlagDefaults,
    timeoutMs: settings.timeoutMs,
    backgroundTimeoutMs: settings.backgroundTimeoutMs,
    onFailure: (message) => console.warn(`Feature flags: ${message}; the defaults apply`),
    onRefreshFailure: () => appToasts.show({ type: 'warning', title: t('toast.flagRefresh'), text: t('toast.flagRefresh.text') }),
  });
  loader.subscribe(applyFlags);
  applyFlags(await loader.load());
}

function mountToasts(): void {
  const host = document.createElement('div');
  host.className = 'toast-host';
  document.body.append(host);
  createRoot(host).render(createElement(ToastRegion, { queue: appToasts }));
  toastNetworkFailures(apiObservers, appToasts);
}

/** Starts every service; resolves when each has settled. */
export async function startServices(): Promise<void> {
  mountToasts();
  await Promise.allSettled([
    startFeatureFlags(),
    startTagManager({ ...config.analytics, host: window as DataLayerHost, loadScript: (src) => loadScript(src) }),
    startErrorReporting(),
  ]);
}
