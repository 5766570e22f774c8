import type { DiscountTaskStatus } from '../../ozon/client';
import type {
  actionActivateResponseSchema,
  actionProductsResponseSchema,
  actionsResponseSchema,
  discountTaskListResponseSchema,
  discountTaskResultResponseSchema,
} from '../../ozon/schemas';
import { ACTION_PRODUCTS_PER_CALL, DISCOUNT_TASKS_PER_CALL } from '../../ozon/versions';
import { badRequest, notFound } from '../errors';
import { DAY_MS } from '../postings';
import { fbsStock, type SimProduct } from '../products';
import { randomFor, type Random } from '../random';
import type { OzonRequest } from '../../ozon/versions';
import type { SimShop } from '../shop';
import type { Answer } from '../wire';
import { asNumbers, checkLimit, iso } from '../wire';

/** How a product came into an action: Ozon's `add_mode`. */
export type AddMode = 'MANUAL' | 'AUTO';
type Participation = { price: number; mode: AddMode; stock: number };
type SimAction = {
  id: number;
  title: string;
  type: string;
  start: number;
  end: number;
  /** Percent off the price: the maximum action price is the price less this. */
  discount: number;
  /** Ozon's `freeze_date`: from then on the product list is fixed and action prices may only go down. */
  freeze: number | null;
  candidates: Set<number>;
  participating: Map<number, Participation>;
};

type SimDiscountTask = {
  id: number;
  createdAt: number;
  endAt: number;
  editedTill: number;
  status: DiscountTaskStatus;
  customerName: string;
  product: SimProduct;
  userComment: string;
  sellerComment: string;
  requestedPrice: number;
  approvedPrice: number;
  quantityMin: number;
  quantityMax: number;
  approvedMin: number;
  approvedMax: number;
  moderatedAt: number;
};

/** Ozon's refusals, as its answers word them. */
export const PROMOTION_TEXT = {
  notCandidate: 'product is not a candidate of this action',
  frozen: 'action is frozen: products cannot be added or removed and action prices cannot be raised',
  aboveMax: 'action_price is above max_action_price',
  notInAction: 'product is not in this action',
  taskNotFound: 'discount task not found',
  taskDecided: 'discount task status does not allow this change',
  taskExpired: 'time to change the decision on this discount task is over',
  priceAboveBase: 'approved price is higher than the base price',
  badQuantity: 'approved quantity is out of range',
} as const;

const CUSTOMERS = ['Анна', 'Иван', 'Мария', 'Дмитрий', 'Ольга', 'Сергей', 'Елена', 'Алексей'];
const COMMENTS = ['Возьму сразу две штуки', 'Можно дешевле?', 'Жду скидку ко дню рождения', '', 'Беру для подарка'];

/** The maximum action price Ozon allows a product in an action: its price less the action's discount, whole roubles. */
const maxActionPrice = (p: SimProduct, action: SimAction) => Math.floor(p.price * (1 - action.discount / 100));

/**
 * Ozon area "promotions": /v1/actions, candidates, products, activate and deactivate, and buyers' discount requests
 * (/v1/actions/discounts-task/list, approve, decline). Ozon's rules: a product joins only an action it is a candidate
 * of, at an action price above zero and not above its maximum action price; batches of at most
 * ACTION_PRODUCTS_PER_CALL products and DISCOUNT_TASKS_PER_CALL tasks; a discount task is decided only while NEW or
 * SEEN and before its `edited_till`, at a price not above the product's base price. Ozon also joins products to some
 * actions by itself (`add_mode` AUTO), at prices the seller did not choose: the generated data has such products, and
 * `autoJoin` adds one now.
 */
export class PromotionsArea {
  private readonly shop: SimShop;
  readonly actions: SimAction[] = [];
  readonly tasks: SimDiscountTask[] = [];

  constructor(shop: SimShop) {
    this.shop = shop;
    this.generateActions();
    this.generateTasks();
  }

  // ---- actions
  /** Four actions running now ('Товары дня' frozen two days after it began) and one starting in six days. */
  private generateActions() {
    const r = randomFor(this.shop.seed, this.shop.clientId, 'actions');
    const titles = ['Распродажа 11.11', 'Весенние скидки', 'Товары дня', 'Эластичный бустинг'];
    titles.forEach((title, i) => {
      const start = this.shop.anchor - (10 - i * 3) * DAY_MS;
      this.addAction(r, {
        id: Number(this.shop.clientId) * 100 + i + 1,
        title,
        type: i === 3 ? 'ELASTIC_BOOSTING' : 'DISCOUNT',
        start,
        end: this.shop.anchor + (20 + i * 5) * DAY_MS,
        discount: 10 + i * 5,
        // 'Товары дня' froze two days after it began: the demo's and the tests' frozen action.
        freeze: i === 2 ? start + 2 * DAY_MS : null,
        // Ozon's own joins go deep (half price and below), not in the frozen action.
        autoJoins: i !== 2,
      });
    });
    this.addUpcomingAction(this.shop.anchor, 0);
  }

  /**
   * An action that starts six days after `at` and runs four weeks: the generated one (number 0), and one a week
   * after it while the demo runs (./live.ts), so one always starts within the week. Ended ones go after 30 days.
   */
  addUpcomingAction(at: number, number: number) {
    const now = this.shop.env.now();
    for (let k = this.actions.length - 1; k >= 0; k--) if (this.actions[k]!.end < now - 30 * DAY_MS) this.actions.splice(k, 1);
    const r = randomFor(this.shop.seed, this.shop.clientId, 'upcoming-action', number);
    const start = at + 6 * DAY_MS;
    this.addAction(r, {
      id: Number(this.shop.clientId) * 100 + 5 + number,
      title: `${r.pick(['Неделя скидок', 'Выгодная неделя', 'Большая распродажа', 'Скидки недели'])} ${new Date(start).toISOString().slice(5, 10).split('-').reverse().join('.')}`,
      type: 'DISCOUNT',
      start,
      end: start + 28 * DAY_MS,
      discount: 15,
      freeze: null,
      autoJoins: false,
    });
  }

  private addAction(r: Random, spec: Omit<SimAction, 'candidates' | 'participating'> & { autoJoins: boolean }) {
    const { autoJoins, ...fields } = spec;
    const action: SimAction = { ...fields, candidates: new Set(), participating: new Map() };
    for (const p of this.shop.sellable) {
      if (p.archived || p.state !== 'onSale' || !r.chance(0.3)) continue;
      action.candidates.add(p.id);
      if (!r.chance(0.2)) continue;
      // The seller's joins stay near the maximum.
      const auto = autoJoins && r.chance(0.25);
      const price = auto ? Math.max(1, Math.round(p.price * (0.35 + r.next() * 0.2))) : Math.round(maxActionPrice(p, action) * 0.98);
      action.participating.set(p.id, { price, mode: auto ? 'AUTO' : 'MANUAL', stock: 0 });
    }
    this.actions.push(action);
  }

  actionList(): Answer<typeof actionsResponseSchema> {
    return {
      result: this.actions.map((a) => ({
        id: a.id,
        title: a.title,
        action_type: a.type,
        description: `${a.title}: скидка от ${a.discount}%`,
        date_start: iso(a.start),
        date_end: iso(a.end),
        freeze_date: a.freeze === null ? '' : iso(a.freeze),
        potential_products_count: a.candidates.size - a.participating.size,
        participating_products_count: a.participating.size,
        is_participating: a.participating.size > 0,
        is_voucher_action: false,
        banned_products_count: 0,
        with_targeting: false,
        order_amount: 0,
        discount_type: 'PERCENT',
        discount_value: a.discount,
      })),
    };
  }

  private requireAction(id: unknown): SimAction {
    const action = this.actions.find((a) => a.id === Number(id));
    if (!action) throw notFound('action not found');
    return action;
  }

  actionProducts(body: OzonRequest<'actionCandidates' | 'actionProducts'>, which: 'candidates' | 'products'): Answer<typeof actionProductsResponseSchema> {
    const action = this.requireAction(body.action_id);
    const limit = checkLimit(body.limit ?? 100, ACTION_PRODUCTS_PER_CALL);
    // Candidates are the products that may join and have not: what `potential_products_count` counts.
    const ids = (which === 'products' ? [...action.participating.keys()] : [...action.candidates].filter((id) => !action.participating.has(id))).sort((a, b) => a - b);
    const after = body.last_id ? Number(body.last_id) : 0;
    const page = ids.filter((id) => id > after).slice(0, limit);
    return {
      result: {
        products: page.map((id) => {
          const p = this.shop.productById.get(id)!;
          const joined = action.participating.get(id);
          return {
            id,
            price: p.price,
            action_price: joined?.price ?? 0,
            max_action_price: maxActionPrice(p, action),
            alert_max_action_price_failed: false,
            alert_max_action_price: 0,
            add_mode: joined?.mode ?? 'NOT_SET',
            stock: joined?.stock || fbsStock(p),
            min_stock: 0,
          };
        }),
        total: ids.length,
        last_id: page.length && ids.some((id) => id > page[page.length - 1]!) ? page[page.length - 1]! : 0,
      },
    };
  }

  actionActivate(body: OzonRequest<'actionProductsActivate'>): Answer<typeof actionActivateResponseSchema> {
    const action = this.requireAction(body.action_id);
    if (body.products.length === 0) throw badRequest('products is required');
    if (body.products.length > ACTION_PRODUCTS_PER_CALL) throw badRequest(`products: at most ${ACTION_PRODUCTS_PER_CALL} per request`);
    const productIds: number[] = [];
    const rejected: { product_id: number; reason: string }[] = [];
    const frozen = this.isFrozen(action);
    for (const item of body.products) {
      const id = Number(item.product_id);
      const p = this.shop.productById.get(id);
      const price = Number(item.action_price);
      const current = action.participating.get(id);
      // Frozen: only a participant's action price may change, and only downwards.
      if (frozen && (!current || price > current.price)) rejected.push({ product_id: id, reason: PROMOTION_TEXT.frozen });
      else if (!p || !action.candidates.has(id)) rejected.push({ product_id: id, reason: PROMOTION_TEXT.notCandidate });
      else if (!(price > 0) || price > maxActionPrice(p, action)) rejected.push({ product_id: id, reason: PROMOTION_TEXT.aboveMax });
      else {
        action.participating.set(id, { price, mode: 'MANUAL', stock: Number(item.stock ?? 0) });
        productIds.push(id);
      }
    }
    return { result: { product_ids: productIds, rejected } };
  }

  private isFrozen(action: SimAction) {
    return action.freeze !== null && this.shop.env.now() >= action.freeze;
  }

  actionDeactivate(body: OzonRequest<'actionProductsDeactivate'>): Answer<typeof actionActivateResponseSchema> {
    const action = this.requireAction(body.action_id);
    const ids = asNumbers(body.product_ids);
    if (ids.length === 0) throw badRequest('product_ids is required');
    if (ids.length > ACTION_PRODUCTS_PER_CALL) throw badRequest(`product_ids: at most ${ACTION_PRODUCTS_PER_CALL} per request`);
    const productIds: number[] = [];
    const rejected: { product_id: number; reason: string }[] = [];
    const frozen = this.isFrozen(action);
    for (const id of ids) {
      if (frozen) rejected.push({ product_id: id, reason: PROMOTION_TEXT.frozen });
      else if (action.participating.delete(id)) productIds.push(id);
      else rejected.push({ product_id: id, reason: PROMOTION_TEXT.notInAction });
    }
    return { result: { product_ids: productIds, rejected } };
  }

  /**
   * Ozon joins a product to an action by itself (as it does with "auto-add to actions" on): a candidate, at the
   * given price or half its price. Returns the price it joined at. The demo's trigger and the guard's tests use it.
   */
  autoJoin(actionId: number, productId?: number, price?: number): { actionId: number; productId: number; price: number } {
    const action = this.requireAction(actionId);
    const id = productId ?? [...action.candidates].find((c) => !action.participating.has(c));
    const p = id === undefined ? undefined : this.shop.productById.get(id);
    if (!p || !action.candidates.has(p.id)) throw badRequest(PROMOTION_TEXT.notCandidate);
    const at = price ?? Math.max(1, Math.round(p.price * 0.5));
    action.participating.set(p.id, { price: at, mode: 'AUTO', stock: 0 });
    return { actionId: action.id, productId: p.id, price: at };
  }

  // ---- discount requests
  private generateTasks() {
    const r = randomFor(this.shop.seed, this.shop.clientId, 'discount-tasks');
    const pool = this.shop.sellable.filter((p) => !p.archived && p.state === 'onSale');
    if (pool.length === 0) return;
    const now = this.shop.anchor;
    const statuses: DiscountTaskStatus[] = ['NEW', 'NEW', 'NEW', 'SEEN', 'NEW', 'APPROVED', 'DECLINED', 'NEW', 'SEEN', 'AUTO_DECLINED'];
    for (let i = 0; i < 30; i++) {
      const product = r.pick(pool);
      const status = statuses[i % statuses.length]!;
      const createdAt = now - r.int(1, 70) * 3_600_000;
      const requestedPrice = Math.max(1, Math.round(product.price * (0.7 + r.next() * 0.2)));
      const quantityMin = r.chance(0.7) ? 1 : 2;
      const decided = status !== 'NEW' && status !== 'SEEN';
      this.tasks.push({
        id: Number(this.shop.clientId) * 100_000 + i + 1,
        createdAt,
        endAt: createdAt + 7 * DAY_MS,
        editedTill: createdAt + 4 * DAY_MS,
        status,
        customerName: r.pick(CUSTOMERS),
        product,
        userComment: r.pick(COMMENTS),
        sellerComment: '',
        requestedPrice,
        approvedPrice: status === 'APPROVED' ? requestedPrice : 0,
        quantityMin,
        quantityMax: quantityMin + r.int(0, 3),
        approvedMin: status === 'APPROVED' ? quantityMin : 0,
        approvedMax: status === 'APPROVED' ? quantityMin : 0,
        moderatedAt: decided ? createdAt + 3_600_000 : 0,
      });
    }
  }

  discountTaskList(body: OzonRequest<'discountTaskList'>): Answer<typeof discountTaskListResponseSchema> {
    const limit = checkLimit(body.limit, DISCOUNT_TASKS_PER_CALL);
    const page = body.page === undefined ? 1 : Number(body.page);
    if (!Number.isInteger(page) || page < 1) throw badRequest('page must be 1 or more');
    const matching = this.tasks.filter((t) => t.status === body.status).sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
    return {
      result: matching.slice((page - 1) * limit, page * limit).map((t) => {
        const p = t.product;
        const approved = t.approvedPrice > 0;
        return {
          id: t.id,
          created_at: iso(t.createdAt),
          end_at: iso(t.endAt),
          edited_till: iso(t.editedTill),
          status: t.status,
          customer_name: t.customerName,
          sku: p.sku,
          offer_id: p.offerId,
          user_comment: t.userComment,
          seller_comment: t.sellerComment,
          requested_price: t.requestedPrice,
          approved_price: t.approvedPrice,
          original_price: p.oldPrice || p.price,
          base_price: p.price,
          discount: Math.max(0, p.price - t.requestedPrice),
          discount_percent: Math.round((1 - t.requestedPrice / p.price) * 10_000) / 100,
          approved_discount: approved ? p.price - t.approvedPrice : 0,
          approved_discount_percent: approved ? Math.round((1 - t.approvedPrice / p.price) * 10_000) / 100 : 0,
          min_auto_price: p.minPrice || 0,
          is_damaged: false,
          is_purchased: t.status === 'PURCHASED',
          is_auto_moderated: t.status === 'AUTO_DECLINED',
          moderated_at: t.moderatedAt ? iso(t.moderatedAt) : '',
          requested_quantity_min: t.quantityMin,
          requested_quantity_max: t.quantityMax,
          approved_quantity_min: t.approvedMin,
          approved_quantity_max: t.approvedMax,
        };
      }),
    };
  }

  /** SEEN is what Ozon sets once the seller has looked: the first list of NEW ones does not change them here. */
  private decide(ids: (number | string)[], apply: (task: SimDiscountTask, index: number) => string | null): Answer<typeof discountTaskResultResponseSchema> {
    if (ids.length === 0) throw badRequest('tasks is required');
    if (ids.length > DISCOUNT_TASKS_PER_CALL) throw badRequest(`tasks: at most ${DISCOUNT_TASKS_PER_CALL} per request`);
    const failDetails: { task_id: number; error_for_user: string }[] = [];
    ids.forEach((raw, index) => {
      const id = Number(raw);
      const task = this.tasks.find((t) => t.id === id);
      const problem = !task
        ? PROMOTION_TEXT.taskNotFound
        : task.status !== 'NEW' && task.status !== 'SEEN'
          ? PROMOTION_TEXT.taskDecided
          : task.editedTill < this.shop.env.now()
            ? PROMOTION_TEXT.taskExpired
            : apply(task, index);
      if (problem) failDetails.push({ task_id: id, error_for_user: problem });
    });
    return { result: { fail_details: failDetails, success_count: ids.length - failDetails.length, fail_count: failDetails.length } };
  }

  discountTaskApprove(body: OzonRequest<'discountTaskApprove'>): Answer<typeof discountTaskResultResponseSchema> {
    return this.decide(
      body.tasks.map((t) => t.id),
      (task, index) => {
        const item = body.tasks[index]!;
        const price = Number(item.approved_price);
        const min = Number(item.approved_quantity_min);
        const max = Number(item.approved_quantity_max);
        if (!(price > 0) || price > task.product.price) return PROMOTION_TEXT.priceAboveBase;
        if (!Number.isInteger(min) || !Number.isInteger(max) || min < 1 || max < min) return PROMOTION_TEXT.badQuantity;
        task.status = price > task.requestedPrice ? 'PARTLY_APPROVED' : 'APPROVED';
        task.approvedPrice = price;
        task.approvedMin = min;
        task.approvedMax = max;
        task.sellerComment = item.seller_comment ?? '';
        task.moderatedAt = this.shop.env.now();
        return null;
      },
    );
  }

  discountTaskDecline(body: OzonRequest<'discountTaskDecline'>): Answer<typeof discountTaskResultResponseSchema> {
    return this.decide(
      body.tasks.map((t) => t.id),
      (task, index) => {
        task.status = 'DECLINED';
        task.sellerComment = body.tasks[index]!.seller_comment ?? '';
        task.moderatedAt = this.shop.env.now();
        return null;
      },
    );
  }

  /** A buyer asks for a lower price now (demo trigger and tests). */
  addDiscountTask(productId?: number, requestedPrice?: number): { id: number } {
    const product = (productId !== undefined ? this.shop.productById.get(productId) : undefined) ?? this.shop.sellable[0];
    if (!product) throw badRequest('no product');
    const createdAt = this.shop.env.now();
    const id = Math.max(Number(this.shop.clientId) * 100_000, ...this.tasks.map((t) => t.id)) + 1;
    this.tasks.push({
      id,
      createdAt,
      endAt: createdAt + 7 * DAY_MS,
      editedTill: createdAt + 3 * DAY_MS,
      status: 'NEW',
      customerName: CUSTOMERS[id % CUSTOMERS.length]!,
      product,
      userComment: COMMENTS[id % COMMENTS.length]!,
      sellerComment: '',
      requestedPrice: requestedPrice ?? Math.round(product.price * 0.8),
      approvedPrice: 0,
      quantityMin: 1,
      quantityMax: 2,
      approvedMin: 0,
      approvedMax: 0,
      moderatedAt: 0,
    });
    // Kept bounded as Ozon ages out old requests.
    if (this.tasks.length > 1_000) this.tasks.splice(0, this.tasks.length - 1_000);
    return { id };
  }
}
