import { z } from 'zod';
import type { Localized } from './errors';
import { defineEndpoint } from './endpoint';
import { lazySchema } from './lazySchema';
import { MARKETPLACE_LIST_SETTINGS } from './plannedCalls';

/**
 * Sales analysis (`/analyze/sale-analyze`, spec call `/{marketplace}SellerAnalyze`): a period of the seller's shops
 * read from the daily rollups (server/areas/analysis/), with the period of equal length before it.
 *
 * Figures: `orders` order lines placed (any status); `units` and `revenue` of those not cancelled; `cancellations`
 * cancelled lines; `returns` units handed back in the period and `returnAmount` their value; `commission` and `fees`
 * (delivery, return delivery, services) what Ozon charged for the period's postings; `payout` what Ozon paid for them
 * so far; `cost` units × the offer's cost price (contract/costs.ts); `profit` revenue − returns − commission − fees −
 * cost; `margin` profit / revenue. Days are China days (ANALYSIS_TIME_ZONE).
 */
export const ANALYSIS_TIME_ZONE = 'Asia/Shanghai';
/** The longest period one analysis covers (two years, the history the rollups keep). */
export const ANALYSIS_MAX_DAYS = 731;
export const ANALYSIS_GROUPINGS = ['day', 'week', 'month'] as const;
export type AnalysisGrouping = (typeof ANALYSIS_GROUPINGS)[number];
export const ANALYSIS_BREAKDOWNS = ['shop', 'sku', 'category', 'warehouse'] as const;
export type AnalysisBreakdown = (typeof ANALYSIS_BREAKDOWNS)[number];
/** ABC analysis: A the SKUs making the first 80% of revenue, B the next 15%, C the rest. */
export const ABC_LIMITS = { A: 0.8, B: 0.95 } as const;
export type AbcClass = 'A' | 'B' | 'C';
/** How many SKUs the top and bottom charts show. */
export const ANALYSIS_TOP = 10;

const isoDay = () => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'invalid').refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), 'invalid');

export const analysisQuerySchema = lazySchema(() =>
  z
    .object({
      from: isoDay(),
      to: isoDay(),
      /** Empty: every shop of the seller. */
      shopIds: z.array(z.number().int().nonnegative()).max(200).default([]),
      groupBy: z.enum(ANALYSIS_GROUPINGS).default('day'),
      breakdown: z.enum(ANALYSIS_BREAKDOWNS).default('shop'),
    })
    .refine((q) => q.from <= q.to, { message: 'invalid', path: ['to'] })
    .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < ANALYSIS_MAX_DAYS, { message: 'invalid', path: ['from'] }),
);
export type AnalysisQuery = z.input<typeof analysisQuerySchema>;

const figuresShape = {
  orders: z.number().int(),
  units: z.number().int(),
  revenue: z.number(),
  /** revenue / units; 0 without units. */
  averagePrice: z.number(),
  cancellations: z.number().int(),
  returns: z.number().int(),
  returnAmount: z.number(),
  commission: z.number(),
  fees: z.number(),
  payout: z.number(),
  cost: z.number(),
  profit: z.number(),
  /** profit / revenue; null without revenue. */
  margin: z.number().nullable(),
};
export const analysisFiguresSchema = lazySchema(() => z.object(figuresShape));
export type AnalysisFigures = z.infer<typeof analysisFiguresSchema>;

export const analysisSkuSchema = lazySchema(() =>
  z.object({
    ...figuresShape,
    sku: z.string(),
    offerId: z.string(),
    name: z.string(),
    shopId: z.number().int(),
    categoryId: z.number().int().nullable(),
    /** The offer has no cost price: its cost counts as 0. */
    costMissing: z.boolean(),
    abc: z.enum(['A', 'B', 'C']),
  }),
);
export type AnalysisSku = z.infer<typeof analysisSkuSchema>;

export const analysisAnswerSchema = lazySchema(() =>
  z.object({
    /** The orders' currency (Ozon prices the seller's cards in it); cost prices are converted into it. */
    currency: z.string(),
    period: z.object({ from: z.string(), to: z.string() }),
    previous: z.object({ from: z.string(), to: z.string() }),
    shops: z.array(z.object({ id: z.number().int(), name: z.string() })),
    totals: analysisFiguresSchema,
    previousTotals: analysisFiguresSchema,
    /** One point per day, week (from its Monday) or month of the period; `previous` the same step of the period before. */
    series: z.array(z.object({ bucket: z.string(), current: analysisFiguresSchema, previousBucket: z.string(), previous: analysisFiguresSchema })),
    /** The period by the asked breakdown (shop, SKU, category or warehouse), by revenue. */
    breakdown: z.array(z.object({ ...figuresShape, key: z.string(), name: z.string() })),
    /** Every shop of the period (the shop comparison chart). */
    byShop: z.array(z.object({ ...figuresShape, key: z.string(), name: z.string() })),
    categories: z.array(z.object({ id: z.number().int().nullable(), name: z.string(), revenue: z.number(), share: z.number() })),
    abc: z.array(z.object({ abc: z.enum(['A', 'B', 'C']), skus: z.number().int(), revenue: z.number(), share: z.number() })),
    /** Every SKU sold or returned in the period, by revenue (the table; top and bottom are its ends). */
    skus: z.array(analysisSkuSchema),
    /** SKUs of the period whose offer has no cost price (profit counts their cost as 0). */
    costMissing: z.number().int(),
    /** Cost prices are in roubles; converted at this rate (roubles per unit of `currency`), null when not needed. */
    costRate: z.object({ rate: z.number(), date: z.string() }).nullable(),
  }),
);
export type AnalysisAnswer = z.infer<typeof analysisAnswerSchema>;

export const ANALYSIS_MESSAGES = {
  shopNotFound: { zh: '店铺不存在或不属于您', en: 'The shop does not exist or is not yours' },
} as const satisfies Record<string, Localized>;

export const ANALYSIS_ENDPOINTS = {
  sellerAnalyze: defineEndpoint({
    method: 'POST',
    path: '/ozonSellerAnalyze',
    summary: "Sales analysis of a period of the seller's Ozon shops: totals against the period before, series, breakdowns, SKUs with ABC classes",
    access: 'analyze',
    input: analysisQuerySchema,
    answer: analysisAnswerSchema,
    settings: { ...MARKETPLACE_LIST_SETTINGS.sellerAnalyze, timeout: 30_000, cancellable: true },
  }),
} as const;
