import type Provider from 'oidc-provider';
import type { Services } from '../services.ts';
import { recordSessionDevice } from '../store/session-devices.ts';

/**
 * Notes the browser (user agent, IP) behind each provider session whenever an app signs in on it, so the account
 * page can list sessions with their device and last activity. A failure to note it never fails the sign-in.
 */
export function trackSessionDevices(provider: Provider, deps: Pick<Services, 'db' | 'clock'>, onError: (error: unknown) => void): void {
  provider.on('authorization.success', (ctx) => {
    const session = ctx.oidc.session;
    const userId = session?.accountId;
    if (!session || !userId) return;
    recordSessionDevice(deps.db, {
      sessionUid: session.uid,
      userId,
      userAgent: ctx.get('user-agent'),
      ip: ctx.ip,
      now: new Date(deps.clock()),
    }).catch(onError);
  });
}
