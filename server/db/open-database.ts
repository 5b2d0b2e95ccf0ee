import type { Database } from './database.ts';

/** Where to open the database: a PostgreSQL URL (with an optional schema) or an embedded data directory. */
export type DatabaseLocation =
  | { readonly kind: 'postgres'; readonly url: string; readonly schema?: string }
  | { readonly kind: 'pglite'; readonly dataDir: string | undefined };

/** Opens the database named by `location`; the backend's module is loaded only when used. */
export async function openDatabase(location: DatabaseLocation): Promise<Database> {
  if (location.kind === 'postgres') {
    const { openPostgres } = await import('./postgres.ts');
    return openPostgres(location.url, location.schema);
  }
  const { openPglite } = await import('./pglite.ts');
  return openPglite(location.dataDir);
}
