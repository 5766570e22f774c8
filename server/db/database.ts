import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/** What both drivers share: services are written against this, never against one driver. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type DatabaseKind = 'pglite' | 'postgres';

export type Database = {
  db: Db;
  kind: DatabaseKind;
  /**
   * A raw parameterised query ($1, $2 ...) answering plain rows. For bulk transfer let Postgres build the JSON:
   * `select json_agg(t)::text as chunk from (...) t` is several times faster than row objects on PGlite.
   */
  query<Row extends Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
  /** Applies the generated migrations in server/db/migrations (idempotent). */
  migrate(): Promise<void>;
  close(): Promise<void>;
};

export type DatabaseOptions = { dataDir: string; databaseUrl: string | null };

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Embedded PGlite in DATA_DIR/pglite, or a PostgreSQL server when DATABASE_URL is set. Does not migrate. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  const dir = join(options.dataDir, 'pglite');
  mkdirSync(dir, { recursive: true });
  return openPglite(dir);
}

/** `dataDir` undefined keeps the database in memory. */
export async function openPglite(dataDir?: string): Promise<Database> {
  const client = await PGlite.create(dataDir);
  const db = drizzlePglite({ client, schema });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    async query(text, params = []) {
      const result = await client.query<Record<string, unknown>>(text, params);
      return result.rows as never;
    },
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: () => client.close(),
  };
}

export async function openPostgres(connectionString: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // Fail at start, with the server's own words, rather than at the first request.
  const probe = await pool.connect();
  probe.release();
  const db = drizzlePostgres({ client: pool, schema });
  return {
    db: db as unknown as Db,
    kind: 'postgres',
    async query(text, params = []) {
      const result = await pool.query(text, params);
      return result.rows;
    },
    migrate: () => migratePostgres(db, { migrationsFolder }),
    close: () => pool.end(),
  };
}
