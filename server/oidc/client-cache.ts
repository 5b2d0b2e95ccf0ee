import type { SecretBox } from '../crypto/secret-box.ts';
import type { ChangeFeed, Database } from '../db/database.ts';
import { findClientRecord, type ClientRecord } from '../store/clients.ts';

/** The channel migration 015's trigger announces client changes on. */
const CHANGES_CHANNEL = 'sso_cache';

/**
 * Client apps as the provider reads them on every request (authorize, token, userinfo), kept in memory. Any change
 * to the `clients` table, by any process, is announced by the database (LISTEN/NOTIFY) and empties every process's
 * cache; while the announcements cannot be heard (PostgreSQL's listening connection is down) every read goes to the
 * database.
 */
export interface ClientCache {
  find(clientId: string): Promise<ClientRecord | undefined>;
  close(): Promise<void>;
}

/** Starts listening for client changes, then answers reads from memory. */
export async function createClientCache(deps: { db: Database; box: SecretBox }): Promise<ClientCache> {
  const { db, box } = deps;
  // Reads in flight are cached too, so a change announced while one is under way empties it with the rest.
  const entries = new Map<string, Promise<ClientRecord | undefined>>();
  const feed: ChangeFeed = await db.listen(CHANGES_CHANNEL, (payload) => {
    if (payload === 'clients' || payload === '*') entries.clear();
  });
  return {
    find(clientId) {
      if (!feed.live) return findClientRecord(db, box, clientId);
      const cached = entries.get(clientId);
      if (cached) return cached;
      const read = findClientRecord(db, box, clientId);
      entries.set(clientId, read);
      // A failed read (the database out of reach) is not remembered.
      read.catch(() => {
        if (entries.get(clientId) === read) entries.delete(clientId);
      });
      return read;
    },
    close: () => feed.close(),
  };
}
