import type { Database } from './database';

/**
 * Planner statistics of the tables a sync fills, on PGlite. PostgreSQL's autovacuum analyzes a table once enough of
 * it changed; PGlite runs no background workers, so a freshly synced table stays "never analyzed" (pg_class.reltuples
 * -1) and statements over it are planned as if it were nearly empty (nested loops over what are tens of thousands of
 * rows). On PostgreSQL this does nothing: autovacuum does it there.
 *
 * - `first`: a shop's first sync of an entity: its rows are absent from the statistics whatever the table's size, so
 *   the tables are analyzed once more than a handful of rows changed (or any did in a table never analyzed);
 * - `changed`: autovacuum's own rule, more rows changed since the last ANALYZE than 50 + 10 % of the table;
 * - `grown`: while a run is under way, only when the table changed by more than its size at the last ANALYZE, so a
 *   first sync of a million rows analyzes a handful of times on its way, not at every page.
 *
 * ANALYZE samples at most 30,000 rows, but on PGlite it runs on the server's only thread: each table is analyzed by
 * itself, so requests waiting meanwhile are answered between two tables. Callers run it in the sync's background run,
 * never in a request.
 */
export type AnalyzeRule = 'first' | 'changed' | 'grown';

/** The tables a sync of each kind of record writes (mp_records, the areas' projections, the sales rollups). */
export const ROLLUP_TABLES = ['sales_daily', 'sales_daily_totals', 'sales_sku_weekly', 'sales_sku_span'] as const;

/** `tuples`: the rows at the last ANALYZE, -1 when never analyzed; `changed`: rows inserted, updated or deleted since. */
type TableChange = { table: string; tuples: number; changed: number };

function isDue(rule: AnalyzeRule, { tuples, changed }: TableChange): boolean {
  if (rule === 'first') return changed > 50 || (tuples < 0 && changed > 0);
  return changed > (rule === 'changed' ? 50 + 0.1 * Math.max(tuples, 0) : 1000 + Math.max(tuples, 0));
}

/** Analyzes those of `tables` that `rule` says are due (PGlite only). Answers the tables analyzed. */
export async function analyzeSynced(database: Database, tables: readonly string[], rule: AnalyzeRule): Promise<string[]> {
  if (database.kind !== 'pglite' || tables.length === 0) return [];
  // The change counters are the cumulative statistics', which a backend flushes at most once a second: flushed now,
  // after this statement, so the next one reads them with every write so far.
  await database.query(`select pg_stat_force_next_flush()`);
  const changes = await database.query<TableChange>(
    `select c.relname as table, c.reltuples::float8 as tuples, coalesce(s.n_mod_since_analyze, 0)::float8 as changed
     from pg_class c left join pg_stat_user_tables s on s.relid = c.oid
     where c.oid = any($1::regclass[])`,
    [tables],
  );
  const due = changes.filter((change) => isDue(rule, change)).map((change) => change.table);
  for (const table of due) await database.query(`analyze ${table}`);
  return due;
}
