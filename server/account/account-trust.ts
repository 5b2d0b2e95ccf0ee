import { ApiError } from '../errors.ts';
import type { Services } from '../services.ts';
import { listTrustedDevices, revokeAllTrustedDevices, revokeTrustedDevice } from '../store/trusted-devices.ts';
import { describeAgent } from '../auth/user-agent.ts';
import type { AccountCaller } from './account-token.ts';
import type { TrustedDeviceSummary } from '../../contract/account-api.ts';

/** The caller's trusted browsers ("Don't ask for a code on this device"), the most recently used first. */
export async function listTrustedBrowsers(deps: Pick<Services, 'db' | 'clock'>, caller: AccountCaller): Promise<{ devices: TrustedDeviceSummary[] }> {
  const devices = await listTrustedDevices(deps.db, caller.userId, new Date(deps.clock()));
  return {
    devices: devices.map((device) => ({
      id: device.id,
      ...describeAgent(device.userAgent ?? ''),
      ip: device.ip ?? '',
      createdAt: device.createdAt.toISOString(),
      lastUsedAt: device.lastUsedAt?.toISOString() ?? null,
      expiresAt: device.expiresAt.toISOString(),
    })),
  };
}

/** Revokes one of the caller's trusted browsers: its next sign-in asks for a code again. */
export async function revokeTrustedBrowser(deps: Pick<Services, 'db' | 'clock'>, caller: AccountCaller, id: string) {
  if (!(await revokeTrustedDevice(deps.db, caller.userId, id))) throw new ApiError('account.trusted_device_not_found');
  return listTrustedBrowsers(deps, caller);
}

/** Revokes every trusted browser of the caller. */
export async function revokeAllTrustedBrowsers(deps: Pick<Services, 'db' | 'clock'>, caller: AccountCaller) {
  await revokeAllTrustedDevices(deps.db, caller.userId);
  return listTrustedBrowsers(deps, caller);
}
