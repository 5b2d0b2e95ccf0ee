import { describe, expect, it } from 'vitest';
import { thirdPartyOrigins } from '../../server/web/third-party-origins.ts';
import { webAppCsp } from '../../server/web/security-headers.ts';

describe('third-party origins of the page policy', () => {
  it('allows nothing beyond this origin while every service is off', () => {
    expect(webAppCsp(thirdPartyOrigins({ gtmId: undefined, botCheckSecret: undefined, errorReportingDsn: undefined }))).toBe(webAppCsp());
    expect(webAppCsp()).not.toContain('frame-src');
  });

  it("lets reports reach the error-reporting host named by the DSN, and only its origin", () => {
    const origins = thirdPartyOrigins({ gtmId: undefined, botCheckSecret: undefined, errorReportingDsn: 'https://key@o1.ingest.sentry.io/42' });
    expect(origins['connect-src']).toEqual(['https://o1.ingest.sentry.io']);
    expect(webAppCsp(origins)).toContain("connect-src 'self' https://o1.ingest.sentry.io");
  });
});
