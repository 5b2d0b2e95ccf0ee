import type { Config } from '../config.ts';

/** Origins the web app's policy must allow, by directive, for the services switched on. */
export type ThirdPartyOrigins = Partial<Record<'script-src' | 'img-src' | 'connect-src' | 'frame-src', readonly string[]>>;

const TAG_MANAGER = 'https://www.googletagmanager.com';
const BOT_CHECK = 'https://challenges.cloudflare.com';

/**
 * What the browser services need beyond this origin, only for those that are on: Google Tag Manager (with a
 * GTM_ID, as Google documents for GTM with GA4), the Turnstile widget (with BOT_CHECK_SECRET) and the
 * error-reporting ingest host (the VITE_SENTRY_DSN the app was built with, which the server reads too).
 */
export function thirdPartyOrigins(config: Pick<Config, 'gtmId' | 'botCheckSecret' | 'errorReportingDsn'>): ThirdPartyOrigins {
  const origins: Required<ThirdPartyOrigins> = { 'script-src': [], 'img-src': [], 'connect-src': [], 'frame-src': [] };
  if (config.gtmId) {
    origins['script-src'] = [...origins['script-src'], TAG_MANAGER];
    origins['img-src'] = [...origins['img-src'], TAG_MANAGER, 'https://*.google-analytics.com'];
    origins['connect-src'] = [...origins['connect-src'], 'https://*.google-analytics.com', 'https://*.analytics.google.com', TAG_MANAGER];
  }
  if (config.botCheckSecret) {
    origins['script-src'] = [...origins['script-src'], BOT_CHECK];
    origins['frame-src'] = [...origins['frame-src'], BOT_CHECK];
  }
  if (config.errorReportingDsn) {
    try {
      origins['connect-src'] = [...origins['connect-src'], new URL(config.errorReportingDsn).origin];
    } catch {
      // A DSN that is not a URL reports nothing; there is nothing to allow.
    }
  }
  return origins;
}
