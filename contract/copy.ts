import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { looseRowId, queryInt, rowId } from './fields';
import { lazySchema } from './lazySchema';

/**
 * Copying Ozon cards into the seller's shops (seller-tool /copy/copy-product, /copy/copy-history and the admin's
 * integrated list /order-manager/all-copy-history). A seller pastes Ozon links or SKUs, picks shops and a pricing
 * template, previews each card with its target price, and copies: by Ozon's import-by-SKU when the card is taken as
 * it is, or by reading the card and importing it when a field changes. Every copy is a history record whose status
 * follows Ozon's import task and moderation to the end.
 *
 * Money is a decimal string with two places; rates come from the Bank of Russia (the tools area).
 */

/** At most this many sources per paste and per copy (a seller pastes hundreds). */
export const COPY_MAX_SOURCES = 500;
/** Shops one copy may go to. */
export const COPY_MAX_SHOPS = 20;

/** How a target price is rounded after the template's arithmetic. */
export const PRICE_ROUNDINGS = ['cent', 'unit', 'upTo9', 'upTo10', 'upTo99'] as const;
export type PriceRounding = (typeof PRICE_ROUNDINGS)[number];
/** The currencies an Ozon shop prices in. */
export const SHOP_CURRENCIES = ['CNY', 'RUB', 'USD', 'EUR'] as const;
export type ShopCurrency = (typeof SHOP_CURRENCIES)[number];

const money = () => z.string().trim().regex(/^\d{1,9}(\.\d{1,2})?$/, 'invalid');
const factor = () =>
  z
    .string()
    .trim()
    .regex(/^\d{1,3}(\.\d{1,4})?$/, 'invalid')
    .refine((v) => Number(v) > 0, 'invalid');

/** A pricing template's rule: source price × exchange rate × markup + shipping + fixed, then rounded. */
export const priceRuleSchema = lazySchema(() =>
  z.object({
    /** The target shop's currency; the source price is converted into it at the Bank of Russia's rate. */
    currency: z.enum(SHOP_CURRENCIES),
    markup: factor(),
    /** Shipping cost per item, in the target currency. */
    shipping: money(),
    /** A fixed amount added per item (packing, fees), in the target currency. */
    fixed: money(),
    rounding: z.enum(PRICE_ROUNDINGS),
    /** The old (crossed-out) price as a multiple of the price; absent: no old price. */
    oldPriceFactor: factor().optional(),
  }),
);
export type PriceRule = z.infer<typeof priceRuleSchema>;

export const priceTemplateSchema = lazySchema(() =>
  priceRuleSchema.extend({ id: z.number().int(), name: z.string(), isDefault: z.boolean(), updatedAt: z.number() }),
);
export type PriceTemplate = z.infer<typeof priceTemplateSchema>;

export const saveTemplateBodySchema = lazySchema(() =>
  priceRuleSchema.extend({ id: rowId().optional(), name: z.string().trim().min(1).max(40), isDefault: z.boolean().default(false) }),
);
export type SaveTemplateBody = z.input<typeof saveTemplateBodySchema>;

/** A pasted line: an Ozon product link (…/product/name-123456789/) or an SKU. */
const sourceText = () => z.string().trim().min(1).max(500);

export const copyPreviewBodySchema = lazySchema(() =>
  z.object({ sources: z.array(sourceText()).min(1).max(COPY_MAX_SOURCES), rule: priceRuleSchema }),
);
export type CopyPreviewBody = z.input<typeof copyPreviewBodySchema>;

/** One pasted source as the seller sees it before copying. */
export const copySourceSchema = lazySchema(() =>
  z.object({
    /** What was pasted. */
    input: z.string(),
    /** The SKU read from it; null when the line is neither an SKU nor an Ozon product link. */
    sku: z.number().int().nullable(),
    /** 'ok', or why it cannot be copied: not an SKU or link, not found on Ozon, pasted twice. */
    state: z.enum(['ok', 'invalid', 'notFound', 'duplicate']),
    name: z.string(),
    image: z.string().nullable(),
    images: z.array(z.string()),
    /** The source card's price and currency. */
    price: z.string(),
    currency: z.string(),
    categoryName: z.string(),
    /** The template's price in its currency, and the old price when the template sets one. */
    targetPrice: z.string(),
    targetOldPrice: z.string().nullable(),
  }),
);
export type CopySource = z.infer<typeof copySourceSchema>;
export const copyPreviewAnswerSchema = lazySchema(() =>
  z.object({
    items: z.array(copySourceSchema),
    /** The rate used: one unit of each source currency in the template's currency, and the rates' date. */
    rates: z.record(z.string(), z.string()),
    ratesDate: z.string(),
  }),
);
export type CopyPreviewAnswer = z.infer<typeof copyPreviewAnswerSchema>;

/** One card to copy, with the fields the seller changed (any change means the card is read and imported). */
export const copyItemSchema = lazySchema(() =>
  z.object({
    sku: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
    /** The seller's offer id in the target shop; absent: made from the SKU. */
    offerId: z.string().trim().min(1).max(50).optional(),
    name: z.string().trim().min(1).max(500).optional(),
    images: z.array(z.url({ protocol: /^https?$/ }).max(1000)).min(1).max(15).optional(),
    price: money(),
    oldPrice: money().optional(),
  }),
);
export type CopyItem = z.infer<typeof copyItemSchema>;

export const copyBodySchema = lazySchema(() =>
  z.object({
    shopIds: z.array(rowId()).min(1).max(COPY_MAX_SHOPS),
    currency: z.enum(SHOP_CURRENCIES),
    items: z.array(copyItemSchema).min(1).max(COPY_MAX_SOURCES),
  }),
);
export type CopyBody = z.input<typeof copyBodySchema>;

export const COPY_STATUSES = ['importing', 'moderating', 'listed', 'failed'] as const;
export type CopyStatus = (typeof COPY_STATUSES)[number];
export const COPY_MODES = ['sku', 'card'] as const;

/** One of Ozon's reasons, in the caller's language, with the attribute it concerns when it concerns one. */
export const copyErrorSchema = lazySchema(() =>
  z.object({ code: z.string(), message: z.string(), attributeId: z.number().int().nullable(), attributeName: z.string().nullable() }),
);
export type CopyError = z.infer<typeof copyErrorSchema>;

/** A copy of one card into one shop. */
export const copyRecordSchema = lazySchema(() =>
  z.object({
    id: z.number().int(),
    shopId: z.number().int(),
    shopName: z.string(),
    sku: z.number().int(),
    name: z.string(),
    image: z.string().nullable(),
    offerId: z.string(),
    price: z.string(),
    currency: z.string(),
    mode: z.enum(COPY_MODES),
    status: z.enum(COPY_STATUSES),
    /** Ozon's product id once the import made one. */
    productId: z.number().nullable(),
    errors: z.array(copyErrorSchema),
    attempts: z.number().int(),
    createdAt: z.number(),
    updatedAt: z.number(),
    /** Only in the integrated list: whose copy it is. */
    userName: z.string().optional(),
  }),
);
export type CopyRecord = z.infer<typeof copyRecordSchema>;
export const copyRecordsSchema = lazySchema(() => z.object({ list: z.array(copyRecordSchema) }));

export const historyQuerySchema = lazySchema(() =>
  z.object({
    page: queryInt(1, 1_000_000).default(1),
    rows: queryInt(1, 200).default(20),
    status: z.enum(COPY_STATUSES).optional(),
    shopId: looseRowId().optional(),
    /** Part of the name, offer id or SKU. */
    search: z.string().trim().max(100).optional(),
  }),
);
export type HistoryQuery = z.input<typeof historyQuerySchema>;
export const historyPageSchema = lazySchema(() => z.object({ list: z.array(copyRecordSchema), total: z.number().int(), unsettled: z.number().int() }));
export type HistoryPage = z.infer<typeof historyPageSchema>;

export const historyIdsBodySchema = lazySchema(() => z.object({ ids: z.array(rowId()).min(1).max(COPY_MAX_SOURCES * 2) }));
export const countAnswerSchema = lazySchema(() => z.object({ count: z.number().int() }));

export const COPY_ENDPOINTS = {
  templates: defineEndpoint({
    method: 'GET',
    path: '/copy/templates',
    summary: "The caller's pricing templates",
    access: 'copy',
    answer: lazySchema(() => z.array(priceTemplateSchema)),
  }),
  saveTemplate: defineEndpoint({
    method: 'POST',
    path: '/copy/template/save',
    summary: 'Create or change a pricing template (id given: change it)',
    access: 'copy',
    action: 'edit',
    input: saveTemplateBodySchema,
    answer: priceTemplateSchema,
  }),
  deleteTemplate: defineEndpoint({
    method: 'POST',
    path: '/copy/template/delete',
    summary: 'Delete a pricing template',
    access: 'copy',
    action: 'delete',
    input: lazySchema(() => z.object({ id: rowId() })),
    answer: countAnswerSchema,
  }),
  preview: defineEndpoint({
    method: 'POST',
    path: '/copy/preview',
    summary: 'Read pasted Ozon links or SKUs: each card with its target price by the given rule',
    access: 'copy',
    action: 'view',
    input: copyPreviewBodySchema,
    answer: copyPreviewAnswerSchema,
    settings: { timeout: 60_000 },
  }),
  copy: defineEndpoint({
    method: 'POST',
    path: '/CopyProduct',
    summary: 'Copy cards into shops: one history record per card and shop, following Ozon’s import',
    access: 'copy',
    action: 'publish',
    input: copyBodySchema,
    answer: copyRecordsSchema,
    settings: { timeout: 200_000, swapBase: true },
  }),
  list: defineEndpoint({
    method: 'GET',
    path: '/history/list',
    summary: "The caller's copies, newest first",
    access: 'copy',
    input: historyQuerySchema,
    answer: historyPageSchema,
    settings: { timeout: 15_000, swapBase: true },
  }),
  allList: defineEndpoint({
    method: 'GET',
    path: '/history/allList',
    summary: "Every user's copies (administrators)",
    access: 'allCopyHistory',
    input: historyQuerySchema,
    answer: historyPageSchema,
    settings: { swapBase: true },
  }),
  status: defineEndpoint({
    method: 'POST',
    path: '/history/status',
    summary: "Ask Ozon about unsettled copies now and answer their statuses",
    access: 'copy',
    action: 'view',
    input: historyIdsBodySchema,
    answer: copyRecordsSchema,
    settings: { timeout: 30_000, silent: true },
  }),
  retry: defineEndpoint({
    method: 'POST',
    path: '/history/retry',
    summary: 'Copy failed records again',
    access: 'copy',
    action: 'publish',
    input: historyIdsBodySchema,
    answer: copyRecordsSchema,
    settings: { timeout: 200_000 },
  }),
  delete: defineEndpoint({
    method: 'POST',
    path: '/history/delete',
    summary: 'Delete copy records (the products on Ozon stay)',
    access: 'copy',
    action: 'delete',
    input: historyIdsBodySchema,
    answer: countAnswerSchema,
  }),
  deleteAll: defineEndpoint({
    method: 'POST',
    path: '/history/deleteAll',
    summary: "Delete all the caller's copy records",
    access: 'copy',
    action: 'delete',
    answer: countAnswerSchema,
  }),
} as const;
