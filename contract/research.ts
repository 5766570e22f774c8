import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { defineListSchema, dict, dictInt, int, money, number, range, anyOf, text, type RowOf } from './listSchema';
import { lazySchema } from './lazySchema';

/**
 * Market research (seller-tool /search/*): hot, new and Chinese-seller products, keywords and potential products over
 * the market data store (server/db/tables/market.ts).
 */

/** How the potential score weighs its parts (each 0-100); the weights add up to 1. */
export const POTENTIAL_WEIGHTS = { demand: 0.4, competition: 0.25, reviews: 0.2, price: 0.15 } as const;
export type PotentialPart = keyof typeof POTENTIAL_WEIGHTS;
/** The price part's best price: the middle (geometric) of the 500-3,000 roubles band cross-border sellers ship profitably. */
export const PRICE_SWEET_SPOT_RUB = Math.round(Math.sqrt(500 * 3000));
/** Prices within this ratio of each other are one price band (the competition part counts the sellers in it). */
export const PRICE_BAND_RATIO = 1.5;


/** The periods the sales and revenue figures cover. */
export const PERIODS = [7, 30, 90] as const;
export type Period = (typeof PERIODS)[number];
/** Rows a research query answers at most: one page of the sorted result, the worker asks for the next as the table scrolls. */
export const MAX_RESULT_ROWS = 2_000;
/** How deep the pages of one sorted result go (the research table and its exports read at most this many rows). */
export const MAX_RESULT_DEPTH = 100_000;
/**
 * The rows query counts up to here; a larger result answers the planner's estimate, and the page asks for the exact
 * count apart (`countOnly`), which it shows when it arrives.
 */
export const COUNT_CAP = 10_000;
/** An export holds at most this many rows: a larger result is refused (the filters narrow it). */
export const EXPORT_MAX_ROWS = 100_000;
/** Rows per page of an export: the worker asks page after page, reporting progress between them. */
export const EXPORT_PAGE_ROWS = 5_000;
/** "New" products: first seen within this many days by default. */
export const DEFAULT_NEW_DAYS = 30;

export const PRODUCT_SORTS = [
  'sales7', 'sales30', 'sales90', 'revenue7', 'revenue30', 'revenue90', 'growth', 'price', 'rating', 'reviews', 'firstSeen', 'potentialScore',
] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

const dayText = () => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'invalid');
const amount = () => z.number().min(0).max(1e12);
const sortSchema = () => z.object({ column: z.enum(PRODUCT_SORTS), direction: z.enum(['asc', 'desc']) });

/** The filters of the product research pages; every bound is inclusive and optional. */
const productFilterFields = () => ({
  /** A node of the category tree at any level (a root, a category or a leaf type). */
  categoryId: z.number().int().positive().optional(),
  period: z.union([z.literal(7), z.literal(30), z.literal(90)]).default(30),
  priceMin: amount().optional(),
  priceMax: amount().optional(),
  salesMin: amount().optional(),
  salesMax: amount().optional(),
  revenueMin: amount().optional(),
  revenueMax: amount().optional(),
  /** Percent. */
  growthMin: z.number().min(-100).max(1e6).optional(),
  growthMax: z.number().min(-100).max(1e6).optional(),
  ratingMin: z.number().min(0).max(5).optional(),
  reviewsMin: amount().optional(),
  reviewsMax: amount().optional(),
  brand: z.string().trim().max(100).optional(),
  /** A seller's name (part of it) or id. */
  seller: z.string().trim().max(100).optional(),
  firstSeenFrom: dayText().optional(),
  firstSeenTo: dayText().optional(),
  sort: sortSchema().default({ column: 'sales30', direction: 'desc' }),
  limit: z.number().int().min(1).max(MAX_RESULT_ROWS).default(500),
  /** Rows of the sorted result skipped: the next page starts where the last ended. */
  offset: z.number().int().min(0).max(MAX_RESULT_DEPTH - 1).default(0),
  /** Only the exact number of products the filters match (`total`), no rows. */
  countOnly: z.boolean().default(false),
});

export const productQuerySchema = lazySchema(() => z.object(productFilterFields()));
export type ProductQuery = z.input<typeof productQuerySchema>;
export const newProductQuerySchema = lazySchema(() => z.object({ ...productFilterFields(), newDays: z.number().int().min(1).max(365).default(DEFAULT_NEW_DAYS) }));
export type NewProductQuery = z.input<typeof newProductQuerySchema>;

/** The potential page: the product filters plus a floor on the score and on each of its parts (0-100). */
export const potentialQuerySchema = lazySchema(() =>
  z.object({
    ...productFilterFields(),
    scoreMin: z.number().min(0).max(100).optional(),
    demandMin: z.number().min(0).max(100).optional(),
    competitionMin: z.number().min(0).max(100).optional(),
    reviewsPartMin: z.number().min(0).max(100).optional(),
    pricePartMin: z.number().min(0).max(100).optional(),
    sort: sortSchema().default({ column: 'potentialScore', direction: 'desc' }),
  }),
);
export type PotentialQuery = z.input<typeof potentialQuerySchema>;

/**
 * Where the next page of a product export starts: the last row's sort value (its text as the database writes it,
 * null for a product without one) and sku. Pages follow the sort's index from there, as deep as the export goes.
 */
const productCursorSchema = () => z.object({ value: z.string().max(40).nullable(), sku: z.number().int().positive() });
export type ProductCursor = z.infer<ReturnType<typeof productCursorSchema>>;
/** A page of an export: the list's query (filters and sort), `after` the previous page's `next`. */
const exportPaging = <Cursor extends z.ZodType>(cursor: Cursor) => ({
  after: cursor.optional(),
  limit: z.number().int().min(1).max(EXPORT_PAGE_ROWS).default(EXPORT_PAGE_ROWS),
});
export const productExportQuerySchema = lazySchema(() => productQuerySchema.omit({ offset: true, countOnly: true }).extend(exportPaging(productCursorSchema())));
export const newProductExportQuerySchema = lazySchema(() => newProductQuerySchema.omit({ offset: true, countOnly: true }).extend(exportPaging(productCursorSchema())));
export const potentialExportQuerySchema = lazySchema(() => potentialQuerySchema.omit({ offset: true, countOnly: true }).extend(exportPaging(productCursorSchema())));

/** A research result row (the list engine's columns below); days are epoch milliseconds of UTC midnight. */
export const MARKET_PRODUCT_LIST = defineListSchema({
  name: 'market-products',
  columns: {
    key: text(),
    sku: int(),
    name: text(),
    categoryId: dictInt(),
    typeId: dictInt(),
    brand: dict(),
    sellerId: dictInt(),
    sellerName: dict(),
    sellerCountry: dict(),
    price: money(),
    rating: number({ nullable: true }),
    reviews: int(),
    firstSeen: int(),
    sales7: int(),
    sales30: int(),
    sales90: int(),
    revenue7: int(),
    revenue30: int(),
    revenue90: int(),
    growth: number({ nullable: true }),
    potentialScore: number(),
    potentialDemand: number(),
    potentialCompetition: number(),
    potentialReviews: number(),
    potentialPrice: number(),
    typeSellers: int(),
  },
  key: 'key',
  searchFields: ['name', 'brand', 'sellerName'],
  filters: {
    countries: anyOf('sellerCountry'),
    brands: anyOf('brand'),
    price: range('price'),
    sales30: range('sales30'),
    growth: range('growth'),
    rating: range('rating'),
    reviews: range('reviews'),
  },
  sorts: ['sku', 'name', 'brand', 'sellerName', 'price', 'rating', 'reviews', 'firstSeen', 'sales7', 'sales30', 'sales90', 'revenue7', 'revenue30', 'revenue90', 'growth', 'potentialScore', 'potentialDemand', 'potentialCompetition', 'potentialReviews', 'potentialPrice'],
});
export type MarketProductRow = RowOf<(typeof MARKET_PRODUCT_LIST)['columns']>;

const productRowSchema = () =>
  z.object({
    key: z.string(), sku: z.number(), name: z.string(), categoryId: z.number(), typeId: z.number(), brand: z.string(), sellerId: z.number(),
    sellerName: z.string(), sellerCountry: z.string(), price: z.number(), rating: z.number().nullable(), reviews: z.number(),
    firstSeen: z.number(), sales7: z.number(), sales30: z.number(), sales90: z.number(), revenue7: z.number(), revenue30: z.number(),
    revenue90: z.number(), growth: z.number().nullable(), potentialScore: z.number(), potentialDemand: z.number(),
    potentialCompetition: z.number(), potentialReviews: z.number(), potentialPrice: z.number(), typeSellers: z.number(), deleted: z.boolean(),
  });

const marketFields = () => ({
  /** The market's last day (yyyy-mm-dd), null when no market is loaded. */
  asOf: z.string().nullable(),
});

export const productResultSchema = lazySchema(() =>
  z.object({
    ...marketFields(),
    /** The products the filters match: exact unless `totalCapped`, then COUNT_CAP. */
    total: z.number().int(),
    totalCapped: z.boolean(),
    /** With `totalCapped`: the database's estimate of the total (at least COUNT_CAP + 1), until the exact count comes. */
    estimate: z.number().int().nullable(),
    rows: z.array(productRowSchema()),
  }),
);
export type ProductResult = z.infer<typeof productResultSchema>;

/** `total` on the first page only (no `after`): the exact number of rows the export holds, at most EXPORT_MAX_ROWS. */
const exportPageFields = () => ({ ...marketFields(), total: z.number().int().nullable() });
export const productExportPageSchema = lazySchema(() =>
  z.object({ ...exportPageFields(), rows: z.array(productRowSchema()), /** Null after the last page. */ next: productCursorSchema().nullable() }),
);
export type ProductExportPage = z.infer<typeof productExportPageSchema>;

type CategoryNode = { id: number; name: string; children: CategoryNode[] };
const categoryNodeSchema: z.ZodType<CategoryNode> = z.lazy(() => z.object({ id: z.number(), name: z.string(), children: z.array(categoryNodeSchema) }));
export type { CategoryNode };
export const categoryAnswerSchema = lazySchema(() => z.object({ tree: z.array(categoryNodeSchema) }));

export const productDetailInputSchema = lazySchema(() => z.object({ sku: z.number().int().positive() }));
export const productDetailSchema = lazySchema(() =>
  z.object({
    ...marketFields(),
    product: productRowSchema(),
    /** Days from `from`, one value a day. */
    from: z.string(),
    sales: z.array(z.number()),
    prices: z.array(z.number()),
    keywords: z.array(z.object({ keyword: z.string(), freq30: z.number(), position: z.number().int() })),
  }),
);
export type ProductDetail = z.infer<typeof productDetailSchema>;

export const KEYWORD_SORTS = ['freq7', 'freq30', 'freq90', 'growth', 'results'] as const;
export const keywordQuerySchema = lazySchema(() =>
  z.object({
    /** Part of a keyword (case-insensitive); empty: the most searched. */
    text: z.string().trim().max(100).default(''),
    sort: z.object({ column: z.enum(KEYWORD_SORTS), direction: z.enum(['asc', 'desc']) }).default({ column: 'freq30', direction: 'desc' }),
    limit: z.number().int().min(1).max(500).default(100),
  }),
);
export type KeywordQuery = z.input<typeof keywordQuerySchema>;
const keywordRowSchema = () =>
  z.object({ keyword: z.string(), categoryId: z.number().nullable(), results: z.number(), freq7: z.number(), freq30: z.number(), freq90: z.number(), growth: z.number().nullable() });
export type KeywordRow = z.infer<ReturnType<typeof keywordRowSchema>>;
export const keywordResultSchema = lazySchema(() => z.object({ ...marketFields(), rows: z.array(keywordRowSchema()) }));
export type KeywordResult = z.infer<typeof keywordResultSchema>;
/** The keyword list's export pages: its search and sort, `after` the rows already exported. */
const keywordCursorSchema = () => z.object({ offset: z.number().int().min(1).max(EXPORT_MAX_ROWS) });
export const keywordExportQuerySchema = lazySchema(() => keywordQuerySchema.omit({ limit: true }).extend(exportPaging(keywordCursorSchema())));
export const keywordExportPageSchema = lazySchema(() => z.object({ ...exportPageFields(), rows: z.array(keywordRowSchema()), next: keywordCursorSchema().nullable() }));
export type KeywordExportPage = z.infer<typeof keywordExportPageSchema>;

export const keywordDetailInputSchema = lazySchema(() => z.object({ keyword: z.string().trim().min(1).max(300) }));
export const keywordDetailSchema = lazySchema(() =>
  z.object({
    ...marketFields(),
    keyword: keywordRowSchema(),
    from: z.string(),
    frequency: z.array(z.number()),
    /** Keywords sharing products with this one, most shared first. */
    related: z.array(keywordRowSchema().extend({ shared: z.number().int() })),
    /** The products the search answers first, in its order. */
    products: z.array(productRowSchema().extend({ position: z.number().int() })),
  }),
);
export type KeywordDetail = z.infer<typeof keywordDetailSchema>;

/**
 * The search queries that brought buyers to the user's own products, from Ozon (/v1/analytics/product-queries and
 * its details), for the keyword page. `views`, `position` and `conversion` are null for a shop without Ozon Premium.
 */
const ownFigures = {
  searches: z.number(),
  views: z.number().nullable(),
  /** The product's average position in the results. */
  position: z.number().nullable(),
  /** Percent of views that became orders. */
  conversion: z.number().nullable(),
  gmv: z.number(),
  currency: z.string(),
};
const ownProductSchema = () => z.object({ shopId: z.number(), shopName: z.string(), sku: z.string(), offerId: z.string(), name: z.string(), category: z.string(), ...ownFigures });
const ownQuerySchema = () => z.object({ shopId: z.number(), shopName: z.string(), sku: z.string(), offerId: z.string(), name: z.string(), query: z.string(), orders: z.number(), ...ownFigures });
export const ownQueriesSchema = lazySchema(() =>
  z.object({
    /** Ozon's period (yyyy-mm-dd), null when no shop answered. */
    period: z.object({ from: z.string(), to: z.string() }).nullable(),
    /** The user's active shops asked. */
    shops: z.number(),
    /** SKUs with searches, most searched first (each shop's first OWN_QUERIES_PRODUCTS). */
    products: z.array(ownProductSchema()),
    /** The queries of each shop's most searched SKUs (OWN_QUERIES_DETAIL_SKUS, up to 15 queries each). */
    queries: z.array(ownQuerySchema()),
    /** Shops Ozon did not answer for, with its reason. */
    failures: z.array(z.object({ shopId: z.number(), shopName: z.string(), message: z.string() })),
    /** When Ozon gave the oldest of the shops' answers (ISO; answers are kept OWN_QUERIES_CACHE_MS), null when none did. */
    fetchedAt: z.string().nullable(),
  }),
);
export type OwnQueries = z.infer<typeof ownQueriesSchema>;
export type OwnQuery = OwnQueries['queries'][number];
export type OwnProductQueries = OwnQueries['products'][number];
/** SKUs per shop listed with their search figures, and how many of the most searched get their queries. */
export const OWN_QUERIES_PRODUCTS = 100;
export const OWN_QUERIES_DETAIL_SKUS = 20;
/** Ozon's query analytics are still being computed for the latest days; the period ends this many days ago. */
export const OWN_QUERIES_LAG_DAYS = 3;
export const OWN_QUERIES_DAYS = 28;
/** How long a shop's answer for a period is reused before Ozon is asked again (Ozon computes them once a day). */
export const OWN_QUERIES_CACHE_MS = 6 * 3_600_000;

const research = { timeout: 60_000, cancellable: true } as const;
/** A page of a list's export, under the list's own role and the export permission (a page repeats safely: its cursor is in the input). */
const exportEndpoint = <Input extends z.ZodType, Answer extends z.ZodType = typeof productExportPageSchema>(
  path: string, summary: string, access: 'hotProductPro' | 'research', input: Input, answer?: Answer,
) => defineEndpoint({ method: 'POST', path, summary, access, action: 'export', input, answer: (answer ?? productExportPageSchema) as Answer, settings: { timeout: 120_000 } });

/** The largest market file an upload takes (a million products with 90-day series are about 1 GB of CSV). */
export const MARKET_IMPORT_MAX_BYTES = 4 * 1024 ** 3;
/** How many imports the market data page lists. */
export const MARKET_IMPORTS_LISTED = 10;

export const MARKET_IMPORT_STEPS = ['products', 'keywords', 'building', 'indexing', 'swapping'] as const;
export type MarketImportStep = (typeof MARKET_IMPORT_STEPS)[number];

/** One import of market data (`npm run market:import` or the upload), with its progress or outcome. */
const marketImportSchema = () =>
  z.object({
    id: z.number(),
    userName: z.string().nullable(),
    status: z.enum(['running', 'done', 'failed']),
    /** What a running import is doing. */
    step: z.enum(MARKET_IMPORT_STEPS).nullable(),
    /** Lines read per file. */
    lines: z.object({ products: z.number(), keywords: z.number() }),
    /** Lines refused in all (the first 200 are in `errors`). */
    errorCount: z.number(),
    errors: z.array(z.object({ file: z.string(), line: z.number(), message: z.string() })),
    /** Why a failed import failed (the importer's own words). */
    message: z.string().nullable(),
    startedAt: z.number(),
    finishedAt: z.number().nullable(),
  });
export type MarketImport = z.infer<ReturnType<typeof marketImportSchema>>;

/** The market the research pages read now, and the latest imports. */
export const marketDataSchema = lazySchema(() =>
  z.object({
    current: z.object({ asOf: z.string(), source: z.string(), products: z.number(), keywords: z.number(), loadedAt: z.number() }).nullable(),
    imports: z.array(marketImportSchema()),
  }),
);
export type MarketData = z.infer<typeof marketDataSchema>;

export const RESEARCH_ENDPOINTS = {
  hotProducts: defineEndpoint({
    method: 'POST', path: '/search/hotProductPro', summary: 'Hot products of the market: filters, a sort, the first rows',
    access: 'hotProductPro', action: 'view', input: productQuerySchema, answer: productResultSchema, settings: research,
  }),
  newProducts: defineEndpoint({
    method: 'POST', path: '/search/hotProductProNew', summary: 'Hot products first seen in the last N days',
    access: 'research', action: 'view', input: newProductQuerySchema, answer: productResultSchema, settings: research,
  }),
  cnProducts: defineEndpoint({
    method: 'POST', path: '/search/cnProductPro', summary: 'Hot products of Chinese sellers',
    access: 'research', action: 'view', input: productQuerySchema, answer: productResultSchema, settings: research,
  }),
  categories: defineEndpoint({
    method: 'POST', path: '/getCategory', summary: "The market's category tree (Ozon's description categories and types)",
    access: 'hotProductPro', action: 'view', answer: categoryAnswerSchema, settings: { timeout: 10_000 },
  }),
  productDetail: defineEndpoint({
    method: 'POST', path: '/search/productDetail', summary: "A market product's sales and price history and the keywords it ranks for",
    access: 'hotProductPro', action: 'view', input: productDetailInputSchema, answer: productDetailSchema, settings: { cancellable: true },
  }),
  keywords: defineEndpoint({
    method: 'POST', path: '/getQueryResult', summary: 'Keywords of the market matching a text, with their search figures',
    access: 'research', action: 'view', input: keywordQuerySchema, answer: keywordResultSchema, settings: { cancellable: true },
  }),
  keywordDetail: defineEndpoint({
    method: 'POST', path: '/search/keywordDetail', summary: "A keyword's frequency history, related keywords and the products ranking for it",
    access: 'research', action: 'view', input: keywordDetailInputSchema, answer: keywordDetailSchema, settings: { cancellable: true },
  }),
  potential: defineEndpoint({
    method: 'POST', path: '/getPotentialResult', summary: 'Products scored by rising demand against low competition, the score in its parts',
    access: 'research', action: 'view', input: potentialQuerySchema, answer: productResultSchema, settings: { cancellable: true },
  }),
  hotExport: exportEndpoint('/search/hotProductPro/export', "A page of the hot products' export (Excel or CSV, written in the worker): the query's rows in its sort", 'hotProductPro', productExportQuerySchema),
  newExport: exportEndpoint('/search/hotProductProNew/export', "A page of the new products' export: the query's rows in its sort", 'research', newProductExportQuerySchema),
  cnExport: exportEndpoint('/search/cnProductPro/export', "A page of the Chinese sellers' products export: the query's rows in its sort", 'research', productExportQuerySchema),
  potentialExport: exportEndpoint('/getPotentialResult/export', "A page of the potential products' export: the query's rows in its sort", 'research', potentialExportQuerySchema),
  keywordExport: exportEndpoint('/getQueryResult/export', "A page of the keyword list's export: the keywords matching the text in the list's sort", 'research', keywordExportQuerySchema, keywordExportPageSchema),
  ownQueries: defineEndpoint({
    method: 'GET', path: '/search/ownQueries', summary: "The search queries that brought buyers to the user's own products, from Ozon (last 4 weeks)",
    access: 'research', answer: ownQueriesSchema, settings: { timeout: 60_000 },
  }),
  marketData: defineEndpoint({
    method: 'GET', path: '/search/market/data', summary: 'The market research reads (as of, source, size) and the latest imports (administrators)',
    access: 'admin', answer: marketDataSchema,
  }),
  marketImport: defineEndpoint({
    method: 'POST', path: '/search/market/import',
    summary: 'Replaces the market with uploaded files: the products file, then the keywords file, both parts named `file` (administrators)',
    access: 'admin', action: 'edit', multipart: { fields: lazySchema(() => z.object({})), file: 'file' }, answer: marketDataSchema,
    settings: { timeout: 1_800_000, retries: 0 },
  }),
};
