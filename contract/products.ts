import { z } from 'zod';
import { uploadImageFieldsSchema } from './edit';
import { defineEndpoint } from './endpoint';
import { looseRowId, queryInt } from './fields';
import { lazySchema } from './lazySchema';
import { anyOf, defineListSchema, dict, dictInt, epochMs, int, money, range, text, type FiltersOf, type RowOf } from './listSchema';
import { MARKETPLACE_LIST_SETTINGS } from './plannedCalls';

/**
 * Products as the browser's cache and list engine hold them (seller-tool routes /product/oz-product-list and
 * /product/{marketplace}-product-list): one row per product card of one of the seller's shops, flattened from the
 * synced Ozon cards (mp_records, entity 'products') by server/areas/products/projection.ts.
 *
 * Ozon's int64 ids (product_id, sku) travel as strings. Prices are in the card's currency; times are epoch ms.
 */

/** What the list shows as a card's state, derived from Ozon's statuses and the archive flag. */
export const PRODUCT_STATUSES = ['selling', 'notSelling', 'moderating', 'failed', 'archived'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];
/** Whether buyers see the card: on sale with stock, hidden (no stock, not approved, removed), or archived. */
export const PRODUCT_VISIBILITIES = ['visible', 'hidden', 'archived'] as const;
export type ProductVisibility = (typeof PRODUCT_VISIBILITIES)[number];

const epochMsSchema = z.number().finite();

export const productRowSchema = lazySchema(() => z.object({
  /** `<shopId>:<productId>`: unique across the user's shops. */
  id: z.string().min(1),
  productId: z.string(),
  offerId: z.string(),
  /** Ozon's SKU; '' until moderation gives the card one. */
  sku: z.string(),
  name: z.string(),
  barcode: z.string(),
  /** The primary picture's URL ('' when the card has none). */
  image: z.string(),
  shopId: z.number().int(),
  shopName: z.string(),
  status: z.enum(PRODUCT_STATUSES),
  /** Ozon's moderation verdict as it reports it (approved, declined, moderating ...). */
  moderation: z.string(),
  visibility: z.enum(PRODUCT_VISIBILITIES),
  currency: z.string(),
  price: z.number().finite(),
  /** 0: none. */
  oldPrice: z.number().finite(),
  /** 0: none. */
  minPrice: z.number().finite(),
  /** FBS stock over all the shop's warehouses (present); per warehouse in the product's details. */
  fbsStock: z.number().int(),
  fboStock: z.number().int(),
  /** Ozon's errors on the card (moderation, attributes). */
  errorCount: z.number().int(),
  /** Units and revenue (card currency) of the last 30 days, from the shop's orders the app holds. */
  units30d: z.number().int(),
  revenue30d: z.number().finite(),
  createdAt: epochMsSchema,
  /** When Ozon last changed the card. */
  changedAt: epochMsSchema,
  /** When the server last changed this row; the sync cursor moves in this order. */
  updatedAt: epochMsSchema,
  /** A tombstone: the card was deleted (or its shop was); caches drop it. */
  deleted: z.boolean(),
}));
export type ProductRow = z.infer<typeof productRowSchema>;

export const PRODUCT_COLUMNS = [
  'id',
  'productId',
  'offerId',
  'sku',
  'name',
  'barcode',
  'image',
  'shopId',
  'shopName',
  'status',
  'moderation',
  'visibility',
  'currency',
  'price',
  'oldPrice',
  'minPrice',
  'fbsStock',
  'fboStock',
  'errorCount',
  'units30d',
  'revenue30d',
  'createdAt',
  'changedAt',
  'updatedAt',
] as const satisfies readonly (keyof ProductRow)[];
export type ProductColumn = (typeof PRODUCT_COLUMNS)[number];

/** The search box looks in these (case-insensitive substring): name, offer id, SKU, barcode. */
export const PRODUCT_SEARCH_COLUMNS = ['name', 'offerId', 'sku', 'barcode'] as const satisfies readonly ProductColumn[];

export const PRODUCT_LIST = defineListSchema({
  name: 'products',
  columns: {
    id: text(),
    productId: text(),
    offerId: text(),
    sku: text(),
    name: text(),
    barcode: text(),
    image: text(),
    shopId: dictInt(),
    shopName: dict(),
    status: dict<ProductStatus>(),
    moderation: dict(),
    visibility: dict<ProductVisibility>(),
    currency: dict(),
    price: money(),
    oldPrice: money(),
    minPrice: money(),
    fbsStock: int(),
    fboStock: int(),
    errorCount: int(),
    units30d: int(),
    revenue30d: money(),
    createdAt: epochMs(),
    changedAt: epochMs(),
    updatedAt: epochMs(),
  },
  key: 'id',
  searchFields: PRODUCT_SEARCH_COLUMNS,
  filters: {
    shopIds: anyOf('shopId'),
    statuses: anyOf('status'),
    visibilities: anyOf('visibility'),
    price: range('price'),
    fbsStock: range('fbsStock'),
    fboStock: range('fboStock'),
    errorCount: range('errorCount'),
  },
  indexAhead: ['status', 'shopId', 'visibility'],
  sortAhead: ['name', 'offerId'],
  sorts: PRODUCT_COLUMNS,
});
export type ProductList = typeof PRODUCT_LIST;
/** Every filter narrows (AND); a list filter matches any of its values; an empty list filters nothing. */
export type ProductFilters = FiltersOf<ProductList['columns'], ProductList['filters']>;

// The list's rows are the contract's rows: this fails to compile when the two disagree.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _listRowIsProductRow: Same<RowOf<ProductList['columns']>, ProductRow> = true;

/** The content type of the product sync's binary frames (contract/listFrame.ts over PRODUCT_LIST). */
export const PRODUCT_FRAME_TYPE = 'application/vnd.seller-tool.products';
export const PRODUCT_SYNC_MAX_LIMIT = 100_000;

/** GET /api/product/sync: one binary frame of the rows changed since `cursor` (absent: from the start). */
export const productSyncQuerySchema = lazySchema(() => z.object({
  cursor: z.string().max(200).optional(),
  limit: queryInt(1, PRODUCT_SYNC_MAX_LIMIT).default(5_000),
  format: z.enum(['binary']).default('binary'),
  /** The limit the browser asks with next: the server builds the next frame ahead at that size. */
  next: queryInt(1, PRODUCT_SYNC_MAX_LIMIT).optional(),
}));

/** Push message on /api/ws when products change on the server: the worker then syncs from its cursor. */
export const productsChangedPushSchema = lazySchema(() => z.object({
  type: z.literal('products.changed'),
  shopId: z.number().int().optional(),
}));
export type ProductsChangedPush = z.infer<typeof productsChangedPushSchema>;

const csv = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => (typeof value === 'string' ? (value === '' ? [] : value.split(',')) : value), z.array(item));

/**
 * GET /api/ozonProduct/list: one shop's products a page at a time, filtered and sorted by the server (the older
 * product list, for a quick look without the cache).
 */
export const marketplaceProductListQuerySchema = lazySchema(() => z.object({
  storeId: looseRowId(),
  page: queryInt(1, 1_000_000).default(1),
  rows: queryInt(1, 200).default(20),
  search: z.string().trim().max(100).optional(),
  visibility: z.enum(PRODUCT_VISIBILITIES).optional(),
}));
export type MarketplaceProductListQuery = z.input<typeof marketplaceProductListQuerySchema>;

/** POST /api/ozonProductPro/list: the same over several shops with the list's filters and a sort. */
export const marketplaceProductProListBodySchema = lazySchema(() => z.object({
  storeIds: z.array(looseRowId()).max(200).optional(),
  page: z.number().int().min(1).max(1_000_000).default(1),
  rows: z.number().int().min(1).max(500).default(50),
  search: z.string().trim().max(100).optional(),
  statuses: z.array(z.enum(PRODUCT_STATUSES)).max(PRODUCT_STATUSES.length).optional(),
  visibilities: z.array(z.enum(PRODUCT_VISIBILITIES)).max(PRODUCT_VISIBILITIES.length).optional(),
  priceFrom: z.number().min(0).max(1e9).optional(),
  priceTo: z.number().min(0).max(1e9).optional(),
  inStock: z.boolean().optional(),
  hasErrors: z.boolean().optional(),
  sort: z.enum(['changedAt', 'createdAt', 'price', 'fbsStock', 'units30d', 'revenue30d', 'name', 'offerId']).default('changedAt'),
  direction: z.enum(['asc', 'desc']).default('desc'),
}));
export type MarketplaceProductProListBody = z.input<typeof marketplaceProductProListBodySchema>;
export const productPageSchema = lazySchema(() => z.object({ list: z.array(productRowSchema), total: z.number().int() }));
export type ProductPage = z.infer<typeof productPageSchema>;

/** GET /api/product/search: the user's products whose name, offer id, SKU or barcode holds `q` (a quick lookup). */
export const productSearchQuerySchema = lazySchema(() => z.object({
  q: z.string().trim().min(1).max(100),
  storeIds: csv(looseRowId()).optional(),
  limit: queryInt(1, 50).default(20),
}));
export const productSearchAnswerSchema = lazySchema(() => z.array(productRowSchema));

export const productIdQuerySchema = lazySchema(() => z.object({ id: z.string().min(1).max(200) }));

/** GET /api/product/info: a product's full card as the drawer shows it. */
export const productInfoSchema = lazySchema(() => z.object({
  row: productRowSchema,
  images: z.array(z.string()),
  attributes: z.array(z.object({ id: z.number().int(), values: z.array(z.string()) })),
  /** Ozon's errors on the card, in its words. */
  errors: z.array(z.object({ code: z.string(), message: z.string(), attribute: z.string() })),
  /** FBS stock per warehouse of the shop (what the app last set or read), and FBO. */
  stocks: z.array(z.object({ warehouseId: z.string(), warehouseName: z.string(), present: z.number().int() })),
  /** Units and revenue per day over the last 30 days (oldest first), from the orders the app holds. */
  sales: z.array(z.object({ day: z.string(), units: z.number().int(), revenue: z.number() })),
  dimensions: z.object({ depth: z.number(), width: z.number(), height: z.number(), weight: z.number() }).nullable(),
}));
export type ProductInfo = z.infer<typeof productInfoSchema>;

/** One product's verdict in a batch action: done, or refused with the reason (caller's language). */
export const productOutcomeSchema = lazySchema(() => z.object({ id: z.string(), ok: z.boolean(), message: z.string() }));
export type ProductOutcome = z.infer<typeof productOutcomeSchema>;
export const productOutcomesSchema = lazySchema(() => z.object({ outcomes: z.array(productOutcomeSchema) }));
export type ProductOutcomes = z.infer<typeof productOutcomesSchema>;

const productIdsField = () => z.array(z.string().min(1).max(200)).min(1).max(1_000);
export const productIdsBodySchema = lazySchema(() => z.object({ ids: productIdsField() }));
export type ProductIdsBody = z.input<typeof productIdsBodySchema>;

/** Ozon's price batches hold at most this many products. */
export const PRICE_BATCH = 1_000;
/** Ozon's stock batches hold at most this many product and warehouse pairs. */
export const STOCK_BATCH = 100;

const priceValue = () => z.number().min(0).max(1e9);
/**
 * POST /api/price/update: new prices (card currency); `oldPrice` 0 removes the crossed-out price, `minPrice` 0 the
 * minimum. Ozon's rules are checked per product before anything is sent (see contract/productRules.ts).
 */
export const priceUpdateBodySchema = lazySchema(() => z.object({
  /** Names the batch, so one resent after a crash sends nothing twice. */
  batchId: z.string().min(1).max(64).optional(),
  items: z
    .array(z.object({ id: z.string().min(1).max(200), price: priceValue(), oldPrice: priceValue().optional(), minPrice: priceValue().optional() }))
    .min(1)
    .max(PRICE_BATCH),
}));
export type PriceUpdateBody = z.input<typeof priceUpdateBodySchema>;

/** POST /api/product/stock: FBS stock per product and warehouse. */
export const productStockBodySchema = lazySchema(() => z.object({
  batchId: z.string().min(1).max(64).optional(),
  items: z
    .array(z.object({ id: z.string().min(1).max(200), warehouseId: z.string().min(1).max(40), stock: z.number().int().min(0).max(999_999) }))
    .min(1)
    .max(STOCK_BATCH),
}));
export type ProductStockBody = z.input<typeof productStockBodySchema>;

/** Pictures of one card Ozon takes in one import. */
export const SKU_IMAGES_MAX = 30;

/** POST /api/updateSkuImage: a product's pictures replaced through Ozon's pictures import, followed to its state. */
export const updateSkuImageBodySchema = lazySchema(() => z.object({
  id: z.string().min(1).max(200),
  images: z.array(z.string().url().max(1_000)).min(1).max(SKU_IMAGES_MAX),
  colorImage: z.string().url().max(1_000).optional(),
  /** The given pictures go first (the first is the main picture) and the card keeps its other pictures, up to Ozon's 30. */
  keep: z.boolean().optional(),
}));
export type UpdateSkuImageBody = z.input<typeof updateSkuImageBodySchema>;
export const skuImageResultSchema = lazySchema(() => z.object({
  id: z.string(),
  /** Ozon's state per picture: imported, failed, or uploading while Ozon still fetches it. */
  pictures: z.array(z.object({ url: z.string(), state: z.string(), primary: z.boolean() })),
}));
export type SkuImageResult = z.infer<typeof skuImageResultSchema>;

/** What one seller may keep of pictures uploaded for products' cards: an upload past either is refused. */
export const PRODUCT_PICTURES_CAP = { count: 1_000, bytes: 500 * 1024 * 1024 } as const;
/**
 * Uploaded product pictures that no card (as last synced or sent) and no unfinished job refers to are deleted this
 * long after their upload; Ozon keeps its own copy of a picture it imported.
 */
export const PRODUCT_PICTURE_RETENTION_DAYS = 30;

/** POST /api/product/image/upload: a picture the seller uploads for products, at an address Ozon can fetch. */
export const productImageSchema = lazySchema(() => z.object({ url: z.string().url(), width: z.number().int(), height: z.number().int() }));
export type ProductImage = z.infer<typeof productImageSchema>;

/** The warehouses of the user's shops, for the stock editors. */
export const productWarehousesSchema = lazySchema(() => z.array(z.object({ shopId: z.number().int(), shopName: z.string(), warehouseId: z.string(), name: z.string() })));
export type ProductWarehouse = z.infer<typeof productWarehousesSchema>[number];

const quotaSchema = () => z.object({ limit: z.number().int(), usage: z.number().int(), resetAt: z.string() });
/**
 * GET /api/product/limit: Ozon's quotas per shop (/v4/product/info/limit), shown before a bulk action that creates or
 * updates cards: new cards a day, card updates a day, and the assortment total. `error` names why a shop's quota
 * could not be read (the action may still go; Ozon then refuses past its limit).
 */
export const productLimitsSchema = lazySchema(() =>
  z.array(
    z.object({
      shopId: z.number().int(),
      shopName: z.string(),
      dailyCreate: quotaSchema(),
      dailyUpdate: quotaSchema(),
      total: z.object({ limit: z.number().int(), usage: z.number().int() }),
      error: z.string().nullable(),
    }),
  ),
);
export type ProductLimits = z.infer<typeof productLimitsSchema>;
export type ProductLimit = ProductLimits[number];
export const productLimitQuerySchema = lazySchema(() => z.object({ storeIds: csv(looseRowId()).optional() }));

/** What remains of one of Ozon's daily quotas today; null when Ozon sets none (it answers a limit of -1). */
export function quotaLeft(quota: { limit: number; usage: number }): number | null {
  return quota.limit < 0 ? null : Math.max(0, quota.limit - quota.usage);
}

/** When a quota starts again, as the quota messages name it (Ozon's day ends at 03:00 Moscow time). */
export function quotaResetText(resetAt: string): string {
  return resetAt ? `${resetAt.slice(0, 16).replace('T', ' ')} UTC` : '03:00 MSK';
}

/**
 * Which of Ozon's daily quotas a product action spends, one per product. Ozon counts edits of a card (its pictures,
 * its content through an import) against `daily_update`, and new cards (a re-upload's import) against `daily_create`.
 * Prices and stocks go through their own calls, held by their own rates (10 price changes a product an hour, one
 * stock change a product and warehouse per 30 s, checked in contract/productRules.ts), and archiving edits no card:
 * Ozon counts none of these against a daily quota, so neither do we.
 */
export const ACTION_DAILY_QUOTA = {
  price: null,
  stock: null,
  archive: null,
  unarchive: null,
  deleteArchive: null,
  image: 'dailyUpdate',
  reupload: 'dailyCreate',
} as const satisfies Record<string, 'dailyUpdate' | 'dailyCreate' | null>;

/**
 * The product calls (seller-tool §7 "Products and listing"), gated on the 'products' area (admin, follow); every
 * change pushes 'products.changed' to the user.
 */
export const PRODUCT_ENDPOINTS = {
  sync: defineEndpoint({
    method: 'GET',
    path: '/product/sync',
    summary: "Products changed since a cursor, oldest change first, for the browser's cache: one binary frame.",
    access: 'products',
    input: productSyncQuerySchema,
    raw: { contentType: PRODUCT_FRAME_TYPE, description: 'One frame of contract/listFrame.ts over PRODUCT_LIST (typed columns and dictionaries).' },
    settings: { responseType: 'blob', timeout: 120_000, silent: true },
  }),
  ozonList: defineEndpoint({
    method: 'GET',
    path: '/ozonProduct/list',
    summary: "One shop's Ozon products a page at a time (server-paged).",
    access: 'products',
    input: marketplaceProductListQuerySchema,
    answer: productPageSchema,
    settings: { ...MARKETPLACE_LIST_SETTINGS.productList },
  }),
  ozonProList: defineEndpoint({
    method: 'POST',
    path: '/ozonProductPro/list',
    summary: 'Ozon products of several shops, filtered and sorted by the server, a page at a time.',
    access: 'products',
    action: 'view',
    input: marketplaceProductProListBodySchema,
    answer: productPageSchema,
    settings: { ...MARKETPLACE_LIST_SETTINGS.productProList },
  }),
  info: defineEndpoint({
    method: 'GET',
    path: '/product/info',
    summary: "A product's card: pictures, attributes, Ozon's errors, stock per warehouse and 30 days of sales.",
    access: 'products',
    input: productIdQuerySchema,
    answer: productInfoSchema,
  }),
  search: defineEndpoint({
    method: 'GET',
    path: '/product/search',
    summary: 'Products whose name, offer id, SKU or barcode holds the text.',
    access: 'products',
    input: productSearchQuerySchema,
    answer: productSearchAnswerSchema,
  }),
  warehouses: defineEndpoint({
    method: 'GET',
    path: '/product/warehouses',
    summary: "The warehouses of the user's shops (FBS stock is set per warehouse).",
    access: 'products',
    answer: productWarehousesSchema,
  }),
  priceUpdate: defineEndpoint({
    method: 'POST',
    path: '/price/update',
    summary: "Sets prices, old prices and minimum prices; Ozon's rules are checked per product first.",
    access: 'products',
    action: 'price',
    input: priceUpdateBodySchema,
    answer: productOutcomesSchema,
  }),
  stockUpdate: defineEndpoint({
    method: 'POST',
    path: '/product/stock',
    summary: "Sets FBS stock per product and warehouse; Ozon's rules are checked per item first.",
    access: 'products',
    action: 'price',
    input: productStockBodySchema,
    answer: productOutcomesSchema,
  }),
  archive: defineEndpoint({
    method: 'POST',
    path: '/product/archive',
    summary: 'Moves products to the archive.',
    access: 'products',
    action: 'edit',
    input: productIdsBodySchema,
    answer: productOutcomesSchema,
  }),
  unarchive: defineEndpoint({
    method: 'POST',
    path: '/product/unarchive',
    summary: 'Brings archived products back.',
    access: 'products',
    action: 'edit',
    input: productIdsBodySchema,
    answer: productOutcomesSchema,
  }),
  deleteArchive: defineEndpoint({
    method: 'POST',
    path: '/product/deleteArchive',
    summary: 'Deletes archived products that have no SKU yet (Ozon keeps the others).',
    access: 'products',
    action: 'delete',
    input: productIdsBodySchema,
    answer: productOutcomesSchema,
  }),
  limits: defineEndpoint({
    method: 'GET',
    path: '/product/limit',
    summary: "Ozon's daily create and update quotas and the assortment total of the user's shops.",
    access: 'products',
    input: productLimitQuerySchema,
    answer: productLimitsSchema,
    settings: { timeout: 20_000, silent: true },
  }),
  imageUpload: defineEndpoint({
    method: 'POST',
    path: '/product/image/upload',
    summary: "Stores a picture for products' cards (JPEG or PNG within Ozon's sizes; multipart: `name`, then `file`) and answers its public address.",
    access: 'products',
    action: 'edit',
    multipart: { fields: uploadImageFieldsSchema, file: 'file' },
    answer: productImageSchema,
    settings: { timeout: 120_000, retries: 0 },
  }),
  updateSkuImage: defineEndpoint({
    method: 'POST',
    path: '/updateSkuImage',
    summary: "Replaces a product's pictures through Ozon's pictures import and reports each picture's state.",
    access: 'products',
    action: 'edit',
    input: updateSkuImageBodySchema,
    answer: skuImageResultSchema,
    settings: { timeout: 10_000 },
  }),
} as const;
