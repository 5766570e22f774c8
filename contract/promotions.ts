import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { pageQuerySchema } from './envelope';
import type { Localized } from './errors';
import { lazySchema } from './lazySchema';
import { anyOf, defineListSchema, dict, int, money, number, range, text, type RowOf } from './listSchema';

/**
 * Promotions (seller-tool route /action/oz-action-list and its calls /{marketplace}Action/list, /actionProductInfo/list,
 * /actionProduct/list, /enbaleActionProduct/list, /actionProduct/delete, /actionProduct/add): Ozon's actions of every
 * shop of the seller, each action's participating products and candidates, joining and leaving in batches with an
 * outcome per product; the price guard (a floor per shop that no action price and no approved discount may go
 * under, kept by a scheduled job that removes products Ozon joined below it); and buyers' discount requests.
 *
 * Prices are in the shop's price currency (`currency` of an action and of a guard: CNY or RUB), as Ozon gives them.
 * Ozon's int64 ids fit a JS number.
 */

const storeId = () => z.number().int().min(1).max(2_147_483_647);
const ozonId = () => z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
/** Roubles, at most two decimals. */
const price = () => z.number().finite().min(0).max(99_999_999).refine((n) => Math.round(n * 100) === n * 100, 'invalid');

/** Products per add or remove call (the server sends them to Ozon in batches of its own limit). */
export const ACTION_BATCH_MAX = 5_000;
/** Discount requests per approve or decline call. */
export const DISCOUNT_BATCH_MAX = 500;

export const ACTION_STATUSES = ['upcoming', 'running', 'ended'] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

export const actionRowSchema = lazySchema(() =>
  z.object({
    /** `${storeId}:${actionId}`: unique across the seller's shops. */
    key: z.string(),
    storeId: z.number().int(),
    storeName: z.string(),
    actionId: z.number().int(),
    title: z.string(),
    /** Ozon's action_type (DISCOUNT, STOCK_DISCOUNT, ELASTIC_BOOSTING ...). */
    type: z.string(),
    description: z.string(),
    dateStart: z.number().nullable(),
    dateEnd: z.number().nullable(),
    /** Set when Ozon froze the action: prices may then only go down. */
    freezeDate: z.number().nullable(),
    status: z.enum(ACTION_STATUSES),
    /** PERCENT or AMOUNT (Ozon's discount_type); '' when Ozon gives none. */
    discountType: z.string(),
    discountValue: z.number(),
    participating: z.number().int(),
    candidates: z.number().int(),
    /** The price guard watches this action (the shop's guard is on and the action is not switched off). */
    guarded: z.boolean(),
    /** The action is switched off in the guard (only meaningful when the shop's guard is on). */
    guardOff: z.boolean(),
    /** The currency of the action's prices: the shop's price currency (ISO code). */
    currency: z.string(),
  }),
);
export type ActionRow = z.infer<typeof actionRowSchema>;

/** A shop whose marketplace could not be read now: its actions are the last synced ones (`stale`), or none. */
export const shopProblemSchema = lazySchema(() => z.object({ storeId: z.number().int(), storeName: z.string(), message: z.string(), stale: z.boolean() }));
export type ShopProblem = z.infer<typeof shopProblemSchema>;

export const actionListAnswerSchema = lazySchema(() => z.object({ actions: z.array(actionRowSchema), problems: z.array(shopProblemSchema) }));
export type ActionListAnswer = z.infer<typeof actionListAnswerSchema>;

export const actionRefSchema = lazySchema(() => z.object({ storeId: storeId(), actionId: ozonId() }));
export type ActionRef = z.input<typeof actionRefSchema>;

/** One product of an action (participating) or a candidate, with what the seller decides by. */
export const actionProductRowSchema = lazySchema(() =>
  z.object({
    productId: z.number().int(),
    offerId: z.string(),
    name: z.string(),
    /** The product's price now, without the action. */
    price: z.number(),
    /** The price in the action; for a candidate, 0 (not in it yet). */
    actionPrice: z.number(),
    /** The highest action price Ozon accepts for it. */
    maxActionPrice: z.number(),
    stock: z.number().int(),
    /** AUTO: Ozon joined it by itself; MANUAL: the seller did; NOT_SET: a candidate. */
    addMode: z.string(),
    /** The seller's cost price of the offer id, when entered. */
    cost: z.number().nullable(),
    /** The price guard's floor for it: null when the guard is off here or has no floor for it (no cost price). */
    floor: z.number().nullable(),
    /**
     * Expected margin at the action price (a candidate: at its maximum action price): (price - cost) / price, in
     * percent, before Ozon's commissions; null without a cost price.
     */
    marginPercent: z.number().nullable(),
  }),
);
export type ActionProductRow = z.infer<typeof actionProductRowSchema>;
/**
 * One action's products or candidates in the worker's list engine (thousands per action): searched by offer id and
 * name, filtered by how they joined and by price, sorted by any number column.
 */
export const ACTION_PRODUCT_LIST = defineListSchema({
  name: 'actionProducts',
  columns: {
    id: text(),
    productId: int(),
    offerId: text(),
    name: text(),
    price: money(),
    actionPrice: money(),
    maxActionPrice: money(),
    stock: int(),
    addMode: dict(),
    cost: number({ nullable: true }),
    floor: number({ nullable: true }),
    marginPercent: number({ nullable: true }),
    /** 'below' when the action price (a candidate: its maximum) is under the guard's floor, else 'ok'. */
    guard: dict<'below' | 'ok' | 'none'>(),
  },
  key: 'id',
  searchFields: ['offerId', 'name'],
  filters: { addModes: anyOf('addMode'), guard: anyOf('guard'), price: range('price') },
  indexAhead: [],
  sorts: ['price', 'actionPrice', 'maxActionPrice', 'stock', 'cost', 'marginPercent', 'offerId', 'name'],
});
export type ActionProductListRow = RowOf<(typeof ACTION_PRODUCT_LIST)['columns']>;

/** Expected margin: (price - cost) / price in percent, one decimal; null without a cost or a price. */
export function marginPercent(price: number, cost: number | null): number | null {
  if (cost === null || !(price > 0)) return null;
  return Math.round(((price - cost) / price) * 1000) / 10;
}

export const actionProductsAnswerSchema = lazySchema(() =>
  z.object({
    rows: z.array(actionProductRowSchema),
    total: z.number().int(),
    /** The list stopped at the server's limit: `total` is Ozon's count. */
    truncated: z.boolean(),
  }),
);
export type ActionProductsAnswer = z.infer<typeof actionProductsAnswerSchema>;

export const PRICE_GUARD_MODES = ['absolute', 'margin'] as const;
export type PriceGuardMode = (typeof PRICE_GUARD_MODES)[number];

export const priceGuardSchema = lazySchema(() =>
  z.object({
    storeId: z.number().int(),
    storeName: z.string(),
    /** The shop's price currency (ISO code): the floor's, and its actions' prices'. */
    currency: z.string(),
    enabled: z.boolean(),
    mode: z.enum(PRICE_GUARD_MODES),
    /** absolute: no product of the shop below this price. */
    minPrice: z.number(),
    /** margin: no product below its cost price plus this percent (products without a cost price are not guarded). */
    marginPercent: z.number(),
    /** Actions switched off in the guard. */
    offActions: z.array(z.number().int()),
    lastRunAt: z.number().nullable(),
  }),
);
export type PriceGuard = z.infer<typeof priceGuardSchema>;

export const actionInfoAnswerSchema = lazySchema(() => z.object({ action: actionRowSchema, guard: priceGuardSchema }));
export type ActionInfoAnswer = z.infer<typeof actionInfoAnswerSchema>;

export const actionAddInputSchema = lazySchema(() =>
  z.object({
    storeId: storeId(),
    actionId: ozonId(),
    products: z
      .array(z.object({ productId: ozonId(), actionPrice: price().refine((n) => n > 0, 'invalid') }))
      .min(1)
      .max(ACTION_BATCH_MAX),
  }),
);
export type ActionAddInput = z.input<typeof actionAddInputSchema>;
export const actionRemoveInputSchema = lazySchema(() =>
  z.object({ storeId: storeId(), actionId: ozonId(), productIds: z.array(ozonId()).min(1).max(ACTION_BATCH_MAX) }),
);
export type ActionRemoveInput = z.input<typeof actionRemoveInputSchema>;

/** One product's outcome: `reason` in the caller's language when it was refused (by us before sending, or by Ozon). */
export const productOutcomeSchema = lazySchema(() => z.object({ productId: z.number().int(), ok: z.boolean(), reason: z.string().nullable() }));
export type ProductOutcome = z.infer<typeof productOutcomeSchema>;
export const productOutcomesSchema = lazySchema(() => z.object({ outcomes: z.array(productOutcomeSchema) }));
export type ProductOutcomes = z.infer<typeof productOutcomesSchema>;

export const guardSetInputSchema = lazySchema(() =>
  z.object({
    storeId: storeId(),
    enabled: z.boolean(),
    mode: z.enum(PRICE_GUARD_MODES),
    minPrice: price(),
    marginPercent: z.number().finite().min(-100).max(1000),
  }),
);
export type GuardSetInput = z.input<typeof guardSetInputSchema>;
export const guardActionInputSchema = lazySchema(() => z.object({ storeId: storeId(), actionId: ozonId(), enabled: z.boolean() }));
export const guardListAnswerSchema = lazySchema(() => z.object({ guards: z.array(priceGuardSchema) }));
export const guardRunInputSchema = lazySchema(() => z.object({ storeId: storeId().optional() }));
export const guardRunAnswerSchema = lazySchema(() =>
  z.object({ shops: z.number().int(), actions: z.number().int(), checked: z.number().int(), removed: z.number().int(), failed: z.number().int() }),
);
export type GuardRunAnswer = z.infer<typeof guardRunAnswerSchema>;

export const GUARD_LOG_OUTCOMES = ['removed', 'failed'] as const;
export const guardLogRowSchema = lazySchema(() =>
  z.object({
    id: z.number().int(),
    at: z.number(),
    storeId: z.number().int(),
    storeName: z.string(),
    actionId: z.number().int(),
    actionTitle: z.string(),
    productId: z.number().int(),
    offerId: z.string(),
    name: z.string(),
    addMode: z.string(),
    actionPrice: z.number(),
    floor: z.number(),
    mode: z.enum(PRICE_GUARD_MODES),
    cost: z.number().nullable(),
    outcome: z.enum(GUARD_LOG_OUTCOMES),
    /** Why the removal failed (in the reader's language). */
    error: z.string().nullable(),
  }),
);
export type GuardLogRow = z.infer<typeof guardLogRowSchema>;
export const guardLogQuerySchema = lazySchema(() => pageQuerySchema.extend({ storeId: z.preprocess((v) => (v === undefined || v === '' ? undefined : Number(v)), storeId().optional()) }));
export const guardLogAnswerSchema = lazySchema(() => z.object({ list: z.array(guardLogRowSchema), total: z.number().int() }));

// ---- discount requests

export const DISCOUNT_VIEWS = ['pending', 'decided'] as const;
export type DiscountView = (typeof DISCOUNT_VIEWS)[number];

export const discountTaskRowSchema = lazySchema(() =>
  z.object({
    key: z.string(),
    storeId: z.number().int(),
    storeName: z.string(),
    taskId: z.number().int(),
    /** Ozon's status: NEW, SEEN, APPROVED, PARTLY_APPROVED, DECLINED, AUTO_DECLINED ... */
    status: z.string(),
    customerName: z.string(),
    userComment: z.string(),
    sellerComment: z.string(),
    sku: z.number().int(),
    offerId: z.string(),
    name: z.string(),
    requestedPrice: z.number(),
    approvedPrice: z.number(),
    basePrice: z.number(),
    /** The prices' currency: the shop's price currency (ISO code). */
    currency: z.string(),
    quantityMin: z.number().int(),
    quantityMax: z.number().int(),
    createdAt: z.number(),
    editedTill: z.number().nullable(),
    endAt: z.number().nullable(),
    cost: z.number().nullable(),
    floor: z.number().nullable(),
    /** Expected margin at the requested price, percent; null without a cost price. */
    marginPercent: z.number().nullable(),
  }),
);
export type DiscountTaskRow = z.infer<typeof discountTaskRowSchema>;
export const discountListInputSchema = lazySchema(() => z.object({ view: z.enum(DISCOUNT_VIEWS).default('pending') }));
export const discountListAnswerSchema = lazySchema(() => z.object({ tasks: z.array(discountTaskRowSchema), problems: z.array(shopProblemSchema) }));
export type DiscountListAnswer = z.infer<typeof discountListAnswerSchema>;

export const discountApproveInputSchema = lazySchema(() =>
  z.object({
    items: z
      .array(
        z
          .object({
            storeId: storeId(),
            taskId: ozonId(),
            price: price().refine((n) => n > 0, 'invalid'),
            quantityMin: z.number().int().min(1).max(10_000),
            quantityMax: z.number().int().min(1).max(10_000),
            comment: z.string().trim().max(500).optional(),
          })
          .refine((item) => item.quantityMax >= item.quantityMin, { message: 'invalid', path: ['quantityMax'] }),
      )
      .min(1)
      .max(DISCOUNT_BATCH_MAX),
  }),
);
export type DiscountApproveInput = z.input<typeof discountApproveInputSchema>;
export const discountDeclineInputSchema = lazySchema(() =>
  z.object({
    items: z.array(z.object({ storeId: storeId(), taskId: ozonId(), comment: z.string().trim().max(500).optional() })).min(1).max(DISCOUNT_BATCH_MAX),
  }),
);
export type DiscountDeclineInput = z.input<typeof discountDeclineInputSchema>;
export const taskOutcomeSchema = lazySchema(() => z.object({ storeId: z.number().int(), taskId: z.number().int(), ok: z.boolean(), reason: z.string().nullable() }));
export type TaskOutcome = z.infer<typeof taskOutcomeSchema>;
export const taskOutcomesSchema = lazySchema(() => z.object({ outcomes: z.array(taskOutcomeSchema) }));
export type TaskOutcomes = z.infer<typeof taskOutcomesSchema>;

/** Server texts of the area (the reasons a product or request is refused before anything is sent to Ozon). */
export const PROMOTION_MESSAGES = {
  storeNotFound: { zh: '店铺不存在', en: 'The shop does not exist', pt: 'A loja não existe' },
  actionNotFound: { zh: '该店铺没有这个活动', en: 'The shop has no such action', pt: 'A loja não tem essa promoção' },
  aboveMaxPrice: { zh: '活动价 {price} 高于Ozon允许的最高活动价 {max}', en: 'The action price {price} is above the highest Ozon allows, {max}', pt: 'O preço na promoção {price} está acima do máximo que a Ozon permite, {max}' },
  belowFloor: { zh: '活动价 {price} 低于价格保护底价 {floor}', en: 'The action price {price} is below the price guard floor {floor}', pt: 'O preço na promoção {price} está abaixo do piso da proteção de preço {floor}' },
  discountBelowFloor: { zh: '同意价 {price} 低于价格保护底价 {floor}', en: 'The approved price {price} is below the price guard floor {floor}', pt: 'O preço aprovado {price} está abaixo do piso da proteção de preço {floor}' },
  notCandidate: { zh: '该商品不是此活动的可参加商品', en: 'The product cannot join this action', pt: 'O produto não pode participar desta promoção' },
  actionFrozen: {
    zh: '活动已于 {date} 冻结：Ozon不再允许加入或移出商品、提高活动价',
    en: 'The action froze on {date}: Ozon no longer lets products join or leave it, nor action prices go up',
    pt: 'A promoção foi congelada em {date}: a Ozon não permite mais incluir nem retirar produtos, nem subir os preços da promoção',
  },
  notParticipating: { zh: '该商品未参加此活动', en: 'The product is not in this action', pt: 'O produto não está nesta promoção' },
  taskNotFound: { zh: '折扣申请不存在或已处理', en: 'The discount request does not exist or was already decided', pt: 'O pedido de desconto não existe ou já foi decidido' },
  ozonRefused: { zh: 'Ozon拒绝：{reason}', en: 'Ozon refused: {reason}', pt: 'A Ozon recusou: {reason}' },
  marketplaceFailed: { zh: 'Ozon请求失败：{reason}', en: 'The Ozon request failed: {reason}', pt: 'A solicitação à Ozon falhou: {reason}' },
} as const satisfies Record<string, Localized>;

export const PROMOTION_ENDPOINTS = {
  actionList: defineEndpoint({
    method: 'POST',
    path: '/ozonAction/list',
    summary: "Every Ozon action of every shop of the seller, with its dates, status, discount and product counts",
    access: 'actions',
    action: 'view',
    input: z.object({}),
    answer: actionListAnswerSchema,
    settings: { retryDelay: 5_000 },
  }),
  actionInfo: defineEndpoint({
    method: 'POST',
    path: '/actionProductInfo/list',
    summary: "One action of a shop with its product counts and the shop's price guard",
    access: 'actions',
    action: 'view',
    input: actionRefSchema,
    answer: actionInfoAnswerSchema,
  }),
  actionProducts: defineEndpoint({
    method: 'POST',
    path: '/actionProduct/list',
    summary: "An action's participating products with price, action price, maximum action price, stock, cost, guard floor and margin",
    access: 'actions',
    action: 'view',
    input: actionRefSchema,
    answer: actionProductsAnswerSchema,
    settings: { timeout: 120_000 },
  }),
  actionCandidates: defineEndpoint({
    method: 'POST',
    path: '/enbaleActionProduct/list',
    summary: "An action's candidates (products that may join) with the same columns",
    access: 'actions',
    action: 'view',
    input: actionRefSchema,
    answer: actionProductsAnswerSchema,
    settings: { timeout: 120_000 },
  }),
  actionAdd: defineEndpoint({
    method: 'POST',
    path: '/actionProduct/add',
    summary: "Adds products to an action at their action prices; refuses before sending a price above Ozon's maximum or below the guard",
    access: 'actions',
    action: 'promote',
    input: actionAddInputSchema,
    answer: productOutcomesSchema,
    settings: { timeout: 120_000, silent: true },
  }),
  actionRemove: defineEndpoint({
    method: 'POST',
    path: '/actionProduct/delete',
    summary: 'Removes products from an action, with an outcome per product',
    access: 'actions',
    action: 'promote',
    input: actionRemoveInputSchema,
    answer: productOutcomesSchema,
    settings: { timeout: 120_000, silent: true },
  }),
  guardList: defineEndpoint({
    method: 'GET',
    path: '/priceGuard/list',
    summary: "Every shop's price guard",
    access: 'actions',
    answer: guardListAnswerSchema,
  }),
  guardSet: defineEndpoint({
    method: 'POST',
    path: '/priceGuard/set',
    summary: "Turns a shop's price guard on or off and sets its floor (a minimum price, or a margin over the cost price)",
    access: 'actions',
    action: 'price',
    input: guardSetInputSchema,
    answer: priceGuardSchema,
  }),
  guardAction: defineEndpoint({
    method: 'POST',
    path: '/priceGuard/action',
    summary: 'Switches the price guard off (or on again) for one action',
    access: 'actions',
    action: 'price',
    input: guardActionInputSchema,
    answer: priceGuardSchema,
  }),
  guardRun: defineEndpoint({
    method: 'POST',
    path: '/priceGuard/run',
    summary: "Runs the price guard now over the seller's shops (or one): removes products whose action price is below the floor",
    access: 'actions',
    action: 'price',
    input: guardRunInputSchema,
    answer: guardRunAnswerSchema,
    settings: { timeout: 250_000 },
  }),
  guardLog: defineEndpoint({
    method: 'GET',
    path: '/priceGuard/log',
    summary: 'What the price guard removed (or failed to remove), and why, newest first',
    access: 'actions',
    input: guardLogQuerySchema,
    answer: guardLogAnswerSchema,
  }),
  discountList: defineEndpoint({
    method: 'POST',
    path: '/discountTask/list',
    summary: "Buyers' discount requests of every shop: the ones waiting for a decision, or the decided ones",
    access: 'actions',
    action: 'view',
    input: discountListInputSchema,
    answer: discountListAnswerSchema,
  }),
  discountApprove: defineEndpoint({
    method: 'POST',
    path: '/discountTask/approve',
    summary: 'Approves discount requests at a price (refused before sending below the price guard floor)',
    access: 'actions',
    action: 'price',
    input: discountApproveInputSchema,
    answer: taskOutcomesSchema,
    settings: { silent: true },
  }),
  discountDecline: defineEndpoint({
    method: 'POST',
    path: '/discountTask/decline',
    summary: 'Declines discount requests',
    access: 'actions',
    action: 'price',
    input: discountDeclineInputSchema,
    answer: taskOutcomesSchema,
    settings: { silent: true },
  }),
} as const;
