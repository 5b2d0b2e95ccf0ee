/**
 * Error reporting with @sentry/react, started after the first paint (the SDK is a chunk of its own) and
 * only when a DSN is configured. Release, environment and limits come from src/config.ts; trace headers go
 * only to localhost and this origin's relative paths; every event is scrubbed before it is sent.
 */
import type { BrowserOptions } from '@sentry/react';
import { config } from '../config.ts';
import { setErrorReporter } from './report-error.ts';
import { scrubEvent } from './scrub-event.ts';

/** The SDK options for `dsn`. */
export function errorReportingOptions(dsn: string): BrowserOptions {
  const settings = config.errorReporting;
  return {
    dsn,
    release: config.release.label,
    environment: config.release.environment,
    tracesSampleRate: settings.traceSampleRate,
    tracePropagationTargets: ['localhost', /^\/(?!\/)/],
    normalizeDepth: settings.normalizeDepth,
    normalizeMaxBreadth: settings.normalizeMaxBreadth,
    maxValueLength: settings.maxValueLength,
    beforeSend: (event) => scrubEvent(event),
    beforeSendSpan: (span) => scrubEvent(span),
    beforeBreadcrumb: (breadcrumb) => scrubEvent(breadcrumb),
  };
}

/** Starts error reporting if a DSN is configured (or given); resolves whether it started. */
export async function startErrorReporting(dsn: string | undefined = config.errorReporting.dsn): Promise<boolean> {
  if (!dsn) return false;
  const Sentry = await import('@sentry/react');
  Sentry.init({ ...errorReportingOptions(dsn), integrations: [Sentry.browserTracingIntegration()] });
  setErrorReporter((error) => Sentry.captureException(error));
  return true;
}
