import type { Provider } from 'oidc-provider';
import type { Queryable } from '../db/database.ts';
import { writeRows } from './payload-writes.ts';
import { completeInteraction, type LoginDetails } from './provider.ts';
import { runProviderRequest } from './provider-request.ts';
import { requestRows } from './request-rows.ts';
import { requestWrites } from './request-writes.ts';

/**
 * completeInteraction for the Interaction `uid` its caller has just read (`payload`; undefined when it is gone or
 * expired), without reading it again; its writes (the grant, the answered Interaction) go to `via` in one statement,
 * `written` settling when they are stored: a statement batch sends them with the caller's own writes. The scopes the
 * person `declined` are left out of the grant, as completeInteraction does.
 */
export function completeReadInteraction(
  provider: Provider,
  read: { uid: string; payload: Record<string, unknown> | undefined },
  accountId: string,
  login: LoginDetails,
  via: Queryable,
  declined: readonly string[] = [],
): Promise<{ returnTo: string; grantId: string; written: Promise<void> }> {
  return runProviderRequest(async () => {
    requestRows.keep('Interaction', 'id', read.uid, read.payload ?? null);
    const done = await completeInteraction(provider, read.uid, accountId, login, declined);
    // A sign-in's completion spends no code or refresh token: a consumption here would be a mistake, and is refused.
    const written = requestWrites.send(async (rows) => {
      if ((await writeRows(via, rows)).length > 0) throw new Error('completing an interaction consumed a single-use row');
    });
    return { ...done, written };
  });
}
