/** A value that can be bound to a `$n` placeholder. */
export type SqlValue = string | number | boolean | null | Date | Uint8Array | readonly string[] | Record<string, unknown>;

/** What every query can do: parameterised SQL only, never string-built. */
export interface Queryable {
  query<Row extends object>(sql: string, params?: readonly SqlValue[]): Promise<{ rows: Row[]; rowCount: number }>;
}

/** A unit of work inside one transaction. */
export interface Transaction extends Queryable {
  /** Runs a script of several statements; no parameters. */
  exec(sql: string): Promise<void>;
}

/** The store both backends (embedded PGlite and PostgreSQL) present to the rest of the server. */
export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `work` in one transaction; it is rolled back if `work` throws. */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Runs a script of several statements (migrations); no parameters. */
  exec(sql: string): Promise<void>;
  /** True when the database answers. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
