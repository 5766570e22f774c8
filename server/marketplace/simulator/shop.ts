import type { FbsStatus } from '../ozon/schemas';
import { findLeaf, REQUIRED_ATTRIBUTE_IDS } from './catalog';
import { badRequest, notFound, OZON_TEXT, SimError } from './errors';
import {
  CANCEL_REASONS,
  DAY_MS,
  generatedCore,
  generatedLines,
  HISTORY_DAYS,
  orderNumberOf,
  parsePostingNumber,
  SHIPPED,
  UNFULFILLED,
  UNFULFILLED_MAX_AGE_MS,
  type PostingCore,
} from './postings';
import { fbsStock, generateProduct, matchesVisibility, productErrors, productStatuses, type SimProduct } from './products';
import { randomFor } from './random';

/** What the simulator's switches hand a shop: the clock and the delays of Ozon's asynchronous steps. */
export type ShopEnv = {
  now: () => number;
  /** Ozon wants 45–60 s between ship and label; 0 turns the rule off (tests). */
  labelReadyDelayMs: () => number;
  /** How long an import or a label task stays pending. */
  taskDelayMs: () => number;
  /** Absolute base of this simulator's own URLs (pictures, label files), from the request. */
  findSku: (sku: number) => SimProduct | undefined;
};

export type SimShopConfig = {
  clientId: string;
  apiKey: string;
  name?: string;
  /** FBS postings over the last 90 days (default 3,000). 1,000,000 works: postings are generated on demand. */
  orders?: number;
  products?: number;
  /** Role names the key holds (default all: 'Admin'). */
  roles?: string[];
  keyState?: 'active' | 'deactivated' | 'ipRestricted';
  /** ISO time the key expires (default 90 days after the anchor). */
  expiresAt?: string;
};

type PostingOverride = {
  status?: FbsStatus;
  lastChangedAt?: number;
  shippedAt?: number;
  trackingNumber?: string;
  cancelReasonId?: number;
  /** After a split ship, the lines left on this posting. */
  lines?: Line[];
};
type Line = { productIndex: number; quantity: number };
/** Postings made after the anchor (new-posting trigger, split packages): held in full. */
type ExtraPosting = { postingNumber: string; orderIndex: number; inProcessAt: number; warehouseIndex: number; lines: Line[] };

type ChatMessage = { id: number; createdAt: number; userType: 'customer' | 'seller' | 'support'; text: string; isRead: boolean; orderNumber?: string; isImage?: boolean };
type SimChat = { chatId: string; type: string; status: 'Opened' | 'Closed'; createdAt: number; postingNumber?: string; messages: ChatMessage[] };
type SimAction = { id: number; title: string; type: string; start: number; end: number; discount: number; candidates: number[]; participating: Map<number, number> };
type ImportTask = { createdAt: number; items: { offer_id: string; product_id: number; status: 'imported' | 'failed' | 'skipped'; errors: { code: string; message: string; field?: string }[] }[] };

const iso = (ms: number) => new Date(ms).toISOString();
const encodeCursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
function decodeCursor<T>(cursor: unknown): T | undefined {
  if (typeof cursor !== 'string' || cursor === '') return undefined;
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString()) as T;
  } catch {
    throw badRequest('invalid cursor');
  }
}
function checkLimit(limit: unknown, max: number, required = true): number {
  if (limit === undefined || limit === null) {
    if (required) throw badRequest(`limit is required (1..${max})`);
    return Math.min(100, max);
  }
  const n = Number(limit);
  if (!Number.isInteger(n) || n < 1 || n > max) throw badRequest(`limit must be between 1 and ${max}`);
  return n;
}
const parseTime = (value: unknown, field: string): number => {
  const t = typeof value === 'string' ? Date.parse(value) : NaN;
  if (Number.isNaN(t)) throw badRequest(`${field} must be a date-time`);
  return t;
};
const asNumbers = (v: unknown): number[] => (Array.isArray(v) ? v.map(Number).filter((n) => Number.isFinite(n)) : []);
const asStrings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

const WAREHOUSE_NAMES = ['义乌仓 Yiwu FBS', '深圳仓 Shenzhen FBS', '广州仓 Guangzhou rFBS'];
const UNARCHIVE_DAILY_LIMIT = 10;
const PRICE_CHANGES_PER_HOUR = 10;
const STOCK_PAIR_INTERVAL_MS = 30_000;
const DAILY_CREATE_LIMIT = 1_000;
const TOTAL_LIMIT = 50_000;

/**
 * Bounds on what a shop holds, so no sequence of requests grows the process without end (a simulator reachable by
 * anyone who reads the README's keys). Past a bound the oldest goes, as an old chat or task ages out on Ozon.
 */
export const SIM_BOUNDS = {
  /** Messages kept per chat (its history shows the newest). */
  messagesPerChat: 1_000,
  /** Chats per shop; /v1/chat/start past it drops the oldest buyer chat. */
  chats: 5_000,
  /** Import and label tasks kept per shop; an older task answers 'task not found'. */
  tasks: 1_000,
  /** A sent file's name, kept as the message's text (the file itself is not kept). */
  fileNameChars: 255,
} as const;

/** Appends to a bounded list, dropping the oldest entries past `max`. */
function pushBounded<T>(list: T[], item: T, max: number) {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
}
/** Sets a key of a bounded map, dropping the oldest keys (insertion order) past `max`. */
function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number) {
  map.set(key, value);
  for (const oldest of map.keys()) {
    if (map.size <= max) break;
    map.delete(oldest);
  }
}

/** One simulated shop: its data, generated from the seed, and what the seller changed since. */
export class SimShop {
  readonly config: SimShopConfig;
  readonly clientId: string;
  private readonly seed: string;
  private readonly env: ShopEnv;
  readonly anchor: number;
  private readonly start: number;
  private readonly step: number;
  readonly orderCount: number;

  readonly warehouses: { id: number; name: string; isRfbs: boolean }[];
  readonly products: SimProduct[] = [];
  private readonly productById = new Map<number, SimProduct>();
  private readonly productByOffer = new Map<string, SimProduct>();
  /** The cards postings draw their lines from (fixed at creation, so generated postings never change). */
  private readonly sellable: SimProduct[];

  private readonly overrides = new Map<number, PostingOverride>();
  private readonly extras: ExtraPosting[] = [];
  private readonly extraByNumber = new Map<string, number>();
  private readonly chats: SimChat[] = [];
  private messageSeq: number;
  private readonly actions: SimAction[] = [];
  private readonly importTasks = new Map<number, ImportTask>();
  private readonly labelTasks = new Map<number, { createdAt: number; postings: string[] }>();
  private taskSeq: number;
  private readonly priceChanges = new Map<number, number[]>();
  private readonly stockUpdates = new Map<string, number>();
  private readonly restores: number[] = [];
  private readonly creates: number[] = [];
  private nextProductK: number;

  constructor(config: SimShopConfig, seed: string, anchor: number, env: ShopEnv) {
    this.config = config;
    this.clientId = config.clientId;
    this.seed = seed;
    this.env = env;
    this.anchor = anchor;
    this.orderCount = config.orders ?? 3_000;
    this.start = anchor - HISTORY_DAYS * DAY_MS;
    this.step = (HISTORY_DAYS * DAY_MS) / Math.max(1, this.orderCount);
    const base = Number(config.clientId);
    this.warehouses = WAREHOUSE_NAMES.slice(0, 2 + (base % 2)).map((name, i) => ({ id: 20_000_000_000 + base * 10 + i + 1, name, isRfbs: i === 2 }));
    const productCount = config.products ?? 2_000;
    for (let k = 0; k < productCount; k++) this.addProduct(generateProduct(seed, config.clientId, k, this.warehouses.map((w) => w.id), anchor));
    this.nextProductK = productCount;
    this.sellable = this.products.filter((p) => p.sku > 0);
    this.messageSeq = base * 1_000_000_000;
    this.taskSeq = base * 1_000_000;
    this.generateChats();
    this.generateActions();
  }

  private addProduct(p: SimProduct) {
    this.products.push(p);
    this.productById.set(p.id, p);
    this.productByOffer.set(p.offerId, p);
  }

  /** Cards under moderation become sellable once their time comes. */
  private settle(p: SimProduct): SimProduct {
    if (p.state === 'moderating' && p.readyAt <= this.env.now()) {
      p.state = 'onSale';
      if (p.sku === 0) p.sku = 1_000_000_000 + p.id;
      p.updatedAt = p.readyAt;
    }
    return p;
  }
  productBySku(sku: number): SimProduct | undefined {
    const p = this.productById.get(sku - 1_000_000_000);
    return p && p.sku === sku ? p : undefined;
  }

  // ---- keys and roles
  expiresAt(): string {
    return this.config.expiresAt ?? iso(this.anchor + 90 * DAY_MS);
  }

  // ---- warehouses
  warehouseList(body: Record<string, unknown>) {
    const limit = checkLimit(body.limit, 200);
    const ids = asNumbers(body.warehouse_ids);
    const from = decodeCursor<{ o: number }>(body.cursor)?.o ?? 0;
    const all = this.warehouses.filter((w) => ids.length === 0 || ids.includes(w.id));
    const page = all.slice(from, from + limit);
    return {
      warehouses: page.map((w) => ({
        warehouse_id: w.id,
        name: w.name,
        status: 'created',
        is_rfbs: w.isRfbs,
        is_kgt: false,
        is_express: false,
        is_economy: false,
        has_postings_limit: false,
        first_mile: { type: 'DropOff', dropoff_point_id: '', is_changing: false },
        working_days: [1, 2, 3, 4, 5, 6],
        timetable: { from: '09:00', to: '20:00' },
      })),
      cursor: from + limit < all.length ? encodeCursor({ o: from + limit }) : '',
      has_next: from + limit < all.length,
    };
  }

  // ---- postings
  private core(index: number): PostingCore {
    if (index >= this.orderCount) {
      const extra = this.extras[index - this.orderCount]!;
      const o = this.overrides.get(index);
      return {
        index,
        inProcessAt: extra.inProcessAt,
        status: o?.status ?? 'awaiting_packaging',
        warehouseIndex: extra.warehouseIndex,
        lastChangedAt: o?.lastChangedAt ?? extra.inProcessAt,
      };
    }
    const c = generatedCore(this.seed, this.clientId, index, this.start, this.step, this.anchor);
    const o = this.overrides.get(index);
    return o ? { ...c, status: o.status ?? c.status, lastChangedAt: o.lastChangedAt ?? c.lastChangedAt } : c;
  }
  private postingNumberOf(index: number) {
    return index >= this.orderCount ? this.extras[index - this.orderCount]!.postingNumber : `${orderNumberOf(this.clientId, index)}-1`;
  }
  private linesOf(index: number): Line[] {
    const o = this.overrides.get(index);
    if (o?.lines) return o.lines;
    if (index >= this.orderCount) return this.extras[index - this.orderCount]!.lines;
    return generatedLines(this.seed, this.clientId, index, this.sellable.length);
  }
  private indexOf(postingNumber: string): number | undefined {
    const extra = this.extraByNumber.get(postingNumber);
    if (extra !== undefined) return extra;
    const parsed = parsePostingNumber(this.clientId, postingNumber);
    return parsed && parsed.part === 1 && parsed.index < this.orderCount ? parsed.index : undefined;
  }
  private requirePosting(postingNumber: unknown): number {
    const index = typeof postingNumber === 'string' ? this.indexOf(postingNumber) : undefined;
    if (index === undefined) throw notFound('POSTING_NOT_FOUND');
    return index;
  }
  private warehouseOf(core: PostingCore) {
    return this.warehouses[core.warehouseIndex % this.warehouses.length]!;
  }

  posting(index: number, withData: Record<string, unknown> = {}) {
    const core = this.core(index);
    const o = this.overrides.get(index);
    const postingNumber = this.postingNumberOf(index);
    const orderIndex = index >= this.orderCount ? this.extras[index - this.orderCount]!.orderIndex : index;
    const warehouse = this.warehouseOf(core);
    const lines = this.linesOf(index).map((l) => ({ line: l, product: this.sellable[l.productIndex % this.sellable.length]! }));
    const r = randomFor(this.seed, this.clientId, 'posting-extra', index);
    const cancelReason = core.status === 'cancelled' ? CANCEL_REASONS.find((c) => c.id === (o?.cancelReasonId ?? 352)) ?? CANCEL_REASONS[0] : undefined;
    const available: string[] =
      core.status === 'awaiting_packaging' ? ['cancel', 'ship', 'arbitration'] : core.status === 'awaiting_deliver' ? ['cancel', 'label_download', 'set_tracking_number'] : [];
    return {
      posting_number: postingNumber,
      order_id: Number(this.clientId) * 10_000_000 + orderIndex,
      order_number: orderNumberOf(this.clientId, orderIndex),
      status: core.status,
      substatus: `posting_${core.status}`,
      delivery_method: {
        id: 1_000 + core.warehouseIndex,
        name: `Ozon Логистика, ${warehouse.name}`,
        warehouse_id: warehouse.id,
        warehouse: warehouse.name,
        tpl_provider_id: 24,
        tpl_provider: 'Ozon Логистика',
      },
      tracking_number: o?.trackingNumber ?? (SHIPPED.has(core.status) && warehouse.isRfbs ? `LP${String(index).padStart(10, '0')}CN` : ''),
      tpl_integration_type: warehouse.isRfbs ? 'non_integrated' : 'ozon',
      in_process_at: iso(core.inProcessAt),
      shipment_date: iso(core.inProcessAt + 2 * DAY_MS),
      delivering_date: SHIPPED.has(core.status) && core.status !== 'awaiting_deliver' ? iso(core.inProcessAt + 3 * DAY_MS) : null,
      cancellation: cancelReason
        ? {
            cancel_reason_id: cancelReason.id,
            cancel_reason: cancelReason.title,
            cancellation_type: cancelReason.type_id,
            cancelled_after_ship: false,
            affect_cancellation_rating: cancelReason.type_id === 'seller',
            cancellation_initiator: cancelReason.type_id === 'seller' ? 'Продавец' : 'Клиент',
          }
        : null,
      customer: null,
      addressee: null,
      products: lines.map(({ line, product }) => ({
        sku: product.sku,
        offer_id: product.offerId,
        name: product.name,
        quantity: line.quantity,
        price: { amount: product.price, currency: product.currency },
        imei: [],
        weight: product.weight,
      })),
      available_actions: available,
      barcodes: withData.barcodes ? { upper_barcode: `%101%${orderIndex}`, lower_barcode: `${20_000_000_000 + orderIndex}` } : null,
      analytics_data: withData.analytics_data
        ? {
            region: r.pick(['Москва', 'Санкт-Петербург', 'Новосибирская область', 'Свердловская область']),
            city: r.pick(['Москва', 'Санкт-Петербург', 'Новосибирск', 'Екатеринбург']),
            delivery_type: 'PVZ',
            is_premium: r.chance(0.1),
            payment_type_group_name: 'Карты оплаты',
            warehouse: warehouse.name,
            warehouse_id: warehouse.id,
          }
        : null,
      financial_data: withData.financial_data
        ? {
            cluster_from: 'Китай',
            cluster_to: 'Москва, МО и Дальние регионы',
            products: lines.map(({ line, product }) => ({
              product_id: product.sku,
              price: product.price,
              old_price: product.oldPrice,
              payout: Math.round(product.price * line.quantity * 0.82 * 100) / 100,
              commission_amount: Math.round(product.price * line.quantity * 0.18 * 100) / 100,
              commission_percent: 18,
              currency_code: product.currency,
              customer_price: product.price,
              quantity: line.quantity,
              actions: [],
            })),
          }
        : null,
      requirements: { products_requiring_gtd: [], products_requiring_country: [], products_requiring_mandatory_mark: [], products_requiring_rnpt: [], products_requiring_imei: [] },
      is_express: false,
      is_multibox: false,
      multi_box_qty: 1,
      parent_posting_number: '',
    };
  }

  /** Index range [lo, hi] of generated postings whose in_process_at lies in [from, to]. */
  private indexRange(from: number, to: number): [number, number] {
    const lo = Math.max(0, Math.ceil((from - this.start) / this.step - 0.5));
    const hi = Math.min(this.orderCount - 1, Math.floor((to - this.start) / this.step - 0.5));
    return [lo, hi];
  }

  postingList(body: Record<string, unknown>, kind: 'list' | 'unfulfilled') {
    const limit = checkLimit(body.limit, 100);
    const filter = (body.filter ?? {}) as Record<string, unknown>;
    const desc = String(body.sort_dir ?? body.dir ?? 'ASC').toUpperCase() === 'DESC';
    let from: number;
    let to: number;
    let unfulfilledFloor = -Infinity;
    if (kind === 'list') {
      if (!filter.since || !filter.to) throw badRequest('filter.since and filter.to are required');
      from = parseTime(filter.since, 'filter.since');
      to = parseTime(filter.to, 'filter.to');
      if (to - from > 366 * DAY_MS) throw badRequest('period must not exceed one year');
    } else if (filter.cutoff_from || filter.cutoff_to) {
      from = parseTime(filter.cutoff_from, 'filter.cutoff_from') - 2 * DAY_MS;
      to = parseTime(filter.cutoff_to, 'filter.cutoff_to') - 2 * DAY_MS;
      unfulfilledFloor = this.anchor - UNFULFILLED_MAX_AGE_MS;
    } else if (filter.delivering_date_from || filter.delivering_date_to) {
      from = parseTime(filter.delivering_date_from, 'filter.delivering_date_from') - 3 * DAY_MS;
      to = parseTime(filter.delivering_date_to, 'filter.delivering_date_to') - 3 * DAY_MS;
      unfulfilledFloor = this.anchor - UNFULFILLED_MAX_AGE_MS;
    } else {
      // Like Ozon, the unfulfilled list answers nothing without a cutoff or delivering-date window.
      return { postings: [], count: 0, cursor: '', has_next: false };
    }
    const requested = [...asStrings(filter.statuses), ...(typeof filter.status === 'string' && filter.status ? [filter.status] : [])];
    const statuses = new Set(kind === 'unfulfilled' ? (requested.length ? requested.filter((s) => UNFULFILLED.has(s)) : [...UNFULFILLED]) : requested);
    const warehouses = new Set(asNumbers(filter.warehouse_ids ?? filter.warehouse_id));
    const changed = filter.last_changed_status_date as { from?: string; to?: string } | undefined;
    const changedFrom = changed?.from ? parseTime(changed.from, 'filter.last_changed_status_date.from') : -Infinity;
    const changedTo = changed?.to ? parseTime(changed.to, 'filter.last_changed_status_date.to') : Infinity;
    const orderId = filter.order_id ? Number(filter.order_id) : undefined;

    const [rangeLo, hi] = this.indexRange(from, to);
    const lo = unfulfilledFloor > -Infinity ? Math.max(rangeLo, this.indexRange(unfulfilledFloor, unfulfilledFloor)[0]) : rangeLo;
    // Extras come after every generated posting in time; they are checked one by one.
    const extraIndexes = this.extras.map((_, k) => this.orderCount + k).filter((i) => {
      const t = this.extras[i - this.orderCount]!.inProcessAt;
      return t >= from && t <= to;
    });
    const matches = (i: number) => {
      const c = this.core(i);
      if (statuses.size && !statuses.has(c.status)) return false;
      if (warehouses.size && !warehouses.has(this.warehouseOf(c).id)) return false;
      if (c.lastChangedAt < changedFrom || c.lastChangedAt > changedTo) return false;
      if (orderId !== undefined && Number(this.clientId) * 10_000_000 + i !== orderId) return false;
      return true;
    };
    // Walk the generated range and the extras as one ordered sequence of positions.
    const total = Math.max(0, hi - lo + 1) + extraIndexes.length;
    const at = (pos: number) => (pos < Math.max(0, hi - lo + 1) ? lo + pos : extraIndexes[pos - Math.max(0, hi - lo + 1)]!);
    const cursor = decodeCursor<{ p: number }>(body.cursor);
    const found: number[] = [];
    let pos = cursor?.p ?? 0;
    let hasNext = false;
    for (; pos < total; pos++) {
      const i = at(desc ? total - 1 - pos : pos);
      if (!matches(i)) continue;
      if (found.length === limit) {
        hasNext = true;
        break;
      }
      found.push(i);
    }
    const withData = (body.with ?? {}) as Record<string, unknown>;
    const answer: Record<string, unknown> = {
      postings: found.map((i) => this.posting(i, withData)),
      cursor: hasNext ? encodeCursor({ p: pos }) : '',
      has_next: hasNext,
    };
    if (kind === 'unfulfilled') {
      let count = 0;
      for (let p = 0; p < total; p++) if (matches(at(p))) count++;
      answer.count = count;
    }
    return answer;
  }

  /** /v3/posting/fbs/get answers v3's product price: a decimal string with currency_code, not v4's {amount, currency}. */
  postingGet(body: Record<string, unknown>) {
    const posting = this.posting(this.requirePosting(body.posting_number), (body.with ?? {}) as Record<string, unknown>);
    return {
      result: {
        ...posting,
        products: posting.products.map(({ price, ...product }) => ({ ...product, price: price.amount.toFixed(2), currency_code: price.currency })),
      },
    };
  }

  private touch(index: number, change: PostingOverride) {
    this.overrides.set(index, { ...this.overrides.get(index), ...change, lastChangedAt: this.env.now() });
  }

  ship(body: Record<string, unknown>) {
    const index = this.requirePosting(body.posting_number);
    const status = this.core(index).status;
    if (status === 'cancelled') throw badRequest('POSTING_ALREADY_CANCELLED');
    if (SHIPPED.has(status)) throw badRequest('POSTING_ALREADY_SHIPPED');
    if (status !== 'awaiting_packaging') throw badRequest('HAS_INCORRECT_STATUS');
    const packages = Array.isArray(body.packages) ? (body.packages as { products?: { product_id?: unknown; quantity?: unknown }[] }[]) : [];
    if (packages.length === 0) throw badRequest('packages is required');
    const lines = this.linesOf(index);
    const bySku = new Map(lines.map((l) => [this.sellable[l.productIndex % this.sellable.length]!.sku, l]));
    const shippedQty = new Map<number, number>();
    const packageLines: Line[][] = packages.map((pkg) =>
      (pkg.products ?? []).map((item) => {
        const line = bySku.get(Number(item.product_id));
        if (!line) throw badRequest('UNKNOWN_PRODUCT');
        const quantity = Number(item.quantity);
        if (!Number.isInteger(quantity) || quantity < 1) throw badRequest('HAS_INCORRECT_PRODUCT_QUANTITY');
        shippedQty.set(Number(item.product_id), (shippedQty.get(Number(item.product_id)) ?? 0) + quantity);
        return { productIndex: line.productIndex, quantity };
      }),
    );
    for (const [sku, line] of bySku) if (shippedQty.get(sku) !== line.quantity) throw badRequest('HAS_INCORRECT_PRODUCT_QUANTITY');
    const now = this.env.now();
    this.touch(index, { status: 'awaiting_deliver', shippedAt: now, lines: packageLines[0] });
    const base = this.postingNumberOf(index).replace(/-\d+$/, '');
    const numbers = [this.postingNumberOf(index)];
    const core = this.core(index);
    const orderIndex = index >= this.orderCount ? this.extras[index - this.orderCount]!.orderIndex : index;
    for (let k = 1; k < packageLines.length; k++) {
      const postingNumber = `${base}-${k + 1 + this.extras.filter((e) => e.orderIndex === orderIndex).length}`;
      const extraIndex = this.orderCount + this.extras.length;
      this.extras.push({ postingNumber, orderIndex, inProcessAt: core.inProcessAt, warehouseIndex: core.warehouseIndex, lines: packageLines[k]! });
      this.extraByNumber.set(postingNumber, extraIndex);
      this.overrides.set(extraIndex, { status: 'awaiting_deliver', shippedAt: now, lastChangedAt: now });
      numbers.push(postingNumber);
    }
    return { result: numbers, additional_data: [] };
  }

  cancelReasons(body: Record<string, unknown>) {
    const numbers = asStrings(body.related_posting_numbers);
    if (numbers.length === 0) throw badRequest('related_posting_numbers is required');
    return {
      result: numbers.map((n) => {
        this.requirePosting(n);
        return { posting_number: n, reasons: CANCEL_REASONS.filter((r) => r.type_id === 'seller') };
      }),
    };
  }

  cancel(body: Record<string, unknown>) {
    const index = this.requirePosting(body.posting_number);
    const reasonId = Number(body.cancel_reason_id);
    if (!CANCEL_REASONS.some((r) => r.id === reasonId && r.type_id === 'seller')) throw badRequest('cancel_reason_id is invalid');
    if (reasonId === 402 && !String(body.cancel_reason_message ?? '').trim()) throw badRequest('cancel_reason_message is required for reason 402');
    const status = this.core(index).status;
    if (status === 'cancelled') throw badRequest('POSTING_ALREADY_CANCELLED');
    if (status === 'delivered' || status === 'delivering' || status === 'driver_pickup') throw badRequest('HAS_INCORRECT_STATUS');
    this.touch(index, { status: 'cancelled', cancelReasonId: reasonId });
    return { result: true };
  }

  setTracking(body: Record<string, unknown>) {
    const items = Array.isArray(body.tracking_numbers) ? (body.tracking_numbers as { posting_number?: string; tracking_number?: string }[]) : [];
    if (items.length === 0 || items.length > 20) throw badRequest('tracking_numbers must hold 1 to 20 items');
    return {
      result: items.map((item) => {
        const index = item.posting_number ? this.indexOf(item.posting_number) : undefined;
        if (index === undefined) return { posting_number: item.posting_number ?? '', result: false, error: 'POSTING_NOT_FOUND' };
        if (!item.tracking_number) return { posting_number: item.posting_number!, result: false, error: 'TRACKING_NUMBER_IS_EMPTY' };
        this.touch(index, { trackingNumber: item.tracking_number });
        return { posting_number: item.posting_number!, result: true, error: '' };
      }),
    };
  }

  /** Postings for a label, or Ozon's refusal of the whole batch. */
  labelPostings(numbers: unknown) {
    const list = asStrings(numbers);
    if (list.length === 0 || list.length > 20) throw badRequest('posting_number must hold 1 to 20 items');
    const now = this.env.now();
    const notReady: string[] = [];
    const postings = list.map((n) => {
      const index = this.requirePosting(n);
      const core = this.core(index);
      const shippedAt = this.overrides.get(index)?.shippedAt;
      if (!SHIPPED.has(core.status) || (shippedAt !== undefined && now - shippedAt < this.env.labelReadyDelayMs())) notReady.push(n);
      const p = this.posting(index);
      return { postingNumber: n, warehouse: p.delivery_method.warehouse, products: p.products.map((x) => ({ offerId: x.offer_id, quantity: x.quantity })) };
    });
    if (notReady.length) throw badRequest(`${OZON_TEXT.labelsNotReady}: ${notReady.join(', ')}`);
    return postings;
  }

  labelCreate(body: Record<string, unknown>) {
    const list = asStrings(body.posting_number);
    if (list.length === 0) throw badRequest('posting_number is required');
    for (const n of list) this.requirePosting(n);
    const taskId = ++this.taskSeq;
    setBounded(this.labelTasks, taskId, { createdAt: this.env.now(), postings: list }, SIM_BOUNDS.tasks);
    return { result: { tasks: [{ task_id: taskId, task_type: list.length > 1 ? 'big_label' : 'small_label' }] } };
  }

  labelTask(taskId: number) {
    return this.labelTasks.get(taskId);
  }

  labelGet(body: Record<string, unknown>, baseUrl: string) {
    const taskId = Number(body.task_id);
    const task = this.labelTasks.get(taskId);
    if (!task) throw notFound('task not found');
    if (this.env.now() - task.createdAt < this.env.taskDelayMs()) return { result: { status: 'in_progress', file_url: '', error: '' } };
    try {
      this.labelPostings(task.postings);
    } catch (error) {
      return { result: { status: 'error', file_url: '', error: error instanceof SimError ? error.message : 'error' } };
    }
    return { result: { status: 'completed', file_url: `${baseUrl}/assets/labels/${this.clientId}/${taskId}.pdf`, error: '' } };
  }

  // ---- returns: about 4% of delivered or cancelled postings came back.
  private returnAt(index: number) {
    if (index >= this.orderCount) return undefined;
    if (randomFor(this.seed, this.clientId, 'return', index).next() >= 0.04) return undefined;
    const core = this.core(index);
    if (core.status !== 'delivered' && core.status !== 'cancelled') return undefined;
    return core;
  }

  returnsList(body: Record<string, unknown>) {
    const limit = checkLimit(body.limit, 500);
    const filter = (body.filter ?? {}) as Record<string, unknown>;
    if (filter.return_schema === 'FBO') return { returns: [], has_next: false };
    const base = Number(this.clientId) * 10_000_000;
    const numbers = asStrings(filter.posting_numbers);
    const range = (filter.logistic_return_date ?? filter.visual_status_change_moment) as { time_from?: string; time_to?: string } | undefined;
    let lo = 0;
    let hi = this.orderCount - 1;
    if (range?.time_from || range?.time_to) {
      [lo, hi] = this.indexRange(
        range.time_from ? parseTime(range.time_from, 'time_from') - 10 * DAY_MS : -Infinity,
        range.time_to ? parseTime(range.time_to, 'time_to') - 10 * DAY_MS : Infinity,
      );
    }
    const after = body.last_id ? Number(body.last_id) - base + 1 : 0;
    const candidates = numbers.length
      ? numbers.map((n) => this.indexOf(n)).filter((i): i is number => i !== undefined && i >= Math.max(lo, after) && i <= hi).sort((a, b) => a - b)
      : undefined;
    const found: PostingCore[] = [];
    let hasNext = false;
    const visit = (i: number) => {
      const core = this.returnAt(i);
      if (!core) return true;
      if (found.length === limit) {
        hasNext = true;
        return false;
      }
      found.push(core);
      return true;
    };
    if (candidates) {
      for (const i of candidates) if (!visit(i)) break;
    } else {
      for (let i = Math.max(lo, after); i <= hi; i++) if (!visit(i)) break;
    }
    return {
      returns: found.map((core) => {
        const p = this.posting(core.index);
        const line = p.products[0]!;
        const returnedAt = core.inProcessAt + 10 * DAY_MS;
        const full = core.status === 'delivered';
        return {
          id: base + core.index,
          company_id: Number(this.clientId),
          return_reason_name: full ? 'Не подошел размер' : 'Покупатель отменил заказ',
          type: full ? 'FullReturn' : 'Cancellation',
          schema: 'Fbs',
          order_id: p.order_id,
          order_number: p.order_number,
          posting_number: p.posting_number,
          place: { id: 1, name: 'ПВЗ Москва', address: 'Москва' },
          target_place: { id: 2, name: p.delivery_method.warehouse, address: '' },
          storage: null,
          product: {
            sku: line.sku,
            offer_id: line.offer_id,
            name: line.name,
            price: { currency_code: line.price.currency, price: line.price.amount },
            price_without_commission: { currency_code: line.price.currency, price: Math.round(line.price.amount * 0.82) },
            commission_percent: 18,
            commission: { currency_code: line.price.currency, price: Math.round(line.price.amount * 0.18) },
            quantity: line.quantity,
          },
          logistic: { technical_return_moment: iso(returnedAt), final_moment: '', cancelled_with_compensation_moment: '', return_date: iso(returnedAt), barcode: `ii${core.index}` },
          visual: {
            status: full ? { id: 3, display_name: 'Возвращён продавцу', sys_name: 'ReturnedToSeller' } : { id: 1, display_name: 'В пути', sys_name: 'MovingToSeller' },
            change_moment: iso(returnedAt),
          },
          additional_info: { is_opened: full, is_super_econom: false },
          source_id: core.index,
          clearing_id: 0,
          return_clearing_id: 0,
          exemplars: [{ id: base + core.index }],
        };
      }),
      has_next: hasNext,
    };
  }

  // ---- products
  productList(body: Record<string, unknown>) {
    const limit = checkLimit(body.limit, 1000, false);
    const filter = (body.filter ?? {}) as Record<string, unknown>;
    const list = this.filterProducts(filter);
    const after = body.last_id ? Number(body.last_id) : 0;
    const page = list.filter((p) => p.id > after).slice(0, limit);
    const more = list.some((p) => p.id > (page[page.length - 1]?.id ?? Infinity));
    return {
      result: {
        items: page.map((p) => ({
          product_id: p.id,
          offer_id: p.offerId,
          archived: p.archived,
          has_fbo_stocks: p.fboPresent > 0,
          has_fbs_stocks: fbsStock(p) > 0,
          is_discounted: false,
          quants: [],
        })),
        total: list.length,
        last_id: more ? String(page[page.length - 1]!.id) : '',
      },
    };
  }

  private filterProducts(filter: Record<string, unknown>): SimProduct[] {
    const offers = new Set(asStrings(filter.offer_id));
    const ids = new Set(asNumbers(filter.product_id));
    const skus = new Set(asNumbers(filter.sku ?? filter.skus));
    const visibility = typeof filter.visibility === 'string' ? filter.visibility : 'ALL';
    return this.products
      .map((p) => this.settle(p))
      .filter((p) => (offers.size === 0 || offers.has(p.offerId)) && (ids.size === 0 || ids.has(p.id)) && (skus.size === 0 || skus.has(p.sku)) && matchesVisibility(p, visibility));
  }

  private url(image: string, baseUrl: string) {
    return image.startsWith('local:') ? `${baseUrl}/assets/img/${image.slice(6)}.png` : image;
  }

  productInfoList(body: Record<string, unknown>, baseUrl: string) {
    const offers = asStrings(body.offer_id);
    const ids = asNumbers(body.product_id);
    const skus = asNumbers(body.sku);
    if (offers.length + ids.length + skus.length > 1000) throw badRequest('at most 1000 identifiers per request');
    const found = new Map<number, SimProduct>();
    for (const o of offers) {
      const p = this.productByOffer.get(o);
      if (p) found.set(p.id, p);
    }
    for (const id of ids) {
      const p = this.productById.get(id);
      if (p) found.set(p.id, p);
    }
    for (const sku of skus) {
      const p = this.productBySku(sku);
      if (p) found.set(p.id, p);
    }
    return {
      items: [...found.values()].map((raw) => {
        const p = this.settle(raw);
        const images = p.images.map((i) => this.url(i, baseUrl));
        return {
          id: p.id,
          offer_id: p.offerId,
          sku: p.sku,
          name: p.name,
          barcodes: [p.barcode],
          images,
          primary_image: images.slice(0, 1),
          color_image: [],
          images360: [],
          price: p.price.toFixed(2),
          old_price: p.oldPrice ? p.oldPrice.toFixed(2) : '0.00',
          min_price: p.minPrice ? p.minPrice.toFixed(2) : '0.00',
          marketing_price: p.price.toFixed(2),
          currency_code: p.currency,
          vat: p.vat,
          description_category_id: p.categoryId,
          type_id: p.typeId,
          is_archived: p.archived && !p.autoArchived,
          is_autoarchived: p.autoArchived,
          is_discounted: false,
          is_kgt: false,
          statuses: productStatuses(p),
          errors: productErrors(p),
          stocks: {
            has_stock: fbsStock(p) + p.fboPresent > 0,
            stocks: [
              { present: fbsStock(p), reserved: p.reserved, sku: p.sku, source: 'fbs' },
              { present: p.fboPresent, reserved: 0, sku: p.sku, source: 'fbo' },
            ],
          },
          visibility_details: { has_price: true, has_stock: fbsStock(p) + p.fboPresent > 0 },
          commissions: [{ percent: 18, sale_schema: 'FBS', value: Math.round(p.price * 0.18), delivery_amount: 0, return_amount: 0 }],
          promotions: [],
          volume_weight: Math.round((p.depth * p.width * p.height) / 5_000_000 * 10) / 10,
          created_at: iso(p.createdAt),
          updated_at: iso(p.updatedAt),
        };
      }),
    };
  }

  productAttributes(body: Record<string, unknown>, baseUrl: string) {
    const limit = checkLimit(body.limit, 1000, false);
    const list = this.filterProducts((body.filter ?? {}) as Record<string, unknown>);
    const desc = String(body.sort_dir ?? 'ASC').toUpperCase() === 'DESC';
    const ordered = desc ? [...list].reverse() : list;
    const after = body.last_id ? Number(body.last_id) : undefined;
    const startAt = after === undefined ? 0 : ordered.findIndex((p) => p.id === after) + 1;
    const page = ordered.slice(startAt, startAt + limit);
    const more = startAt + limit < ordered.length;
    return {
      result: page.map((p) => {
        const images = p.images.map((i) => this.url(i, baseUrl));
        return {
          id: p.id,
          offer_id: p.offerId,
          sku: p.sku,
          name: p.name,
          barcode: p.barcode,
          barcodes: [p.barcode],
          description_category_id: p.categoryId,
          type_id: p.typeId,
          attributes: p.attributes,
          complex_attributes: [],
          attributes_with_defaults: [],
          images,
          primary_image: images[0] ?? '',
          color_image: '',
          depth: p.depth,
          width: p.width,
          height: p.height,
          dimension_unit: 'mm',
          weight: p.weight,
          weight_unit: 'g',
          pdf_list: [],
          model_info: { model_id: p.id, count: 1 },
        };
      }),
      last_id: more && page.length ? String(page[page.length - 1]!.id) : '',
      total: list.length,
    };
  }

  private quotaDay() {
    const dayStart = Math.floor(this.env.now() / DAY_MS) * DAY_MS;
    return { dayStart, resetAt: iso(dayStart + DAY_MS) };
  }

  productImport(body: Record<string, unknown>) {
    const items = Array.isArray(body.items) ? (body.items as Record<string, unknown>[]) : [];
    if (items.length === 0 || items.length > 100) throw badRequest('items must hold 1 to 100 products');
    const now = this.env.now();
    const { dayStart } = this.quotaDay();
    const results: ImportTask['items'] = items.map((item) => {
      const offerId = typeof item.offer_id === 'string' ? item.offer_id.trim() : '';
      const errors: ImportTask['items'][number]['errors'] = [];
      if (!offerId || offerId.length > 50) errors.push({ code: 'offer_id_invalid', field: 'offer_id', message: 'offer_id is required, at most 50 characters' });
      const name = typeof item.name === 'string' ? item.name : '';
      if (!name || name.length > 500) errors.push({ code: 'name_invalid', field: 'name', message: 'name is required, at most 500 characters' });
      const leaf = findLeaf(Number(item.description_category_id), Number(item.type_id));
      if (!leaf) errors.push({ code: 'description_category_invalid', field: 'description_category_id', message: 'description_category_id and type_id must name a leaf type' });
      const price = Number(item.price);
      if (!Number.isFinite(price) || price <= 0) errors.push({ code: 'price_invalid', field: 'price', message: 'price must be positive' });
      const images = asStrings(item.images);
      if (images.length > 15) errors.push({ code: 'too_many_images', field: 'images', message: 'at most 15 images' });
      const attributes = Array.isArray(item.attributes) ? (item.attributes as SimProduct['attributes']) : [];
      for (const id of REQUIRED_ATTRIBUTE_IDS) {
        if (!attributes.some((a) => Number(a.id) === id && Array.isArray(a.values) && a.values.length > 0)) {
          errors.push({ code: 'error_attribute_values_empty', field: 'attribute', message: `required attribute ${id} is empty` });
        }
      }
      const existing = offerId ? this.productByOffer.get(offerId) : undefined;
      if (!existing && this.creates.filter((t) => t >= dayStart).length >= DAILY_CREATE_LIMIT) {
        errors.push({ code: 'item_limit_exceeded', field: '', message: 'daily create limit exceeded' });
      }
      if (!existing && this.products.length >= TOTAL_LIMIT) errors.push({ code: 'total_limit_exceeded', field: '', message: 'assortment limit exceeded' });
      if (errors.length) return { offer_id: offerId, product_id: existing?.id ?? 0, status: 'failed' as const, errors };
      const fields = {
        name,
        categoryId: leaf!.categoryId,
        typeId: leaf!.typeId,
        price,
        oldPrice: Number(item.old_price ?? 0) || 0,
        currency: typeof item.currency_code === 'string' ? item.currency_code : 'CNY',
        vat: typeof item.vat === 'string' ? item.vat : '0',
        images,
        attributes: attributes.map((a) => ({ id: Number(a.id), complex_id: Number(a.complex_id ?? 0), values: a.values })),
        barcode: typeof item.barcode === 'string' ? item.barcode : '',
        depth: Number(item.depth ?? 100),
        width: Number(item.width ?? 100),
        height: Number(item.height ?? 100),
        weight: Number(item.weight ?? 100),
        updatedAt: now,
      };
      if (existing) {
        // An update sends the whole card and goes through moderation again.
        Object.assign(existing, fields, { state: existing.state === 'failed' ? 'moderating' : existing.state, readyAt: now + this.env.taskDelayMs() });
        return { offer_id: offerId, product_id: existing.id, status: 'imported' as const, errors: [] };
      }
      const k = this.nextProductK++;
      const id = Number(this.clientId) * 100_000 + k + 1;
      this.addProduct({
        ...fields,
        id,
        offerId,
        sku: 0,
        minPrice: 0,
        archived: false,
        autoArchived: false,
        state: 'moderating',
        readyAt: now + this.env.taskDelayMs(),
        stocks: new Map(this.warehouses.map((w) => [w.id, 0])),
        fboPresent: 0,
        reserved: 0,
        createdAt: now,
      });
      this.creates.push(now);
      this.creates.splice(0, this.creates.findIndex((t) => t >= dayStart));
      return { offer_id: offerId, product_id: id, status: 'imported' as const, errors: [] };
    });
    const taskId = ++this.taskSeq;
    setBounded(this.importTasks, taskId, { createdAt: now, items: results }, SIM_BOUNDS.tasks);
    return { result: { task_id: taskId } };
  }

  importInfo(body: Record<string, unknown>) {
    const task = this.importTasks.get(Number(body.task_id));
    if (!task) throw notFound('task not found');
    const pending = this.env.now() - task.createdAt < this.env.taskDelayMs();
    return {
      result: {
        items: task.items.map((i) => (pending ? { offer_id: i.offer_id, product_id: 0, status: 'pending', errors: [] } : i)),
        total: task.items.length,
      },
    };
  }

  importBySku(body: Record<string, unknown>) {
    const items = Array.isArray(body.items) ? (body.items as Record<string, unknown>[]) : [];
    if (items.length === 0 || items.length > 1000) throw badRequest('items must hold 1 to 1000 products');
    const unmatched: number[] = [];
    const toImport: Record<string, unknown>[] = [];
    for (const item of items) {
      const sku = Number(item.sku);
      const source = this.env.findSku(sku);
      if (!source) {
        unmatched.push(sku);
        continue;
      }
      toImport.push({
        offer_id: typeof item.offer_id === 'string' && item.offer_id ? item.offer_id : `COPY-${sku}`,
        name: typeof item.name === 'string' && item.name ? item.name : source.name,
        description_category_id: source.categoryId,
        type_id: source.typeId,
        price: item.price ?? String(source.price),
        old_price: item.old_price ?? '0',
        currency_code: item.currency_code ?? source.currency,
        vat: item.vat ?? source.vat,
        attributes: source.attributes,
        images: source.images,
        depth: source.depth,
        width: source.width,
        height: source.height,
        weight: source.weight,
      });
    }
    if (toImport.length === 0) {
      const taskId = ++this.taskSeq;
      setBounded(this.importTasks, taskId, { createdAt: this.env.now(), items: [] }, SIM_BOUNDS.tasks);
      return { result: { task_id: taskId, unmatched_sku_list: unmatched } };
    }
    const { result } = this.productImport({ items: toImport });
    return { result: { task_id: result.task_id, unmatched_sku_list: unmatched } };
  }

  private requireProducts(ids: unknown): SimProduct[] {
    const list = asNumbers(ids);
    if (list.length === 0 || list.length > 100) throw badRequest('product_id must hold 1 to 100 ids');
    return list.map((id) => {
      const p = this.productById.get(id);
      if (!p) throw notFound(`product ${id} not found`);
      return p;
    });
  }

  archive(body: Record<string, unknown>) {
    const now = this.env.now();
    for (const p of this.requireProducts(body.product_id)) {
      p.archived = true;
      p.autoArchived = false;
      p.updatedAt = now;
    }
    return { result: true };
  }

  unarchive(body: Record<string, unknown>) {
    const products = this.requireProducts(body.product_id);
    const now = this.env.now();
    // The daily restore limit counts from 03:00 MSK, which is 00:00 UTC.
    const { dayStart } = this.quotaDay();
    const autos = products.filter((p) => p.archived && p.autoArchived).length;
    const used = this.restores.filter((t) => t >= dayStart).length;
    if (used + autos > UNARCHIVE_DAILY_LIMIT) throw badRequest('restore limit exceeded');
    for (const p of products) {
      if (p.archived && p.autoArchived) {
        this.restores.push(now);
        this.restores.splice(0, this.restores.findIndex((t) => t >= dayStart));
      }
      p.archived = false;
      p.autoArchived = false;
      p.updatedAt = now;
    }
    return { result: true };
  }

  deleteProducts(body: Record<string, unknown>) {
    const items = Array.isArray(body.products) ? (body.products as { offer_id?: string }[]) : [];
    if (items.length === 0 || items.length > 500) throw badRequest('products must hold 1 to 500 items');
    return {
      status: items.map(({ offer_id = '' }) => {
        const p = this.productByOffer.get(offer_id);
        if (!p) return { offer_id, is_deleted: false, error: 'PRODUCT_NOT_FOUND' };
        if (!p.archived) return { offer_id, is_deleted: false, error: 'PRODUCT_IS_NOT_ARCHIVED' };
        if (p.sku > 0) return { offer_id, is_deleted: false, error: 'PRODUCT_HAS_SKU' };
        this.products.splice(this.products.indexOf(p), 1);
        this.productById.delete(p.id);
        this.productByOffer.delete(p.offerId);
        // What was counted for the card goes with it, so create-and-delete cycles leave nothing behind.
        this.priceChanges.delete(p.id);
        for (const w of this.warehouses) this.stockUpdates.delete(`${p.id}:${w.id}`);
        return { offer_id, is_deleted: true, error: '' };
      }),
    };
  }

  private cursorPage(body: Record<string, unknown>) {
    const limit = checkLimit(body.limit, 1000);
    const list = this.filterProducts((body.filter ?? {}) as Record<string, unknown>);
    const from = decodeCursor<{ o: number }>(body.cursor)?.o ?? 0;
    const page = list.slice(from, from + limit);
    return { page, total: list.length, cursor: from + limit < list.length ? encodeCursor({ o: from + limit }) : '' };
  }

  prices(body: Record<string, unknown>) {
    const { page, total, cursor } = this.cursorPage(body);
    return {
      items: page.map((p) => ({
        product_id: p.id,
        offer_id: p.offerId,
        acquiring: 0,
        volume_weight: 0.5,
        price: {
          price: p.price,
          old_price: p.oldPrice,
          min_price: p.minPrice,
          marketing_price: p.price,
          marketing_seller_price: p.price,
          net_price: 0,
          retail_price: 0,
          vat: 0,
          currency_code: p.currency,
          auto_action_enabled: false,
          auto_add_to_ozon_actions_list_enabled: false,
        },
        commissions: { sales_percent_fbo: 18, sales_percent_fbs: 18, fbs_deliv_to_customer_amount: 0 },
        marketing_actions: null,
        price_indexes: { color_index: 'WITHOUT_INDEX' },
      })),
      cursor,
      total,
    };
  }

  importPrices(body: Record<string, unknown>) {
    const items = Array.isArray(body.prices) ? (body.prices as Record<string, unknown>[]) : [];
    if (items.length === 0 || items.length > 1000) throw badRequest('prices must hold 1 to 1000 items');
    const now = this.env.now();
    return {
      result: items.map((item) => {
        // offer_id wins when both are given (swagger).
        const p = item.offer_id ? this.productByOffer.get(String(item.offer_id)) : this.productById.get(Number(item.product_id));
        const ids = { offer_id: String(item.offer_id ?? p?.offerId ?? ''), product_id: p?.id ?? Number(item.product_id ?? 0) };
        const fail = (code: string, message: string) => ({ ...ids, updated: false, errors: [{ code, message }] });
        if (!p) return fail('PRODUCT_IS_NOT_FOUND', 'product not found');
        const price = item.price === undefined ? p.price : Number(item.price);
        const oldPrice = item.old_price === undefined ? p.oldPrice : Number(item.old_price);
        const minPrice = item.min_price === undefined ? p.minPrice : Number(item.min_price);
        if (![price, oldPrice, minPrice].every(Number.isFinite)) return fail('price_invalid', 'price must be a number');
        if (price < 0 || oldPrice < 0 || minPrice < 0) return fail('price_negative', 'price must not be negative');
        if (oldPrice > 0) {
          // Ozon's required gap between price and old_price.
          const gap = oldPrice - price;
          const needed = price < 400 ? 20 : price <= 10_000 ? price * 0.05 : 500;
          if (gap < needed) return fail('discount_too_small', `old_price must exceed price by at least ${Math.ceil(needed)}`);
        }
        const recent = (this.priceChanges.get(p.id) ?? []).filter((t) => now - t < 3_600_000);
        if (recent.length >= PRICE_CHANGES_PER_HOUR) return fail('too_many_price_updates', 'a price can change at most 10 times an hour');
        recent.push(now);
        this.priceChanges.set(p.id, recent);
        Object.assign(p, { price, oldPrice, minPrice, updatedAt: now });
        return { ...ids, updated: true, errors: [] };
      }),
    };
  }

  updateStocks(body: Record<string, unknown>) {
    const items = Array.isArray(body.stocks) ? (body.stocks as Record<string, unknown>[]) : [];
    if (items.length === 0 || items.length > 100) throw badRequest('stocks must hold 1 to 100 items');
    const now = this.env.now();
    return {
      result: items.map((item) => {
        const p = item.product_id ? this.productById.get(Number(item.product_id)) : this.productByOffer.get(String(item.offer_id ?? ''));
        const warehouseId = Number(item.warehouse_id);
        const ids = { offer_id: String(item.offer_id ?? p?.offerId ?? ''), product_id: p?.id ?? Number(item.product_id ?? 0), warehouse_id: warehouseId };
        const fail = (code: string, message: string) => ({ ...ids, updated: false, errors: [{ code, message }] });
        if (!p) return fail('offer_id_not_found', 'product not found');
        this.settle(p);
        if (p.state === 'moderating' || p.state === 'failed') return fail('product_is_not_created', 'product is not created yet');
        if (!this.warehouses.some((w) => w.id === warehouseId)) return fail('WAREHOUSE_NOT_FOUND', 'warehouse not found');
        const stock = Number(item.stock);
        if (!Number.isInteger(stock) || stock < 0) return fail('STOCK_IS_INVALID', 'stock must be a whole number ≥ 0');
        if (stock >= 1_000_000) return fail('STOCK_TOO_BIG', 'stock is too big');
        const key = `${p.id}:${warehouseId}`;
        const last = this.stockUpdates.get(key);
        if (last !== undefined && now - last < STOCK_PAIR_INTERVAL_MS) return fail('TOO_MANY_REQUESTS', 'Stock is updated too frequently');
        this.stockUpdates.set(key, now);
        p.stocks.set(warehouseId, stock);
        p.updatedAt = now;
        return { ...ids, updated: true, errors: [] };
      }),
    };
  }

  stocks(body: Record<string, unknown>) {
    const { page, total, cursor } = this.cursorPage(body);
    return {
      items: page.map((p) => ({
        offer_id: p.offerId,
        product_id: p.id,
        stocks: [
          { type: 'fbs', present: fbsStock(p), reserved: p.reserved, sku: p.sku, shipment_type: 'SHIPMENT_TYPE_GENERAL', warehouse_ids: [...p.stocks.entries()].filter(([, s]) => s > 0).map(([w]) => String(w)) },
          { type: 'fbo', present: p.fboPresent, reserved: 0, sku: p.sku, shipment_type: 'SHIPMENT_TYPE_GENERAL', warehouse_ids: [] },
        ],
      })),
      cursor,
      total,
    };
  }

  picturesImport(body: Record<string, unknown>) {
    const p = this.productById.get(Number(body.product_id));
    if (!p) throw notFound('product not found');
    const images = asStrings(body.images);
    if (images.length === 0 || images.length > 30) throw badRequest('images must hold 1 to 30 links');
    p.images = images;
    p.updatedAt = this.env.now();
    return { result: { pictures: images.map((url, i) => ({ product_id: p.id, url, state: 'imported', is_primary: i === 0, is_color: false, is_360: false })) } };
  }

  limits() {
    const { dayStart, resetAt } = this.quotaDay();
    const created = this.creates.filter((t) => t >= dayStart).length;
    return {
      daily_create: { limit: DAILY_CREATE_LIMIT, usage: created, reset_at: resetAt },
      daily_update: { limit: DAILY_CREATE_LIMIT, usage: 0, reset_at: resetAt },
      total: { limit: TOTAL_LIMIT, usage: this.products.length },
    };
  }

  // ---- promotions
  private generateActions() {
    const r = randomFor(this.seed, this.clientId, 'actions');
    const titles = ['Распродажа 11.11', 'Весенние скидки', 'Товары дня', 'Эластичный бустинг'];
    const candidatesPool = this.sellable.filter((p) => !p.archived && p.state === 'onSale');
    titles.forEach((title, i) => {
      const candidates = candidatesPool.filter(() => r.chance(0.3)).map((p) => p.id);
      const participating = new Map<number, number>();
      for (const id of candidates) if (r.chance(0.2)) participating.set(id, Math.round(this.productById.get(id)!.price * 0.8));
      this.actions.push({
        id: Number(this.clientId) * 100 + i + 1,
        title,
        type: i === 3 ? 'ELASTIC_BOOSTING' : 'DISCOUNT',
        start: this.anchor - (10 - i * 3) * DAY_MS,
        end: this.anchor + (20 + i * 5) * DAY_MS,
        discount: 10 + i * 5,
        candidates,
        participating,
      });
    });
  }

  actionList() {
    return {
      result: this.actions.map((a) => ({
        id: a.id,
        title: a.title,
        action_type: a.type,
        description: `${a.title}: скидка от ${a.discount}%`,
        date_start: iso(a.start),
        date_end: iso(a.end),
        freeze_date: '',
        potential_products_count: a.candidates.length - a.participating.size,
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

  actionProducts(body: Record<string, unknown>, which: 'candidates' | 'products') {
    const action = this.requireAction(body.action_id);
    const limit = checkLimit(body.limit ?? 100, 1000);
    const ids = (which === 'products' ? [...action.participating.keys()] : action.candidates.filter((id) => !action.participating.has(id))).sort((a, b) => a - b);
    const after = body.last_id ? Number(body.last_id) : 0;
    const page = ids.filter((id) => id > after).slice(0, limit);
    return {
      result: {
        products: page.map((id) => {
          const p = this.productById.get(id)!;
          const maxActionPrice = Math.floor(p.price * (1 - action.discount / 100));
          return {
            id,
            price: p.price,
            action_price: action.participating.get(id) ?? 0,
            max_action_price: maxActionPrice,
            alert_max_action_price_failed: false,
            alert_max_action_price: 0,
            add_mode: action.participating.has(id) ? 'MANUAL' : 'NOT_SET',
            stock: fbsStock(p),
            min_stock: 0,
          };
        }),
        total: ids.length,
        last_id: page.length && ids.some((id) => id > page[page.length - 1]!) ? page[page.length - 1]! : 0,
      },
    };
  }

  actionActivate(body: Record<string, unknown>) {
    const action = this.requireAction(body.action_id);
    const items = Array.isArray(body.products) ? (body.products as { product_id?: unknown; action_price?: unknown }[]) : [];
    if (items.length === 0) throw badRequest('products is required');
    const productIds: number[] = [];
    const rejected: { product_id: number; reason: string }[] = [];
    for (const item of items) {
      const id = Number(item.product_id);
      const p = this.productById.get(id);
      const price = Number(item.action_price);
      if (!p || !action.candidates.includes(id)) rejected.push({ product_id: id, reason: 'product is not a candidate of this action' });
      else if (!(price > 0) || price > Math.floor(p.price * (1 - action.discount / 100))) rejected.push({ product_id: id, reason: 'action_price is above max_action_price' });
      else {
        action.participating.set(id, price);
        productIds.push(id);
      }
    }
    return { result: { product_ids: productIds, rejected } };
  }

  actionDeactivate(body: Record<string, unknown>) {
    const action = this.requireAction(body.action_id);
    const productIds: number[] = [];
    const rejected: { product_id: number; reason: string }[] = [];
    for (const id of asNumbers(body.product_ids)) {
      if (action.participating.delete(id)) productIds.push(id);
      else rejected.push({ product_id: id, reason: 'product is not in this action' });
    }
    return { result: { product_ids: productIds, rejected } };
  }

  // ---- chats
  private generateChats() {
    const r = randomFor(this.seed, this.clientId, 'chats');
    const count = Math.min(60, Math.max(3, Math.floor(this.orderCount / 50)));
    const buyerLines = ['Здравствуйте! Когда отправите заказ?', '您好，请问什么时候发货？', 'Какой размер подойдёт на рост 170?', 'Товар пришёл с повреждением', 'Можно ли поменять цвет?', 'Спасибо, всё отлично!'];
    const sellerLines = ['Здравствуйте! Отправим в течение 2 дней.', '您好，已经发货了', 'Рекомендуем размер M.', 'Приносим извинения, оформите возврат.'];
    let t = this.anchor - 30 * DAY_MS;
    for (let c = 0; c < count; c++) {
      t += r.int(1, 12) * 3_600_000;
      const index = Math.max(0, this.orderCount - 1 - r.int(0, Math.min(this.orderCount - 1, 2_000)));
      const postingNumber = `${orderNumberOf(this.clientId, index)}-1`;
      const messages: ChatMessage[] = [];
      const n = r.int(1, 7);
      let mt = t;
      for (let m = 0; m < n; m++) {
        mt += r.int(5, 300) * 60_000;
        const fromBuyer = m % 2 === 0;
        const last = m === n - 1;
        messages.push({
          id: ++this.messageSeq,
          createdAt: Math.min(mt, this.anchor),
          userType: fromBuyer ? 'customer' : 'seller',
          text: fromBuyer ? r.pick(buyerLines) : r.pick(sellerLines),
          isRead: !(fromBuyer && last && r.chance(0.6)),
          orderNumber: orderNumberOf(this.clientId, index),
        });
      }
      this.chats.push({ chatId: `${this.clientId}-chat-${hex(r.next())}-${c}`, type: 'Buyer_Seller', status: r.chance(0.9) ? 'Opened' : 'Closed', createdAt: t, postingNumber, messages });
    }
    this.chats.push({
      chatId: `${this.clientId}-support`,
      type: 'Seller_Support',
      status: 'Opened',
      createdAt: this.anchor - 60 * DAY_MS,
      messages: [{ id: ++this.messageSeq, createdAt: this.anchor - 60 * DAY_MS, userType: 'support', text: 'Добро пожаловать в Ozon Seller!', isRead: true }],
    });
  }

  private chatView(chat: SimChat) {
    const unread = chat.messages.filter((m) => !m.isRead && m.userType !== 'seller');
    return {
      chat: { chat_id: chat.chatId, chat_type: chat.type, chat_status: chat.status, created_at: iso(chat.createdAt) },
      first_unread_message_id: unread[0]?.id ?? 0,
      last_message_id: chat.messages[chat.messages.length - 1]?.id ?? 0,
      unread_count: unread.length,
    };
  }

  chatList(body: Record<string, unknown>) {
    const limit = checkLimit(body.limit ?? 30, 1000);
    const filter = (body.filter ?? {}) as Record<string, unknown>;
    const status = typeof filter.chat_status === 'string' ? filter.chat_status : 'All';
    const sorted = [...this.chats]
      .filter((c) => status === 'All' || c.status === status)
      .filter((c) => !filter.unread_only || this.chatView(c).unread_count > 0)
      .sort((a, b) => (b.messages[b.messages.length - 1]?.id ?? 0) - (a.messages[a.messages.length - 1]?.id ?? 0));
    const from = decodeCursor<{ o: number }>(body.cursor)?.o ?? 0;
    const page = sorted.slice(from, from + limit);
    return {
      chats: page.map((c) => this.chatView(c)),
      total_unread_count: this.chats.reduce((sum, c) => sum + this.chatView(c).unread_count, 0),
      cursor: from + limit < sorted.length ? encodeCursor({ o: from + limit }) : '',
      has_next: from + limit < sorted.length,
    };
  }

  private requireChat(id: unknown): SimChat {
    const chat = this.chats.find((c) => c.chatId === id);
    if (!chat) throw notFound('chat not found');
    return chat;
  }

  chatHistory(body: Record<string, unknown>) {
    const chat = this.requireChat(body.chat_id);
    const limit = checkLimit(body.limit ?? 50, 1000);
    const forward = body.direction === 'Forward';
    const from = body.from_message_id !== undefined && body.from_message_id !== '' ? Number(body.from_message_id) : undefined;
    const ids = new Set(asNumbers((body.filter as Record<string, unknown> | undefined)?.message_ids));
    let list = chat.messages.filter((m) => ids.size === 0 || ids.has(m.id));
    list = forward ? list.filter((m) => from === undefined || m.id >= from) : list.filter((m) => from === undefined || m.id <= from).reverse();
    return {
      messages: list.slice(0, limit).map((m) => ({
        message_id: m.id,
        user: { id: m.userType === 'seller' ? this.clientId : m.userType === 'support' ? 'ozon-support' : `buyer-${chat.chatId}`, type: m.userType },
        created_at: iso(m.createdAt),
        is_read: m.isRead,
        is_image: m.isImage ?? false,
        moderate_image_status: 'SUCCESS',
        data: [m.text],
        context: m.orderNumber ? { order_number: m.orderNumber, sku: '' } : null,
      })),
      has_next: list.length > limit,
    };
  }

  chatSend(body: Record<string, unknown>) {
    const chat = this.requireChat(body.chat_id);
    const text = typeof body.text === 'string' ? body.text : '';
    if (text.length < 1 || text.length > 1000) throw badRequest('text must be 1 to 1000 characters');
    if (chat.status === 'Closed') throw badRequest('chat is closed');
    pushBounded(chat.messages, { id: ++this.messageSeq, createdAt: this.env.now(), userType: 'seller', text, isRead: true }, SIM_BOUNDS.messagesPerChat);
    return { result: 'success' };
  }

  /** The file itself is not kept: the history shows its name, as a stand-in for Ozon's CDN link. */
  chatSendFile(body: Record<string, unknown>) {
    const chat = this.requireChat(body.chat_id);
    const name = typeof body.name === 'string' ? body.name.trim() : '';
    const content = typeof body.base64_content === 'string' ? body.base64_content : '';
    if (!name) throw badRequest('name is required');
    if (name.length > SIM_BOUNDS.fileNameChars) throw badRequest(`name must be at most ${SIM_BOUNDS.fileNameChars} characters`);
    if (!content || !/^[A-Za-z0-9+/]+={0,2}$/.test(content)) throw badRequest('base64_content must be base64');
    if (chat.status === 'Closed') throw badRequest('chat is closed');
    const isImage = /\.(jpe?g|png|gif|bmp)$/i.test(name);
    pushBounded(chat.messages, { id: ++this.messageSeq, createdAt: this.env.now(), userType: 'seller', text: name, isRead: true, isImage }, SIM_BOUNDS.messagesPerChat);
    return { result: 'success' };
  }

  chatRead(body: Record<string, unknown>) {
    const chat = this.requireChat(body.chat_id);
    const upTo = body.from_message_id !== undefined ? Number(body.from_message_id) : Infinity;
    for (const m of chat.messages) if (m.id <= upTo) m.isRead = true;
    return { unread_count: this.chatView(chat).unread_count };
  }

  chatStart(body: Record<string, unknown>) {
    const postingNumber = String(body.posting_number ?? '');
    this.requirePosting(postingNumber);
    let chat = this.chats.find((c) => c.postingNumber === postingNumber);
    if (!chat) {
      chat = { chatId: `${this.clientId}-chat-${postingNumber}`, type: 'Buyer_Seller', status: 'Opened', createdAt: this.env.now(), postingNumber, messages: [] };
      if (this.chats.length >= SIM_BOUNDS.chats) this.chats.splice(this.chats.findIndex((c) => c.type === 'Buyer_Seller'), 1);
      this.chats.push(chat);
    }
    return { result: { chat_id: chat.chatId } };
  }

  /** The "new buyer message now" switch. */
  addBuyerMessage(chatId?: string, text = 'Здравствуйте! Есть вопрос по заказу.') {
    const chat = chatId ? this.requireChat(chatId) : this.chats.find((c) => c.type === 'Buyer_Seller' && c.status === 'Opened');
    if (!chat) throw notFound('chat not found');
    const message = { id: ++this.messageSeq, createdAt: this.env.now(), userType: 'customer' as const, text, isRead: false };
    pushBounded(chat.messages, message, SIM_BOUNDS.messagesPerChat);
    return { chatId: chat.chatId, messageId: message.id };
  }

  /** The "new posting now" switch: an awaiting_packaging posting created at the current time. */
  addPosting() {
    const orderIndex = this.orderCount + this.extras.length;
    const postingNumber = `${orderNumberOf(this.clientId, orderIndex)}-1`;
    const r = randomFor(this.seed, this.clientId, 'new-posting', orderIndex);
    this.extras.push({
      postingNumber,
      orderIndex,
      inProcessAt: this.env.now(),
      warehouseIndex: r.int(0, 7),
      lines: [{ productIndex: r.int(0, this.sellable.length - 1), quantity: 1 }],
    });
    this.extraByNumber.set(postingNumber, orderIndex);
    return { postingNumber };
  }

  // ---- analytics and finance
  analytics(body: Record<string, unknown>) {
    const from = Date.parse(String(body.date_from ?? ''));
    const to = Date.parse(String(body.date_to ?? ''));
    if (Number.isNaN(from) || Number.isNaN(to) || to < from) throw badRequest('date_from and date_to are required');
    const dimensions = asStrings(body.dimension);
    const metrics = asStrings(body.metrics);
    if (dimensions.length === 0) throw badRequest('dimension is required');
    if (metrics.length === 0 || metrics.length > 14) throw badRequest('metrics must hold 1 to 14 metrics');
    const known = new Set(['sku', 'day', 'week', 'month']);
    const unknown = dimensions.find((d) => !known.has(d));
    if (unknown) throw badRequest(`dimension ${unknown} is not available`);
    const limit = checkLimit(body.limit, 1000);
    const offset = Number(body.offset ?? 0);
    const days: number[] = [];
    for (let t = Math.floor(from / DAY_MS) * DAY_MS; t <= to; t += DAY_MS) days.push(t);
    const skus = dimensions.includes('sku') ? this.sellable.slice(0, 200) : [undefined];
    const byDay = dimensions.includes('day') ? days : [undefined];
    const perDay = this.orderCount / HISTORY_DAYS;
    const rows: { dimensions: { id: string; name: string }[]; metrics: number[] }[] = [];
    for (const p of skus) {
      for (const day of byDay) {
        const r = randomFor(this.seed, this.clientId, 'analytics', p?.sku ?? 0, day ?? from, day ?? to);
        const share = p ? 1 / Math.max(1, skus.length) : 1;
        const span = day !== undefined ? 1 : days.length;
        const units = Math.round(perDay * span * share * (0.6 + r.next() * 0.8) * 10) / 10;
        const price = p?.price ?? 1_500;
        const values: Record<string, number> = {
          ordered_units: Math.round(units),
          revenue: Math.round(units * price),
          delivered_units: Math.round(units * 0.85),
          returns: Math.round(units * 0.03),
          cancellations: Math.round(units * 0.08),
          hits_view: Math.round(units * 40),
          hits_view_search: Math.round(units * 25),
          hits_view_pdp: Math.round(units * 12),
          hits_tocart: Math.round(units * 3),
          session_view: Math.round(units * 30),
          conv_tocart: Math.round(r.next() * 1000) / 100,
          position_category: r.int(1, 500),
        };
        const dims: { id: string; name: string }[] = [];
        for (const d of dimensions) {
          if (d === 'sku') dims.push({ id: String(p!.sku), name: p!.name });
          else if (d === 'day') dims.push({ id: new Date(day!).toISOString().slice(0, 10), name: '' });
          else dims.push({ id: new Date(from).toISOString().slice(0, 10), name: '' });
        }
        rows.push({ dimensions: dims, metrics: metrics.map((m) => values[m] ?? 0) });
      }
    }
    const totals = metrics.map((_, i) => Math.round(rows.reduce((sum, row) => sum + (row.metrics[i] ?? 0), 0) * 100) / 100);
    return { result: { data: rows.slice(offset, offset + limit), totals }, timestamp: iso(this.env.now()) };
  }

  finance(body: Record<string, unknown>) {
    const filter = (body.filter ?? {}) as { date?: { from?: string; to?: string }; posting_number?: string; transaction_type?: string };
    const from = parseTime(filter.date?.from, 'filter.date.from');
    const to = parseTime(filter.date?.to, 'filter.date.to');
    if (to - from > 32 * DAY_MS) throw badRequest('the period must not exceed one month');
    const page = Number(body.page);
    const pageSize = Number(body.page_size);
    if (!Number.isInteger(page) || page < 1) throw badRequest('page must be 1 or more');
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) throw badRequest('page_size must be between 1 and 1000');
    let [lo, hi] = this.indexRange(from, to);
    if (filter.posting_number) {
      const i = this.indexOf(filter.posting_number);
      [lo, hi] = i === undefined || i < lo || i > hi ? [1, 0] : [i, i];
    }
    const count = Math.max(0, hi - lo + 1);
    const first = lo + (page - 1) * pageSize;
    const operations = [];
    for (let i = first; i <= Math.min(hi, first + pageSize - 1); i++) {
      const p = this.posting(i);
      const core = this.core(i);
      const sale = p.products.reduce((sum, x) => sum + x.price.amount * x.quantity, 0);
      const cancelled = core.status === 'cancelled';
      const commission = cancelled ? 0 : -Math.round(sale * 0.18 * 100) / 100;
      const delivery = -Math.round((30 + (p.products[0]?.weight ?? 100) * 0.1) * 100) / 100;
      operations.push({
        operation_id: Number(this.clientId) * 10_000_000 + i,
        operation_type: cancelled ? 'OperationReturnGoodsFBSofRMS' : 'OperationAgentDeliveredToCustomer',
        operation_type_name: cancelled ? 'Возврат' : 'Доставка покупателю',
        operation_date: iso(core.inProcessAt).replace('T', ' ').slice(0, 19),
        amount: Math.round(((cancelled ? 0 : sale) + commission + delivery) * 100) / 100,
        accruals_for_sale: cancelled ? 0 : sale,
        sale_commission: commission,
        delivery_charge: delivery,
        return_delivery_charge: cancelled ? delivery : 0,
        type: cancelled ? 'returns' : 'orders',
        posting: { delivery_schema: 'FBS', order_date: p.in_process_at, posting_number: p.posting_number, warehouse_id: p.delivery_method.warehouse_id },
        items: p.products.map((x) => ({ name: x.name, sku: x.sku })),
        services: [],
      });
    }
    return { result: { operations, page_count: Math.ceil(count / pageSize), row_count: count } };
  }
}

const hex = (n: number) => Math.floor(n * 0xffffffff).toString(16).padStart(8, '0');
