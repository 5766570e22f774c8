import { sql } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { POTENTIAL_WEIGHTS, PRICE_BAND_RATIO, PRICE_SWEET_SPOT_RUB } from '../../../contract/research';

/**
 * Loading the market store (server/db/tables/market.ts) as one whole data set.
 *
 * A load writes rows into the stage tables (`market_stage_*`: what the generator makes or an import reads, with the
 * sums over 7/30/90 days of each series, no indexes; server/areas/research/stage.ts), then builds `market_products_next`, `market_product_history_next` and
 * `market_keywords_next` from them with every derived figure (growth, the potential score), adds the live tables' indexes to them, and swaps them in for the live tables in one
 * transaction. Readers see the old data set until the commit and the new one after it; a load that fails at any
 * point before the swap leaves the live tables as they were (`discardLoad` drops what it had built).
 */

export const STAGE = { products: 'market_stage_products', history: 'market_product_history_next', keywords: 'market_stage_keywords' } as const;

const LIVE_TABLES = ['market_products', 'market_product_history', 'market_keywords'] as const;
type LiveTable = (typeof LIVE_TABLES)[number];
const next = (table: LiveTable) => `${table}_next`;

/** Creates empty stage tables (dropping any left by an interrupted load). */
export async function beginLoad(database: Database): Promise<void> {
  await discardLoad(database);
  await database.query(`create unlogged table ${STAGE.products} (
    sku bigint not null, name text not null, category_id integer not null, type_id integer not null, brand text not null,
    seller_id integer not null, seller_name text not null, seller_country text not null, price numeric(12,2) not null,
    rating real, reviews integer not null, first_seen date not null, s7 integer not null, s30 integer not null, s90 integer not null, r7 bigint not null,
    r30 bigint not null, r90 bigint not null, prev30 integer not null)`);
  // The series go straight to their next table: they are the bulk of a load and need no derivation.
  await database.query(`create table ${STAGE.history} (like market_product_history including defaults including constraints)`);
  await database.query(`create unlogged table ${STAGE.keywords} (keyword text not null, category_id integer, results integer not null,
    from_day date not null, frequency integer[] not null, top_skus bigint[] not null, f7 integer not null, f30 integer not null,
    f90 integer not null, prev30 integer not null)`);
}

/** Drops the stage and next tables of a load that will not be swapped in. The live tables are untouched. */
export async function discardLoad(database: Database): Promise<void> {
  for (const table of new Set([...Object.values(STAGE), ...LIVE_TABLES.map(next)])) await database.query(`drop table if exists ${table}`);
}

const growthSql = (now: string, before: string) => `case when ${before} > 0 then round(((${now} - ${before}) * 100.0 / ${before})::numeric, 1)::real end`;

/**
 * Builds market_products_next from the staged products (their figures summed when staged). The potential score's
 * parts are each a percentile over the whole market (0-100: the share of products this one does better than), weighed
 * by contract/research.ts POTENTIAL_WEIGHTS, so the score ranks: fixed thresholds gave hundreds of products a full
 * 100 in every part (891 of 1,000,000 scored 99.5 or more), which ranked nothing.
 * - demand: how fast its units rise, ln((last 30 days + 5) / (the 30 before + 5)) (the 5 damps a few units on
 *   nothing), the units of the last 30 days deciding between equal rises;
 * - competition: how few sellers offer its leaf type in its price band (prices within PRICE_BAND_RATIO), stored as
 *   `type_sellers`;
 * - reviews: how few reviews it has (those with more are what it beats);
 * - price: how near its price is to PRICE_SWEET_SPOT_RUB on a log scale.
 * Ties share the lower percentile (`percent_rank`), so equal inputs score the same.
 */
export async function buildProducts(database: Database): Promise<void> {
  await database.query(`create table ${next('market_products')} (like market_products including defaults including constraints)`);
  const w = POTENTIAL_WEIGHTS;
  /**
   * A part's percentile from its key's distinct values: how many products rank below each value (the running count
   * over the values in the part's order, less the value's own), then joined back by the value. Counting values
   * rather than ranking a million rows: four window sorts of the whole market took 37 s more at 1,000,000 products.
   */
  const below = (name: string, keys: string[], order: 'asc' | 'desc') =>
    `${name} as (select ${keys.join(', ')}, sum(count(*)) over (order by ${keys.map((k) => `${k} ${order}`).join(', ')}) - count(*) as below
      from keyed group by ${keys.join(', ')})`;
  const part = (name: string) => `100.0 * ${name}.below / greatest(1, (select count(*) - 1 from keyed))`;
  await database.db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local work_mem = '64MB'`));
    await tx.execute(
      sql.raw(`insert into ${next('market_products')}
      with banded as (
        select sku, type_id, seller_id, s30, prev30, reviews, floor(ln(price::float8 + 1) / ln(${PRICE_BAND_RATIO}))::int as band,
          abs(ln((price::float8 + 1) / ${PRICE_SWEET_SPOT_RUB})) as off
        from ${STAGE.products}
      ),
      sellers as (select type_id, band, count(distinct seller_id)::int as n from banded group by type_id, band),
      keyed as (
        select b.sku, s.n, ln((b.s30 + 5.0) / (b.prev30 + 5.0)) as rise, b.s30, b.reviews, b.off
        from banded b join sellers s using (type_id, band)
      ),
      ${below('demand', ['rise', 's30'], 'asc')},
      ${below('competition', ['n'], 'desc')},
      ${below('review_part', ['reviews'], 'desc')},
      ${below('price_part', ['off'], 'desc')},
      parts as (
        select k.sku, n as type_sellers, ${part('demand')} as demand, ${part('competition')} as competition,
          ${part('review_part')} as review_part, ${part('price_part')} as price_part
        from keyed k join demand using (rise, s30) join competition using (n) join review_part using (reviews) join price_part using (off)
      )
      select p.sku, name, category_id, type_id, brand, seller_id, seller_name, seller_country, price, rating, reviews, first_seen,
        s7, s30, s90, r7, r30, r90, ${growthSql('s30', 'prev30')},
        round((${w.demand} * demand + ${w.competition} * competition + ${w.reviews} * review_part + ${w.price} * price_part)::numeric, 1),
        round(demand::numeric, 1), round(competition::numeric, 1), round(review_part::numeric, 1), round(price_part::numeric, 1), type_sellers
      from ${STAGE.products} p join parts using (sku)`),
    );
  });
}

/** Builds market_keywords_next from the staged keywords. */
export async function buildKeywords(database: Database): Promise<void> {
  await database.query(`create table ${next('market_keywords')} (like market_keywords including defaults including constraints)`);
  await database.query(
    `insert into ${next('market_keywords')} (keyword, category_id, results, freq_7, freq_30, freq_90, growth, from_day, frequency, top_skus)
    select keyword, category_id, results, f7, f30, f90, ${growthSql('f30', 'prev30')}, from_day, frequency, top_skus from ${STAGE.keywords}`,
  );
}

type IndexDef = { name: string; definition: string; constraint: boolean };

async function indexesOf(database: Database, table: LiveTable): Promise<IndexDef[]> {
  const rows = await database.query<{ name: string; definition: string; constraint: boolean }>(
    `select i.relname as name, pg_get_indexdef(x.indexrelid) as definition,
       exists (select 1 from pg_constraint c where c.conindid = x.indexrelid) as constraint
     from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
     where t.relname = $1 and t.relnamespace = 'public'::regnamespace`,
    [table],
  );
  return rows;
}

/** The live tables' indexes (and primary keys) on the next tables, named `<name>_next`; then statistics (and vacuum). */
export async function indexNext(database: Database, onStep?: (name: string) => void): Promise<void> {
  for (const table of LIVE_TABLES) {
    for (const index of await indexesOf(database, table)) {
      onStep?.(index.name);
      if (index.constraint) {
        const [row] = await database.query<{ definition: string }>(
          `select pg_get_constraintdef(c.oid) as definition from pg_constraint c where c.conname = $1 and c.conrelid = $2::regclass`,
          [index.name, table],
        );
        await database.query(`alter table ${next(table)} add constraint ${index.name}_next ${row!.definition}`);
      } else {
        const definition = index.definition
          .replace(`INDEX ${index.name} ON`, `INDEX ${index.name}_next ON`)
          .replace(` public.${table} `, ` public.${next(table)} `);
        await database.query(definition);
      }
    }
    // The products are vacuumed, not only analyzed: the visibility map lets the research walks and counts read the
    // covering sort indexes alone. The others are read by key (the history is 1.5 GB at a million products).
    await database.query(`${table === 'market_products' ? 'vacuum (analyze)' : 'analyze'} ${next(table)}`);
  }
}

export type LoadSummary = { asOf: string; source: string; products: number; keywords: number };

/** Swaps the next tables in for the live ones and records what they hold, in one transaction; drops the old. */
export async function swapIn(database: Database, source: string, asOf: string): Promise<LoadSummary> {
  const [counts] = await database.query<{ products: number; keywords: number }>(
    `select (select count(*) from market_products_next)::int as products, (select count(*) from market_keywords_next)::int as keywords`,
  );
  const statements: string[] = [];
  for (const table of LIVE_TABLES) {
    for (const index of await indexesOf(database, table)) {
      statements.push(
        index.constraint
          ? `alter table ${table} rename constraint ${index.name} to ${index.name}_old`
          : `alter index ${index.name} rename to ${index.name}_old`,
      );
      statements.push(
        index.constraint
          ? `alter table ${next(table)} rename constraint ${index.name}_next to ${index.name}`
          : `alter index ${index.name}_next rename to ${index.name}`,
      );
    }
    statements.push(`alter table ${table} rename to ${table}_old`, `alter table ${next(table)} rename to ${table}`);
  }
  // The keyword ids' sequence belongs to the old table's column: it moves to the new one before the old is dropped.
  statements.push(`alter sequence market_keywords_id_seq owned by market_keywords.id`);
  for (const table of LIVE_TABLES) statements.push(`drop table ${table}_old`);
  statements.push(
    `insert into market_meta (id, as_of, source, products, keywords, loaded_at) values (1, '${asOf}', '${source.replace(/'/g, "''")}', ${counts!.products}, ${counts!.keywords}, now())
     on conflict (id) do update set as_of = excluded.as_of, source = excluded.source, products = excluded.products, keywords = excluded.keywords, loaded_at = excluded.loaded_at`,
  );
  await database.db.transaction(async (tx) => {
    for (const statement of statements) await tx.execute(sql.raw(statement));
  });
  for (const table of [STAGE.products, STAGE.keywords]) await database.query(`drop table if exists ${table}`);
  return { asOf, source, products: counts!.products, keywords: counts!.keywords };
}
