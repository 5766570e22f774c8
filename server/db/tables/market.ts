import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, jsonb, numeric, pgTable, primaryKey, real, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { OwnProductQueries, OwnQuery } from '../../../contract/research';
import { timestamptz } from '../columns';
import { mpShops } from './core';

/**
 * The market data store behind market research (/search/*): Ozon-wide products and keywords that the seller API does
 * not give, loaded by the generator (server/market/generate.ts) or an import (docs/market-import.md).
 *
 * The daily series are arrays from `from_day` (one value a day, the last one the market's `as_of` day), so a
 * million products are a million rows, and the figures research filters and sorts on (sales and revenue over 7, 30
 * and 90 days, growth, the potential score's parts) are columns computed when the data is loaded: a query never
 * aggregates history. An import loads into `<table>_next` copies and swaps them in one transaction
 * (server/market/store.ts), so these tables always hold one whole data set.
 */

const money = (name: string) => numeric(name, { precision: 12, scale: 2, mode: 'number' });

export const marketProducts = pgTable(
  'market_products',
  {
    sku: bigint('sku', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    /** Ozon's description category (the tree's second level) and its leaf type. */
    categoryId: integer('category_id').notNull(),
    typeId: integer('type_id').notNull(),
    brand: text('brand').notNull(),
    sellerId: integer('seller_id').notNull(),
    sellerName: text('seller_name').notNull(),
    /** ISO 3166 alpha-2 ('CN' for Chinese sellers). */
    sellerCountry: text('seller_country').notNull(),
    /** Roubles, the last day's price. */
    price: money('price').notNull(),
    rating: real('rating'),
    reviews: integer('reviews').notNull(),
    firstSeen: date('first_seen', { mode: 'string' }).notNull(),
    sales7: integer('sales_7').notNull(),
    sales30: integer('sales_30').notNull(),
    sales90: integer('sales_90').notNull(),
    /** Roubles: each day's units at that day's price. */
    revenue7: bigint('revenue_7', { mode: 'number' }).notNull(),
    revenue30: bigint('revenue_30', { mode: 'number' }).notNull(),
    revenue90: bigint('revenue_90', { mode: 'number' }).notNull(),
    /** Percent change of the last 30 days' units against the 30 before; null when those were none. */
    growth: real('growth'),
    /** The potential score (0-100) and its parts (each a percentile, 0-100): server/areas/research/store.ts says how they are made. */
    potentialScore: real('potential_score').notNull(),
    potentialDemand: real('potential_demand').notNull(),
    potentialCompetition: real('potential_competition').notNull(),
    potentialReviews: real('potential_reviews').notNull(),
    potentialPrice: real('potential_price').notNull(),
    /** How many sellers offer products of this leaf type in this price band (the competition part's input). */
    typeSellers: integer('type_sellers').notNull(),
  },
  (table) => [
    index('market_products_type_sales_idx').on(table.typeId, table.sales30),
    // Each sort walks one of these (server/areas/research/queries.ts, productOrder): the sku after the figure keeps
    // equal figures in the sku's order, so a walk stops after the rows it needs (on the figure alone the planner
    // sorted each run of equal values whole: 282,000 products sold nothing in 7 days). Each also INCLUDEs the figures
    // the filters read (migration 0027, which drizzle-kit cannot write), so walks and counts read no table pages.
    index('market_products_sales_7_idx').on(table.sales7, table.sku),
    index('market_products_sales_30_idx').on(table.sales30, table.sku),
    index('market_products_sales_90_idx').on(table.sales90, table.sku),
    index('market_products_revenue_7_idx').on(table.revenue7, table.sku),
    index('market_products_revenue_30_idx').on(table.revenue30, table.sku),
    index('market_products_revenue_90_idx').on(table.revenue90, table.sku),
    index('market_products_growth_idx').on(table.growth, table.sku),
    // Descending sorts of the nullable columns put nulls last: a backward walk of the ascending index would not.
    index('market_products_growth_desc_idx').on(sql`${table.growth} desc nulls last`, sql`${table.sku} desc`),
    index('market_products_rating_idx').on(table.rating, table.sku),
    index('market_products_rating_desc_idx').on(sql`${table.rating} desc nulls last`, sql`${table.sku} desc`),
    index('market_products_reviews_idx').on(table.reviews, table.sku),
    index('market_products_price_idx').on(table.price, table.sku),
    index('market_products_first_seen_idx').on(table.firstSeen, table.sku),
    index('market_products_potential_idx').on(table.potentialScore, table.sku),
    index('market_products_seller_idx').on(table.sellerId),
    index('market_products_brand_idx').on(sql`lower(${table.brand})`),
  ],
);

export const marketProductHistory = pgTable('market_product_history', {
  sku: bigint('sku', { mode: 'number' }).primaryKey(),
  fromDay: date('from_day', { mode: 'string' }).notNull(),
  /** Units sold each day from `from_day`. */
  sales: integer('sales').array().notNull(),
  /** Roubles, each day's price from `from_day`. */
  prices: money('prices').array().notNull(),
});

export const marketKeywords = pgTable(
  'market_keywords',
  {
    id: serial('id').primaryKey(),
    keyword: text('keyword').notNull(),
    categoryId: integer('category_id'),
    /** How many products Ozon's search answers for it. */
    results: integer('results').notNull(),
    freq7: integer('freq_7').notNull(),
    freq30: integer('freq_30').notNull(),
    freq90: integer('freq_90').notNull(),
    /** Percent change of the last 30 days' searches against the 30 before; null when those were none. */
    growth: real('growth'),
    fromDay: date('from_day', { mode: 'string' }).notNull(),
    /** Searches each day from `from_day`. */
    frequency: integer('frequency').array().notNull(),
    /** The products the search answers first, best first. */
    topSkus: bigint('top_skus', { mode: 'number' }).array().notNull(),
  },
  (table) => [
    uniqueIndex('market_keywords_keyword_idx').on(sql`lower(${table.keyword})`),
    index('market_keywords_prefix_idx').on(sql`lower(${table.keyword}) text_pattern_ops`),
    index('market_keywords_freq_idx').on(table.freq30),
    index('market_keywords_top_skus_idx').using('gin', table.topSkus),
  ],
);

/** One row: what the market tables hold now. */
export const marketMeta = pgTable('market_meta', {
  id: integer('id').primaryKey().default(1),
  /** The last day of every series. */
  asOf: date('as_of', { mode: 'string' }).notNull(),
  source: text('source').notNull(),
  products: integer('products').notNull(),
  keywords: integer('keywords').notNull(),
  loadedAt: timestamp('loaded_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Imports of market data (`npm run market:import`, the admin upload): progress and the per-line error report. */
export const marketImports = pgTable('market_imports', {
  id: serial('id').primaryKey(),
  userId: integer('user_id'),
  status: text('status').notNull(),
  /** Lines read and loaded so far, per file. */
  progress: jsonb('progress').notNull().default(sql`'{}'::jsonb`),
  /** The first lines refused: `{ file, line, message }`, the message in zh, en and pt (a plain string before 0025). */
  errors: jsonb('errors').notNull().default(sql`'[]'::jsonb`),
  /** Why a failed import failed, in zh, en and pt (a plain string before 0025). */
  message: jsonb('message'),
  startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
});

/**
 * Ozon's answer on a shop's own search queries (/v1/analytics/product-queries and its details) for one period, kept
 * for OWN_QUERIES_CACHE_MS (server/areas/research/ownQueries.ts): Ozon computes them once a day, and a keyword page
 * opened again should not ask for them again (their methods have tight per-minute limits).
 */
export const researchOwnQueries = pgTable(
  'research_own_queries',
  {
    shopId: integer('shop_id')
      .notNull()
      .references(() => mpShops.id, { onDelete: 'cascade' }),
    /** The period asked (ISO instants, as sent to Ozon). */
    dateFrom: text('date_from').notNull(),
    dateTo: text('date_to').notNull(),
    /** Ozon's period, and the shop's products and queries as the answer has them. */
    answer: jsonb('answer').$type<{ period: { from: string; to: string }; products: OwnProductQueries[]; queries: OwnQuery[] }>().notNull(),
    fetchedAt: timestamptz('fetched_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.shopId, table.dateFrom, table.dateTo] })],
);
