import { z } from 'zod';
import type { Localized } from './errors';
import { defineEndpoint } from './endpoint';
import { lazySchema } from './lazySchema';
import { pageQuerySchema } from './envelope';
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
/** The most rows a breakdown answers (the rest summed in `breakdownOthers`). */
export const ANALYSIS_BREAKDOWN_MAX = 100;
/** What the SKU table sorts on. */
export const ANALYSIS_SKU_SORTS = ['revenue', 'orders', 'units', 'averagePrice', 'cancellations', 'returns', 'returnAmount', 'commission', 'fees', 'payout', 'cost', 'profit', 'margin', 'sku', 'offerId', 'name'] as const;
export type AnalysisSkuSort = (typeof ANALYSIS_SKU_SORTS)[number];
export const ANALYSIS_EXPORT_FORMATS = ['xlsx', 'csv'] as const;

const isoDay = () => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'invalid').refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), 'invalid');

const periodShape = () => ({
  from: isoDay(),
  to: isoDay(),
  /** Empty: every shop of the seller. */
  shopIds: z.array(z.number().int().nonnegative()).max(200).default([]),
});
type PeriodLike = { from: string; to: string };
const validPeriod = <T extends z.ZodType<PeriodLike>>(schema: T) =>
  schema
    .refine((q) => q.from <= q.to, { message: 'invalid', path: ['to'] })
    .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < ANALYSIS_MAX_DAYS, { message: 'invalid', path: ['from'] });

export const analysisQuerySchema = lazySchema(() =>
  validPeriod(
    z.object({
      ...periodShape(),
      groupBy: z.enum(ANALYSIS_GROUPINGS).default('day'),
      breakdown: z.enum(ANALYSIS_BREAKDOWNS).default('shop'),
    }),
  ),
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
    /** The period by the asked breakdown (shop, SKU, category or warehouse), by revenue: the first ANALYSIS_BREAKDOWN_MAX. */
    breakdown: z.array(z.object({ ...figuresShape, key: z.string(), name: z.string() })),
    /** The breakdown's rows beyond the first ANALYSIS_BREAKDOWN_MAX, summed; null when there are none. */
    breakdownOthers: z.object({ ...figuresShape, count: z.number().int() }).nullable(),
    /** Every shop of the period (the shop comparison chart). */
    byShop: z.array(z.object({ ...figuresShape, key: z.string(), name: z.string() })),
    categories: z.array(z.object({ id: z.number().int().nullable(), name: z.string(), revenue: z.number(), share: z.number() })),
    abc: z.array(z.object({ abc: z.enum(['A', 'B', 'C']), skus: z.number().int(), revenue: z.number(), share: z.number() })),
    /** The SKUs sold or returned in the period: how many (the table pages them, `sellerAnalyzeSkus`), the ANALYSIS_TOP best and the ANALYSIS_TOP worst of those that sold, by revenue. */
    skuCount: z.number().int(),
    topSkus: z.array(analysisSkuSchema),
    bottomSkus: z.array(analysisSkuSchema),
    /** SKUs of the period whose offer has no cost price (profit counts their cost as 0). */
    costMissing: z.number().int(),
    /** Cost prices are in roubles; converted at this rate (roubles per unit of `currency`), null when not needed. */
    costRate: z.object({ rate: z.number(), date: z.string() }).nullable(),
  }),
);
export type AnalysisAnswer = z.infer<typeof analysisAnswerSchema>;

/** A page of the period's SKUs (the SKU table): sorted, searched by SKU, offer id or name, narrowed to an ABC class. */
const skuListShape = () => ({
  ...periodShape(),
  sort: z.enum(ANALYSIS_SKU_SORTS).default('revenue'),
  order: z.enum(['asc', 'desc']).default('desc'),
  search: z.string().trim().max(200).optional(),
  abc: z.enum(['A', 'B', 'C']).optional(),
});
export const analysisSkuQuerySchema = lazySchema(() => validPeriod(z.object({ ...skuListShape(), ...pageQuerySchema.shape, rows: z.number().int().min(1).max(500).default(50) })));
export type AnalysisSkuQuery = z.input<typeof analysisSkuQuerySchema>;
export const analysisSkuPageSchema = lazySchema(() => z.object({ list: z.array(analysisSkuSchema), total: z.number().int() }));
export type AnalysisSkuPage = z.infer<typeof analysisSkuPageSchema>;
export const analysisExportQuerySchema = lazySchema(() => validPeriod(z.object({ ...skuListShape(), format: z.enum(ANALYSIS_EXPORT_FORMATS).default('xlsx') })));
export type AnalysisExportQuery = z.input<typeof analysisExportQuerySchema>;

/** The export's columns and their headers. */
export const ANALYSIS_EXPORT_COLUMNS = {
  sku: { zh: 'SKU', en: 'SKU', pt: 'SKU' },
  offerId: { zh: '货号', en: 'Offer ID', pt: 'Código do vendedor' },
  name: { zh: '商品', en: 'Product', pt: 'Produto' },
  shop: { zh: '店铺', en: 'Shop', pt: 'Loja' },
  abc: { zh: 'ABC', en: 'ABC', pt: 'ABC' },
  revenue: { zh: '销售额', en: 'Revenue', pt: 'Faturamento' },
  orders: { zh: '订单数', en: 'Orders', pt: 'Pedidos' },
  units: { zh: '销量', en: 'Units', pt: 'Unidades' },
  averagePrice: { zh: '客单价', en: 'Average price', pt: 'Preço médio' },
  cancellations: { zh: '取消', en: 'Cancellations', pt: 'Cancelamentos' },
  returns: { zh: '退货', en: 'Returns', pt: 'Devoluções' },
  returnAmount: { zh: '退货金额', en: 'Returns amount', pt: 'Valor das devoluções' },
  commission: { zh: '佣金', en: 'Commission', pt: 'Comissão' },
  fees: { zh: '费用', en: 'Fees', pt: 'Tarifas' },
  payout: { zh: '回款', en: 'Payout', pt: 'Repasse' },
  cost: { zh: '成本', en: 'Cost', pt: 'Custo' },
  profit: { zh: '利润', en: 'Profit', pt: 'Lucro' },
  margin: { zh: '利润率', en: 'Margin', pt: 'Margem' },
  currency: { zh: '币种', en: 'Currency', pt: 'Moeda' },
} as const satisfies Record<string, Localized>;

export const ANALYSIS_MESSAGES = {
  shopNotFound: { zh: '店铺不存在或不属于您', en: 'The shop does not exist or is not yours', pt: 'A loja não existe ou não é sua' },
  exportSheet: { zh: 'SKU 明细', en: 'SKU details', pt: 'Detalhes por SKU' },
} as const satisfies Record<string, Localized>;

export const ANALYSIS_ENDPOINTS = {
  sellerAnalyze: defineEndpoint({
    method: 'POST',
    path: '/ozonSellerAnalyze',
    summary: "Sales analysis of a period of the seller's Ozon shops: totals against the period before, series, breakdowns, SKUs with ABC classes",
    access: 'analyze',
    action: 'view',
    input: analysisQuerySchema,
    answer: analysisAnswerSchema,
    settings: { ...MARKETPLACE_LIST_SETTINGS.sellerAnalyze, timeout: 30_000, cancellable: true },
  }),
  sellerAnalyzeSkus: defineEndpoint({
    method: 'POST',
    path: '/ozonSellerAnalyzeSkus',
    summary: "A page of a period's SKUs with their figures and ABC class: sorted on any figure, searched, narrowed to a class",
    access: 'analyze',
    action: 'view',
    input: analysisSkuQuerySchema,
    answer: analysisSkuPageSchema,
    settings: { timeout: 30_000, cancellable: true },
  }),
  sellerAnalyzeExport: defineEndpoint({
    method: 'POST',
    path: '/ozonSellerAnalyzeExport',
    summary: "Every SKU of a period (as the table sorts and narrows them) as an Excel workbook or CSV, in the user's language",
    access: 'analyze',
    action: 'export',
    input: analysisExportQuerySchema,
    raw: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', description: 'The SKU table (attachment sales-FROM-TO.xlsx, or .csv as text/csv).' },
    settings: { responseType: 'blob', timeout: 120_000 },
  }),
} as const;
