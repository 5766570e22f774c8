import type { boolResultSchema, cancelReasonResponseSchema, labelCreateResponseSchema, labelGetResponseSchema, postingGetResponseSchema, postingListResponseSchema, shipResponseSchema, trackingSetResponseSchema, warehouseListResponseSchema } from '../../ozon/schemas';
import type { FbsStatus } from '../../ozon/schemas';
import { badRequest, notFound, OZON_TEXT, SimError } from '../errors';
import { CANCEL_REASONS, DAY_MS, generatedCore, generatedLines, orderNumberOf, parsePostingNumber, SHIPPED, UNFULFILLED, UNFULFILLED_MAX_AGE_MS, type PostingCore } from '../postings';
import { agedCore } from '../live';
import { randomFor } from '../random';
import type { OzonRequest } from '../../ozon/versions';
import type { SimShop } from '../shop';
import type { Answer } from '../wire';
import { asNumbers, checkLimit, decodeCursor, encodeCursor, iso, parseTime, setBounded, SIM_BOUNDS } from '../wire';

const BUYER_SURNAMES = ['Иванов', 'Смирнова', 'Кузнецов', 'Попова', 'Соколов', 'Лебедева', 'Новиков', 'Морозова'] as const;
const BUYER_NAMES = ['Алексей', 'Мария', 'Дмитрий', 'Анна', 'Сергей', 'Елена', 'Иван', 'Ольга'] as const;
const BUYER_STREETS = ['ул. Ленина', 'пр. Мира', 'ул. Гагарина', 'ул. Советская', 'Невский пр.', 'ул. Пушкина'] as const;
const BUYER_PLACES = [
  { city: 'Москва', region: 'Москва', zip: '101000' },
  { city: 'Санкт-Петербург', region: 'Санкт-Петербург', zip: '190000' },
  { city: 'Новосибирск', region: 'Новосибирская область', zip: '630099' },
  { city: 'Екатеринбург', region: 'Свердловская область', zip: '620014' },
  { city: 'Казань', region: 'Республика Татарстан', zip: '420111' },
] as const;

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
/** The two posting lists, told apart: their filters differ. */
type PostingListRequest = { kind: 'list'; body: OzonRequest<'postingFbsList'> } | { kind: 'unfulfilled'; body: OzonRequest<'postingFbsUnfulfilledList'> };
/** What a list or get asks to add to each posting. */
type PostingWith = NonNullable<OzonRequest<'postingFbsList'>['with']>;
/** Postings made after the anchor (new-posting trigger, split packages): held in full. */
type ExtraPosting = { postingNumber: string; orderIndex: number; inProcessAt: number; warehouseIndex: number; lines: Line[] };

/**
 * Ozon area "FBS postings, shipping, labels and tracking" (+ warehouses): /v2/warehouse/list, /v4/posting/fbs/list and
 * unfulfilled/list, /v3/posting/fbs/get, /v4/posting/fbs/ship, cancel-reason and cancel, tracking-number/set, and the
 * synchronous and asynchronous package labels. Postings are generated on demand (./postings.ts); only what the seller
 * changed is kept (overrides), plus postings made after the anchor (extras).
 */
export class PostingsArea {
  private readonly shop: SimShop;
  readonly overrides = new Map<number, PostingOverride>();
  readonly extras: ExtraPosting[] = [];
  readonly extraByNumber = new Map<string, number>();
  readonly labelTasks = new Map<number, { createdAt: number; postings: string[] }>();

  constructor(shop: SimShop) {
    this.shop = shop;
  }

  // ---- warehouses
  warehouseList(body: OzonRequest<'warehouseList'>): Answer<typeof warehouseListResponseSchema> {
    const limit = checkLimit(body.limit, 200);
    const ids = asNumbers(body.warehouse_ids);
    const from = decodeCursor<{ o: number }>(body.cursor)?.o ?? 0;
    const all = this.shop.warehouses.filter((w) => ids.length === 0 || ids.includes(w.id));
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
  core(index: number): PostingCore {
    const o = this.overrides.get(index);
    if (index >= this.shop.orderCount) {
      const extra = this.extras[index - this.shop.orderCount]!;
      const c: PostingCore = { index, inProcessAt: extra.inProcessAt, status: 'awaiting_packaging', warehouseIndex: extra.warehouseIndex, lastChangedAt: extra.inProcessAt };
      return o?.status ? { ...c, status: o.status, lastChangedAt: o.lastChangedAt ?? c.lastChangedAt } : this.aged(c, o);
    }
    const c = generatedCore(this.shop.seed, this.shop.clientId, index, this.shop.start, this.shop.step, this.shop.anchor);
    return o?.status ? { ...c, status: o.status, lastChangedAt: o.lastChangedAt ?? c.lastChangedAt } : this.aged(c, o);
  }

  /** A posting the seller left alone, as the clock has moved it on (live shops: ./live.ts); else as generated. */
  private aged(c: PostingCore, o: PostingOverride | undefined): PostingCore {
    if (!this.shop.env.live) return o?.lastChangedAt === undefined ? c : { ...c, lastChangedAt: o.lastChangedAt };
    const moved = agedCore(c, this.shop.env.now());
    return o?.lastChangedAt === undefined ? moved : { ...moved, lastChangedAt: Math.max(moved.lastChangedAt, o.lastChangedAt) };
  }
  postingNumberOf(index: number) {
    return index >= this.shop.orderCount ? this.extras[index - this.shop.orderCount]!.postingNumber : `${orderNumberOf(this.shop.clientId, index)}-1`;
  }
  linesOf(index: number): Line[] {
    const o = this.overrides.get(index);
    if (o?.lines) return o.lines;
    if (index >= this.shop.orderCount) return this.extras[index - this.shop.orderCount]!.lines;
    return generatedLines(this.shop.seed, this.shop.clientId, index, this.shop.sellable.length);
  }
  indexOf(postingNumber: string): number | undefined {
    const extra = this.extraByNumber.get(postingNumber);
    if (extra !== undefined) return extra;
    const parsed = parsePostingNumber(this.shop.clientId, postingNumber);
    return parsed && parsed.part === 1 && parsed.index < this.shop.orderCount ? parsed.index : undefined;
  }
  requirePosting(postingNumber: unknown): number {
    const index = typeof postingNumber === 'string' ? this.indexOf(postingNumber) : undefined;
    if (index === undefined) throw notFound('POSTING_NOT_FOUND');
    return index;
  }
  warehouseOf(core: PostingCore) {
    return this.shop.warehouses[core.warehouseIndex % this.shop.warehouses.length]!;
  }

  posting(index: number, withData: PostingWith = {}) {
    const core = this.core(index);
    const o = this.overrides.get(index);
    const postingNumber = this.postingNumberOf(index);
    const orderIndex = index >= this.shop.orderCount ? this.extras[index - this.shop.orderCount]!.orderIndex : index;
    const warehouse = this.warehouseOf(core);
    const lines = this.linesOf(index).map((l) => ({ line: l, product: this.shop.sellable[l.productIndex % this.shop.sellable.length]! }));
    const r = randomFor(this.shop.seed, this.shop.clientId, 'posting-extra', index);
    const cancelReason = core.status === 'cancelled' ? CANCEL_REASONS.find((c) => c.id === (o?.cancelReasonId ?? 352)) ?? CANCEL_REASONS[0] : undefined;
    const available: string[] =
      core.status === 'awaiting_packaging' ? ['cancel', 'ship', 'arbitration'] : core.status === 'awaiting_deliver' ? ['cancel', 'label_download', 'set_tracking_number'] : [];
    return {
      posting_number: postingNumber,
      order_id: Number(this.shop.clientId) * 10_000_000 + orderIndex,
      order_number: orderNumberOf(this.shop.clientId, orderIndex),
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
      // Ozon gives the buyer's name, phone and address for postings the seller delivers (rFBS) only.
      ...(warehouse.isRfbs ? this.buyer(index) : { customer: null, addressee: null }),
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

  /** An rFBS posting's buyer and recipient, as /v3/posting/fbs/get answers them (generated from the posting's index). */
  private buyer(index: number) {
    const r = randomFor(this.shop.seed, this.shop.clientId, 'buyer', index);
    const name = `${r.pick(BUYER_SURNAMES)} ${r.pick(BUYER_NAMES)}`;
    const phone = `+7${r.int(900, 999)}${String(r.int(0, 9_999_999)).padStart(7, '0')}`;
    const place = r.pick(BUYER_PLACES);
    const street = `${r.pick(BUYER_STREETS)}, д. ${r.int(1, 120)}, кв. ${r.int(1, 300)}`;
    return {
      customer: {
        customer_id: 50_000_000 + index,
        name,
        phone,
        customer_email: '',
        address: {
          address_tail: `${place.city}, ${street}`,
          city: place.city,
          comment: r.chance(0.3) ? 'Позвонить за час до доставки' : '',
          country: 'Россия',
          district: '',
          region: place.region,
          zip_code: place.zip,
          latitude: 0,
          longitude: 0,
          pvz_code: 0,
          provider_pvz_code: '',
        },
      },
      addressee: { name, phone },
    };
  }

  /** Index range [lo, hi] of generated postings whose in_process_at lies in [from, to]. */
  indexRange(from: number, to: number): [number, number] {
    const lo = Math.max(0, Math.ceil((from - this.shop.start) / this.shop.step - 0.5));
    const hi = Math.min(this.shop.orderCount - 1, Math.floor((to - this.shop.start) / this.shop.step - 0.5));
    return [lo, hi];
  }

  postingList(request: PostingListRequest): Answer<typeof postingListResponseSchema> {
    const { body } = request;
    const limit = checkLimit(body.limit, 100);
    const desc = String(body.sort_dir ?? 'ASC').toUpperCase() === 'DESC';
    let from: number;
    let to: number;
    let unfulfilledFloor = -Infinity;
    // The two lists name the status-change window differently: last_changed_status_date, last_change_status_date.
    let changed: { from?: string; to?: string } | undefined;
    let orderId: number | undefined;
    if (request.kind === 'list') {
      const { filter } = request.body;
      from = parseTime(filter.since, 'filter.since');
      to = parseTime(filter.to, 'filter.to');
      if (to - from > 366 * DAY_MS) throw badRequest('period must not exceed one year');
      changed = filter.last_changed_status_date;
      orderId = filter.order_id ? Number(filter.order_id) : undefined;
    } else {
      const filter = request.body.filter ?? {};
      changed = filter.last_change_status_date;
      if (filter.cutoff_from || filter.cutoff_to) {
        from = parseTime(filter.cutoff_from, 'filter.cutoff_from') - 2 * DAY_MS;
        to = parseTime(filter.cutoff_to, 'filter.cutoff_to') - 2 * DAY_MS;
      } else if (filter.delivering_date_from || filter.delivering_date_to) {
        from = parseTime(filter.delivering_date_from, 'filter.delivering_date_from') - 3 * DAY_MS;
        to = parseTime(filter.delivering_date_to, 'filter.delivering_date_to') - 3 * DAY_MS;
      } else {
        // Like Ozon, the unfulfilled list answers nothing without a cutoff or delivering-date window.
        return { postings: [], count: 0, cursor: '', has_next: false };
      }
      unfulfilledFloor = this.shop.anchor - UNFULFILLED_MAX_AGE_MS;
    }
    const kind = request.kind;
    const requested = body.filter?.statuses ?? [];
    const statuses = new Set(kind === 'unfulfilled' ? (requested.length ? requested.filter((s) => UNFULFILLED.has(s)) : [...UNFULFILLED]) : requested);
    const warehouses = new Set(asNumbers(body.filter?.warehouse_ids));
    const changedFrom = changed?.from ? parseTime(changed.from, 'filter.last_changed_status_date.from') : -Infinity;
    const changedTo = changed?.to ? parseTime(changed.to, 'filter.last_changed_status_date.to') : Infinity;

    const [rangeLo, hi] = this.indexRange(from, to);
    const lo = unfulfilledFloor > -Infinity ? Math.max(rangeLo, this.indexRange(unfulfilledFloor, unfulfilledFloor)[0]) : rangeLo;
    // Extras come after every generated posting in time; they are checked one by one.
    const extraIndexes = this.extras.map((_, k) => this.shop.orderCount + k).filter((i) => {
      const t = this.extras[i - this.shop.orderCount]!.inProcessAt;
      return t >= from && t <= to;
    });
    const matches = (i: number) => {
      const c = this.core(i);
      if (statuses.size && !statuses.has(c.status)) return false;
      if (warehouses.size && !warehouses.has(this.warehouseOf(c).id)) return false;
      if (c.lastChangedAt < changedFrom || c.lastChangedAt > changedTo) return false;
      if (orderId !== undefined && Number(this.shop.clientId) * 10_000_000 + i !== orderId) return false;
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
    const withData = body.with ?? {};
    const answer: Answer<typeof postingListResponseSchema> = {
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
  postingGet(body: OzonRequest<'postingFbsGet'>): Answer<typeof postingGetResponseSchema> {
    const posting = this.posting(this.requirePosting(body.posting_number), body.with);
    return {
      result: {
        ...posting,
        products: posting.products.map(({ price, ...product }) => ({ ...product, price: price.amount.toFixed(2), currency_code: price.currency })),
      },
    };
  }

  private touch(index: number, change: PostingOverride) {
    this.overrides.set(index, { ...this.overrides.get(index), ...change, lastChangedAt: this.shop.env.now() });
  }

  ship(body: OzonRequest<'postingFbsShip'>): Answer<typeof shipResponseSchema> {
    const index = this.requirePosting(body.posting_number);
    const status = this.core(index).status;
    if (status === 'cancelled') throw badRequest('POSTING_ALREADY_CANCELLED');
    if (SHIPPED.has(status)) throw badRequest('POSTING_ALREADY_SHIPPED');
    if (status !== 'awaiting_packaging') throw badRequest('HAS_INCORRECT_STATUS');
    const packages = body.packages;
    if (packages.length === 0) throw badRequest('packages is required');
    const lines = this.linesOf(index);
    const bySku = new Map(lines.map((l) => [this.shop.sellable[l.productIndex % this.shop.sellable.length]!.sku, l]));
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
    const now = this.shop.env.now();
    this.touch(index, { status: 'awaiting_deliver', shippedAt: now, lines: packageLines[0] });
    const base = this.postingNumberOf(index).replace(/-\d+$/, '');
    const numbers = [this.postingNumberOf(index)];
    const core = this.core(index);
    const orderIndex = index >= this.shop.orderCount ? this.extras[index - this.shop.orderCount]!.orderIndex : index;
    for (let k = 1; k < packageLines.length; k++) {
      const postingNumber = `${base}-${k + 1 + this.extras.filter((e) => e.orderIndex === orderIndex).length}`;
      const extraIndex = this.shop.orderCount + this.extras.length;
      this.extras.push({ postingNumber, orderIndex, inProcessAt: core.inProcessAt, warehouseIndex: core.warehouseIndex, lines: packageLines[k]! });
      this.extraByNumber.set(postingNumber, extraIndex);
      this.overrides.set(extraIndex, { status: 'awaiting_deliver', shippedAt: now, lastChangedAt: now });
      numbers.push(postingNumber);
    }
    return { result: numbers, additional_data: [] };
  }

  cancelReasons(body: OzonRequest<'postingFbsCancelReason'>): Answer<typeof cancelReasonResponseSchema> {
    const numbers = body.related_posting_numbers;
    if (numbers.length === 0) throw badRequest('related_posting_numbers is required');
    return {
      result: numbers.map((n) => {
        this.requirePosting(n);
        return { posting_number: n, reasons: CANCEL_REASONS.filter((r) => r.type_id === 'seller') };
      }),
    };
  }

  cancel(body: OzonRequest<'postingFbsCancel'>): Answer<typeof boolResultSchema> {
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

  setTracking(body: OzonRequest<'trackingNumberSet'>): Answer<typeof trackingSetResponseSchema> {
    const items = body.tracking_numbers;
    if (items.length === 0 || items.length > 20) throw badRequest('tracking_numbers must hold 1 to 20 items');
    return {
      result: items.map((item) => {
        const index = item.posting_number ? this.indexOf(item.posting_number) : undefined;
        if (index === undefined) return { posting_number: item.posting_number, result: false, error: 'POSTING_NOT_FOUND' };
        if (!item.tracking_number) return { posting_number: item.posting_number, result: false, error: 'TRACKING_NUMBER_IS_EMPTY' };
        this.touch(index, { trackingNumber: item.tracking_number });
        return { posting_number: item.posting_number, result: true, error: '' };
      }),
    };
  }

  /** Postings for a label, or Ozon's refusal of the whole batch. */
  labelPostings(list: readonly string[]) {
    if (list.length === 0 || list.length > 20) throw badRequest('posting_number must hold 1 to 20 items');
    const now = this.shop.env.now();
    const notReady: string[] = [];
    const postings = list.map((n) => {
      const index = this.requirePosting(n);
      const core = this.core(index);
      const shippedAt = this.overrides.get(index)?.shippedAt;
      if (!SHIPPED.has(core.status) || (shippedAt !== undefined && now - shippedAt < this.shop.env.labelReadyDelayMs())) notReady.push(n);
      const p = this.posting(index);
      return { postingNumber: n, warehouse: p.delivery_method.warehouse, products: p.products.map((x) => ({ offerId: x.offer_id, name: x.name, quantity: x.quantity })) };
    });
    if (notReady.length) throw badRequest(`${OZON_TEXT.labelsNotReady}: ${notReady.join(', ')}`);
    return postings;
  }

  labelCreate(body: OzonRequest<'packageLabelCreate'>): Answer<typeof labelCreateResponseSchema> {
    const list = body.posting_number;
    if (list.length === 0) throw badRequest('posting_number is required');
    for (const n of list) this.requirePosting(n);
    const taskId = this.shop.nextTaskId();
    setBounded(this.labelTasks, taskId, { createdAt: this.shop.env.now(), postings: list }, SIM_BOUNDS.tasks);
    return { result: { tasks: [{ task_id: taskId, task_type: list.length > 1 ? 'big_label' : 'small_label' }] } };
  }

  labelTask(taskId: number) {
    return this.labelTasks.get(taskId);
  }

  labelGet(body: OzonRequest<'packageLabelGet'>, baseUrl: string): Answer<typeof labelGetResponseSchema> {
    const taskId = Number(body.task_id);
    const task = this.labelTasks.get(taskId);
    if (!task) throw notFound('task not found');
    if (this.shop.env.now() - task.createdAt < this.shop.env.taskDelayMs()) return { result: { status: 'in_progress', file_url: '', error: '' } };
    try {
      this.labelPostings(task.postings);
    } catch (error) {
      return { result: { status: 'error', file_url: '', error: error instanceof SimError ? error.message : 'error' } };
    }
    return { result: { status: 'completed', file_url: `${baseUrl}/assets/labels/${this.shop.clientId}/${taskId}.pdf`, error: '' } };
  }

  /** A new awaiting_packaging posting, made now or at the given time (the demo's own activity, ./live.ts). */
  addPosting(at = this.shop.env.now()) {
    const orderIndex = this.shop.orderCount + this.extras.length;
    const postingNumber = `${orderNumberOf(this.shop.clientId, orderIndex)}-1`;
    const r = randomFor(this.shop.seed, this.shop.clientId, 'new-posting', orderIndex);
    this.extras.push({
      postingNumber,
      orderIndex,
      inProcessAt: at,
      warehouseIndex: r.int(0, 7),
      // As the seeded postings: one in four holds several products, so the newest rows look like a real day's.
      lines: generatedLines(this.shop.seed, this.shop.clientId, orderIndex, this.shop.sellable.length),
    });
    this.extraByNumber.set(postingNumber, orderIndex);
    return { postingNumber };
  }

}
