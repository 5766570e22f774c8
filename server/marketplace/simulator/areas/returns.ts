import type { rfbsReturnGetResponseSchema, rfbsReturnsListResponseSchema, returnsListResponseSchema } from '../../ozon/schemas';
import { badRequest, notFound, SimError } from '../errors';
import { DAY_MS, type PostingCore } from '../postings';
import { randomFor } from '../random';
import type { OzonRequest } from '../../ozon/versions';
import type { SimShop } from '../shop';
import type { Answer } from '../wire';
import { checkLimit, iso, parseTime, setBounded } from '../wire';

/**
 * Ozon area "returns":
 * - /v1/returns/list: FBS returns (about 4% of delivered or cancelled postings that left an FBS warehouse) and FBO
 *   returns (from Ozon's own warehouses, about 1.5 per 100 postings, numbered apart from FBS postings), paged by id;
 * - /v2/returns/rfbs/*: return requests of rFBS postings (delivered from the shop's rFBS warehouse; about 15% come
 *   back) and the seller's decisions on them, with Ozon's state rules (which action each state allows).
 *
 * Ids: FBS `clientId·10⁷ + posting index`, FBO `clientId·10⁷ + 9·10⁶ + k`, rFBS `clientId·10⁷ + 5·10⁶ + posting index`.
 */

const FBS_REASONS = ['Не подошел размер', 'Товар бракованный', 'Не соответствует описанию', 'Передумал покупать', 'Товар повреждён при доставке', 'Пришёл не тот товар'] as const;
const CANCEL_REASONS = ['Покупатель отменил заказ', 'Покупатель не забрал заказ', 'Отказ при получении'] as const;

/** Visual statuses of FBS and FBO returns (a subset of Ozon's visual_status_name values). */
const VISUAL = {
  MovingToSeller: { id: 1, display_name: 'Возврат в пути к продавцу', sys_name: 'MovingToSeller' },
  ArrivedAtReturnPlace: { id: 2, display_name: 'В пункте выдачи', sys_name: 'ArrivedAtReturnPlace' },
  ReceivedBySeller: { id: 3, display_name: 'Продавец получил возврат', sys_name: 'ReceivedBySeller' },
  ReturnCompensated: { id: 4, display_name: 'Продавец получил компенсацию', sys_name: 'ReturnCompensated' },
  Utilized: { id: 5, display_name: 'Утилизирован', sys_name: 'Utilized' },
  MovingToOzon: { id: 6, display_name: 'Едет на склад Ozon', sys_name: 'MovingToOzon' },
  ReturnedToOzon: { id: 7, display_name: 'На складе Ozon', sys_name: 'ReturnedToOzon' },
} as const;

/** rFBS request states: Ozon's state, its Russian name and the group `group_state` filters by. */
export const RFBS_STATES = {
  OnSellerApproval: { name: 'На согласовании у продавца', group: 'New' },
  Approved: { name: 'Заявка одобрена продавцом', group: 'Delivering' },
  ReceivedBySeller: { name: 'Продавец получил возврат', group: 'Checkout' },
  DisputeOpened: { name: 'Открыт спор с покупателем', group: 'Arbitration' },
  MoneyReturned: { name: 'Покупателю вернули всю сумму', group: 'Approved' },
  PartialCompensationReturned: { name: 'Вернули часть денег', group: 'Approved' },
  Rejected: { name: 'Заявка отклонена', group: 'Rejected' },
} as const;
export type RfbsState = keyof typeof RFBS_STATES;

/**
 * The seller's decisions, their ids in `available_actions` and /v1/returns/rfbs/action/set, and the states each is
 * allowed in. The official file names three ids: -1 and -10 take a rejection reason and a comment (a request
 * rejected, a returned product rejected after its check), 1020 a compensation amount; the others are ours.
 */
export const RFBS_ACTIONS = {
  verify: { id: 1, name: 'Одобрить заявку', from: ['OnSellerApproval'] },
  reject: { id: -1, name: 'Отклонить заявку', from: ['OnSellerApproval'] },
  rejectAfterCheck: { id: -10, name: 'Отклонить заявку', from: ['ReceivedBySeller'] },
  compensate: { id: 1020, name: 'Вернуть часть стоимости', from: ['OnSellerApproval', 'ReceivedBySeller'] },
  returnMoney: { id: 4, name: 'Вернуть деньги', from: ['OnSellerApproval', 'ReceivedBySeller'] },
  receiveReturn: { id: 5, name: 'Подтвердить получение', from: ['Approved'] },
} as const satisfies Record<string, { id: number; name: string; from: readonly RfbsState[] }>;
type RfbsAction = keyof typeof RFBS_ACTIONS;

export const RFBS_REJECTION_REASONS = [
  { id: 101, name: 'Товар был в употреблении', hint: 'Приложите фото следов использования', is_comment_required: false },
  { id: 102, name: 'Истёк срок возврата', hint: 'Срок возврата — 7 дней после получения', is_comment_required: false },
  { id: 103, name: 'Другое', hint: 'Опишите причину для покупателя', is_comment_required: true },
] as const;

const RFBS_RETURN_REASONS = [
  { id: 1, name: 'Товар бракованный', is_defect: true },
  { id: 2, name: 'Не подошел размер', is_defect: false },
  { id: 3, name: 'Не соответствует описанию', is_defect: false },
  { id: 4, name: 'Передумал покупать', is_defect: false },
  { id: 5, name: 'Товар повреждён при доставке', is_defect: true },
] as const;

const FBS_ID_BASE = 0;
const RFBS_ID_BASE = 5_000_000;
const FBO_ID_BASE = 9_000_000;
/** rFBS requests a shop keeps decisions for (the generated ones are recomputed; only decided ones are stored). */
const RFBS_DECISIONS_KEPT = 20_000;

type RfbsDecision = {
  state: RfbsState;
  changedAt: number;
  moneyReturnState: string;
  rejectionComment?: string;
  compensation?: number;
  returnMethod?: string;
};

type RfbsRequest = {
  id: number;
  index: number;
  createdAt: number;
  state: RfbsState;
  changedAt: number;
  moneyReturnState: string;
  reason: (typeof RFBS_RETURN_REASONS)[number];
  comment: string;
  photos: number;
  clientName: string;
  rejectionComment: string;
  returnMethod: string;
};

const money = (amount: number) => Math.round(amount * 100) / 100;

export class ReturnsArea {
  private readonly shop: SimShop;
  private readonly decisions = new Map<number, RfbsDecision>();

  constructor(shop: SimShop) {
    this.shop = shop;
  }

  private get base() {
    return Number(this.shop.clientId) * 10_000_000;
  }
  private get fboCount() {
    return Math.floor(this.shop.orderCount * 0.015);
  }
  private isRfbs(core: PostingCore) {
    return this.shop.areas.postings.warehouseOf(core).isRfbs;
  }

  // ---- FBS returns: about 4% of delivered or cancelled FBS postings came back, ten days after they were made.
  private fbsReturnAt(index: number) {
    if (index >= this.shop.orderCount) return undefined;
    if (randomFor(this.shop.seed, this.shop.clientId, 'return', index).next() >= 0.04) return undefined;
    const core = this.shop.areas.postings.core(index);
    if (core.status !== 'delivered' && core.status !== 'cancelled') return undefined;
    if (this.isRfbs(core) || core.inProcessAt + 10 * DAY_MS > this.shop.anchor) return undefined;
    return core;
  }

  private fbsReturn(core: PostingCore) {
    const p = this.shop.areas.postings.posting(core.index);
    const r = randomFor(this.shop.seed, this.shop.clientId, 'return-detail', core.index);
    const line = p.products[r.int(0, p.products.length - 1)]!;
    const returnedAt = core.inProcessAt + 10 * DAY_MS;
    const full = core.status === 'delivered';
    const age = this.shop.anchor - returnedAt;
    const visual =
      age < 3 * DAY_MS ? VISUAL.MovingToSeller : age < 10 * DAY_MS ? VISUAL.ArrivedAtReturnPlace : r.chance(0.8) ? VISUAL.ReceivedBySeller : r.chance(0.5) ? VISUAL.ReturnCompensated : VISUAL.Utilized;
    const changedAt = returnedAt + (visual === VISUAL.MovingToSeller ? 0 : Math.min(age, (visual === VISUAL.ArrivedAtReturnPlace ? 3 : 11) * DAY_MS));
    const quantity = full && line.quantity > 1 && r.chance(0.3) ? r.int(1, line.quantity - 1) : line.quantity;
    const arrived = visual !== VISUAL.MovingToSeller;
    return this.v1Return({
      id: this.base + FBS_ID_BASE + core.index,
      schema: 'Fbs',
      type: full ? (quantity < line.quantity ? 'PartialReturn' : r.chance(0.5) ? 'ClientReturn' : 'FullReturn') : 'Cancellation',
      reason: full ? r.pick(FBS_REASONS) : r.pick(CANCEL_REASONS),
      orderId: p.order_id,
      orderNumber: p.order_number,
      postingNumber: p.posting_number,
      line: { sku: line.sku, offerId: line.offer_id, name: line.name, price: line.price.amount, currency: line.price.currency, quantity },
      place: { id: 1, name: 'ПВЗ Москва, Тверская 7', address: 'Москва, ул. Тверская, 7' },
      target: { id: p.delivery_method.warehouse_id, name: p.delivery_method.warehouse, address: '' },
      returnedAt,
      visual,
      changedAt,
      arrivedAt: arrived ? returnedAt + 3 * DAY_MS : undefined,
      opened: full && r.chance(0.6),
      index: core.index,
    });
  }

  // ---- FBO returns: from Ozon's warehouses; their postings are not FBS postings (number block 9·10⁶ and up).
  private fboReturn(k: number) {
    const r = randomFor(this.shop.seed, this.shop.clientId, 'fbo-return', k);
    const returnedAt = Math.floor(this.shop.start + ((k + 0.5) * (this.shop.anchor - this.shop.start)) / Math.max(1, this.fboCount));
    const product = this.shop.sellable[r.int(0, this.shop.sellable.length - 1)]!;
    const orderIndex = FBO_ID_BASE + k;
    const orderNumber = `${this.shop.clientId}${orderIndex}-0001`;
    const age = this.shop.anchor - returnedAt;
    const visual = age < 4 * DAY_MS ? VISUAL.MovingToOzon : r.chance(0.9) ? VISUAL.ReturnedToOzon : VISUAL.Utilized;
    return this.v1Return({
      id: this.base + FBO_ID_BASE + k,
      schema: 'Fbo',
      type: 'ClientReturn',
      reason: r.pick(FBS_REASONS),
      orderId: this.base + orderIndex,
      orderNumber,
      postingNumber: `${orderNumber}-1`,
      line: { sku: product.sku, offerId: product.offerId, name: product.name, price: product.price, currency: product.currency, quantity: 1 },
      place: { id: 3, name: 'ПВЗ Санкт-Петербург, Невский 30', address: 'Санкт-Петербург, Невский пр., 30' },
      target: { id: 15431806189000, name: 'Хоругвино РФЦ', address: 'Московская обл., Солнечногорск, д. Хоругвино' },
      returnedAt,
      visual,
      changedAt: returnedAt + (visual === VISUAL.MovingToOzon ? 0 : Math.min(age, 4 * DAY_MS)),
      arrivedAt: visual === VISUAL.MovingToOzon ? undefined : returnedAt + 4 * DAY_MS,
      opened: r.chance(0.5),
      index: orderIndex,
    });
  }

  private v1Return(x: {
    id: number;
    schema: 'Fbs' | 'Fbo';
    type: string;
    reason: string;
    orderId: number;
    orderNumber: string;
    postingNumber: string;
    line: { sku: number; offerId: string; name: string; price: number; currency: string; quantity: number };
    place: { id: number; name: string; address: string };
    target: { id: number; name: string; address: string };
    returnedAt: number;
    visual: (typeof VISUAL)[keyof typeof VISUAL];
    changedAt: number;
    arrivedAt: number | undefined;
    opened: boolean;
    index: number;
  }) {
    const { line } = x;
    const price = money(line.price * line.quantity);
    const waiting = x.visual === VISUAL.ArrivedAtReturnPlace && x.arrivedAt !== undefined;
    const days = waiting ? Math.floor((this.shop.anchor - x.arrivedAt!) / DAY_MS) : 0;
    return {
      id: x.id,
      company_id: Number(this.shop.clientId),
      return_reason_name: x.reason,
      type: x.type,
      schema: x.schema,
      order_id: x.orderId,
      order_number: x.orderNumber,
      posting_number: x.postingNumber,
      place: x.place,
      target_place: x.target,
      storage: waiting
        ? {
            sum: { currency_code: line.currency, price: days > 7 ? money((days - 7) * 15) : 0 },
            tariffication_first_date: iso(x.arrivedAt! + 7 * DAY_MS),
            tariffication_start_date: iso(x.arrivedAt! + 7 * DAY_MS),
            arrived_moment: iso(x.arrivedAt!),
            days,
            utilization_sum: { currency_code: line.currency, price: 0 },
            utilization_forecast_date: iso(x.arrivedAt! + 30 * DAY_MS),
          }
        : null,
      product: {
        sku: line.sku,
        offer_id: line.offerId,
        name: line.name,
        price: { currency_code: line.currency, price },
        price_without_commission: { currency_code: line.currency, price: money(price * 0.82) },
        commission_percent: 18,
        commission: { currency_code: line.currency, price: money(price * 0.18) },
        quantity: line.quantity,
      },
      logistic: {
        technical_return_moment: iso(x.returnedAt),
        final_moment: x.arrivedAt !== undefined && x.visual !== VISUAL.ArrivedAtReturnPlace ? iso(x.changedAt) : '',
        cancelled_with_compensation_moment: x.visual === VISUAL.ReturnCompensated ? iso(x.changedAt) : '',
        return_date: iso(x.returnedAt),
        barcode: `ii${x.index}`,
      },
      visual: { status: x.visual, change_moment: iso(x.changedAt) },
      additional_info: { is_opened: x.opened, is_super_econom: false },
      source_id: x.index,
      clearing_id: 0,
      return_clearing_id: 0,
      exemplars: [{ id: x.id }],
    };
  }

  returnsList(body: OzonRequest<'returnsList'>): Answer<typeof returnsListResponseSchema> {
    const limit = checkLimit(body.limit, 500);
    const filter = body.filter ?? {};
    const ranges = [filter.logistic_return_date, filter.storage_tariffication_start_date, filter.visual_status_change_moment].filter((r) => r !== undefined);
    if (ranges.length > 1) throw badRequest('use only one of logistic_return_date, storage_tariffication_start_date, visual_status_change_moment');
    const numbers = filter.posting_numbers ?? [];
    if (numbers.length > 50) throw badRequest('posting_numbers: at most 50');
    const range = filter.logistic_return_date ?? filter.visual_status_change_moment;
    const from = range?.time_from ? parseTime(range.time_from, 'time_from') : -Infinity;
    const to = range?.time_to ? parseTime(range.time_to, 'time_to') : Infinity;
    const schema = filter.return_schema?.toUpperCase();
    const offerId = filter.offer_id || undefined;
    const productName = filter.product_name?.toLowerCase() || undefined;
    const visualName = filter.visual_status_name || undefined;
    const orderId = filter.order_id !== undefined ? Number(filter.order_id) : undefined;
    const after = body.last_id !== undefined ? Number(body.last_id) - this.base + 1 : 0;

    type Item = ReturnType<ReturnsArea['fbsReturn']>;
    const found: Item[] = [];
    let hasNext = false;
    const matches = (item: Item) =>
      (!offerId || item.product.offer_id === offerId) &&
      (!productName || item.product.name.toLowerCase().includes(productName)) &&
      (!visualName || item.visual.status.sys_name === visualName) &&
      (orderId === undefined || item.order_id === orderId) &&
      (!numbers.length || numbers.includes(item.posting_number)) &&
      (range === undefined || (Date.parse(filter.visual_status_change_moment ? item.visual.change_moment : item.logistic.return_date) >= from &&
        Date.parse(filter.visual_status_change_moment ? item.visual.change_moment : item.logistic.return_date) <= to));
    /** false once the page is full (and one more was found). */
    const offer = (item: Item | undefined) => {
      if (!item || !matches(item)) return true;
      if (found.length === limit) {
        hasNext = true;
        return false;
      }
      found.push(item);
      return true;
    };
    if (schema !== 'FBO') {
      let lo = Math.max(0, after - FBS_ID_BASE);
      let hi = this.shop.orderCount - 1;
      if (filter.logistic_return_date && (range?.time_from || range?.time_to)) {
        const [a, b] = this.shop.areas.postings.indexRange(from - 10 * DAY_MS, to - 10 * DAY_MS);
        lo = Math.max(lo, a);
        hi = Math.min(hi, b);
      }
      const candidates = numbers.length
        ? numbers.map((n) => this.shop.areas.postings.indexOf(n)).filter((i): i is number => i !== undefined && i >= lo && i <= hi).sort((a, b) => a - b)
        : undefined;
      const visit = (i: number) => {
        const core = this.fbsReturnAt(i);
        return offer(core && this.fbsReturn(core));
      };
      let open = true;
      if (candidates) {
        for (const i of candidates) if (!(open = visit(i))) break;
      } else {
        for (let i = lo; i <= hi; i++) if (!(open = visit(i))) break;
      }
      if (!open) return { returns: found, has_next: hasNext };
    }
    if (schema !== 'FBS') {
      for (let k = Math.max(0, after - FBO_ID_BASE); k < this.fboCount; k++) if (!offer(this.fboReturn(k))) break;
    }
    return { returns: found, has_next: hasNext };
  }

  // ---- rFBS return requests
  private rfbsAt(index: number): RfbsRequest | undefined {
    if (index >= this.shop.orderCount) return undefined;
    const r = randomFor(this.shop.seed, this.shop.clientId, 'rfbs-return', index);
    if (r.next() >= 0.15) return undefined;
    const core = this.shop.areas.postings.core(index);
    if (core.status !== 'delivered' || !this.isRfbs(core)) return undefined;
    const createdAt = core.lastChangedAt + r.int(1, 6) * DAY_MS + r.int(0, 23) * 3_600_000;
    if (createdAt > this.shop.anchor) return undefined;
    const age = this.shop.anchor - createdAt;
    const roll = r.next();
    const generated: RfbsState =
      age < 3 * DAY_MS
        ? 'OnSellerApproval'
        : age < 8 * DAY_MS
          ? roll < 0.4 ? 'OnSellerApproval' : roll < 0.75 ? 'Approved' : 'ReceivedBySeller'
          : roll < 0.55 ? 'MoneyReturned' : roll < 0.75 ? 'Rejected' : roll < 0.9 ? 'PartialCompensationReturned' : 'DisputeOpened';
    const reason = r.pick(RFBS_RETURN_REASONS);
    const comment = r.pick(['Размер маломерит, нужен на размер больше', 'Не включается после зарядки', 'Цвет отличается от фото', 'Коробка пришла помятая', '']);
    const photos = reason.is_defect || r.chance(0.3) ? r.int(1, 3) : 0;
    const clientName = r.pick(['Иван П.', 'Анна С.', 'Дмитрий К.', 'Ольга М.', 'Сергей В.']);
    const generatedChange = generated === 'OnSellerApproval' ? createdAt : Math.min(this.shop.anchor, createdAt + r.int(1, 3) * DAY_MS);
    const decided = this.decisions.get(index);
    const state = decided?.state ?? generated;
    const moneyReturnState =
      decided?.moneyReturnState ?? (generated === 'MoneyReturned' ? 'Деньги возвращены' : generated === 'PartialCompensationReturned' ? 'Частичная компенсация выплачена' : '');
    return {
      id: this.base + RFBS_ID_BASE + index,
      index,
      createdAt,
      state,
      changedAt: decided?.changedAt ?? generatedChange,
      moneyReturnState,
      reason,
      comment,
      photos,
      clientName,
      rejectionComment: decided?.rejectionComment ?? (generated === 'Rejected' ? 'Товар был в употреблении' : ''),
      returnMethod: decided?.returnMethod ?? (state === 'OnSellerApproval' ? '' : 'Почта России'),
    };
  }

  private rfbsProduct(index: number) {
    const p = this.shop.areas.postings.posting(index);
    const line = p.products[0]!;
    return {
      posting: p,
      product: { name: line.name, offer_id: line.offer_id, currency_code: line.price.currency, price: String(line.price.amount), sku: line.sku },
    };
  }

  private requireRfbs(returnId: unknown): RfbsRequest {
    const index = Number(returnId) - this.base - RFBS_ID_BASE;
    const request = Number.isInteger(index) && index >= 0 ? this.rfbsAt(index) : undefined;
    if (!request) throw notFound('return not found');
    return request;
  }

  rfbsList(body: OzonRequest<'rfbsReturnsList'>): Answer<typeof rfbsReturnsListResponseSchema> {
    const limit = checkLimit(body.limit, 1000);
    const filter = body.filter ?? {};
    const groups = (filter.group_state ?? []).filter((g) => g !== 'All');
    const postingNumber = filter.posting_number || undefined;
    const offerId = filter.offer_id || undefined;
    const created = filter.created_at ?? {};
    const from = created.from ? parseTime(created.from, 'created_at.from') : -Infinity;
    const to = created.to ? parseTime(created.to, 'created_at.to') : Infinity;
    const after = body.last_id ? Number(body.last_id) - this.base - RFBS_ID_BASE + 1 : 0;
    const indices = postingNumber ? [this.shop.areas.postings.indexOf(postingNumber)].filter((i): i is number => i !== undefined && i >= after) : undefined;
    const out: Answer<typeof rfbsReturnsListResponseSchema>['returns'] = [];
    const visit = (i: number) => {
      const request = this.rfbsAt(i);
      if (!request || request.createdAt < from || request.createdAt > to) return;
      if (groups.length && !groups.includes(RFBS_STATES[request.state].group)) return;
      const { posting, product } = this.rfbsProduct(i);
      if (offerId && product.offer_id !== offerId) return;
      out.push({
        client_name: request.clientName,
        created_at: iso(request.createdAt),
        order_number: posting.order_number,
        posting_number: posting.posting_number,
        product,
        return_id: request.id,
        return_number: `${posting.posting_number}-R1`,
        state: { group_state: RFBS_STATES[request.state].group, money_return_state_name: request.moneyReturnState, state: request.state, state_name: RFBS_STATES[request.state].name },
      });
    };
    if (indices) for (const i of indices) visit(i);
    else for (let i = after; i < this.shop.orderCount && out.length < limit; i++) visit(i);
    return { returns: out };
  }

  rfbsGet(body: OzonRequest<'rfbsReturnGet'>, baseUrl: string): Answer<typeof rfbsReturnGetResponseSchema> {
    const request = this.requireRfbs(body.return_id);
    const { posting, product } = this.rfbsProduct(request.index);
    const allowed = (Object.keys(RFBS_ACTIONS) as RfbsAction[]).filter((a) => (RFBS_ACTIONS[a].from as readonly RfbsState[]).includes(request.state));
    return {
      returns: {
        available_actions: allowed.map((a) => ({ id: RFBS_ACTIONS[a].id, name: RFBS_ACTIONS[a].name })),
        client_name: request.clientName,
        client_photo: Array.from({ length: request.photos }, (_, k) => `${baseUrl}/assets/img/return-${request.id}-${k}.png`),
        client_return_method_type: { id: 1, name: 'Почтой' },
        comment: request.comment,
        created_at: iso(request.createdAt),
        order_number: posting.order_number,
        posting_number: posting.posting_number,
        product,
        rejection_comment: request.rejectionComment,
        rejection_reason: allowed.includes('reject') || allowed.includes('rejectAfterCheck') ? RFBS_REJECTION_REASONS.map((r) => ({ ...r })) : [],
        return_method_description: request.returnMethod,
        return_number: `${posting.posting_number}-R1`,
        return_reason: { ...request.reason },
        ru_post_tracking_number: request.state === 'OnSellerApproval' ? '' : `RA${String(request.index).padStart(9, '0')}RU`,
        state: { state: request.state, state_name: RFBS_STATES[request.state].name },
        warehouse_id: posting.delivery_method.warehouse_id,
      },
    };
  }

  /** Applies one decision, or refuses it as Ozon does when the request's state does not allow it. */
  private decide(action: RfbsAction, returnId: unknown, change: Omit<RfbsDecision, 'changedAt'>) {
    const request = this.requireRfbs(returnId);
    if (!(RFBS_ACTIONS[action].from as readonly RfbsState[]).includes(request.state)) {
      throw new SimError(400, `action ${action} is not available for a return in state ${request.state}`, 9);
    }
    setBounded(this.decisions, request.index, { ...change, changedAt: this.shop.env.now() }, RFBS_DECISIONS_KEPT);
    return {};
  }

  /** /v1/returns/rfbs/action/set: the decision whose id `body.id` is, with what that decision needs. */
  rfbsActionSet(body: OzonRequest<'rfbsReturnActionSet'>) {
    const action = (Object.keys(RFBS_ACTIONS) as RfbsAction[]).find((a) => RFBS_ACTIONS[a].id === Number(body.id));
    if (!action) throw badRequest(`id: unknown action ${String(body.id)}`);
    const comment = body.comment?.trim() ?? '';
    switch (action) {
      case 'verify':
        return this.decide(action, body.return_id, { state: 'Approved', moneyReturnState: '', returnMethod: comment || 'Почта России' });
      case 'receiveReturn':
        return this.decide(action, body.return_id, { state: 'ReceivedBySeller', moneyReturnState: '', returnMethod: this.requireRfbs(body.return_id).returnMethod });
      case 'reject':
      case 'rejectAfterCheck': {
        const reason = RFBS_REJECTION_REASONS.find((r) => r.id === Number(body.rejection_reason_id));
        if (!reason) throw badRequest('rejection_reason_id: unknown rejection reason');
        if (!comment) throw badRequest(`comment is required for action ${RFBS_ACTIONS[action].id}`);
        return this.decide(action, body.return_id, { state: 'Rejected', moneyReturnState: '', rejectionComment: comment });
      }
      case 'compensate': {
        const request = this.requireRfbs(body.return_id);
        const amount = Number(body.compensation_amount);
        const price = Number(this.rfbsProduct(request.index).product.price);
        if (!Number.isFinite(amount) || amount <= 0 || amount >= price) throw badRequest('compensation_amount must be more than 0 and less than the product price');
        return this.decide(action, body.return_id, { state: 'PartialCompensationReturned', moneyReturnState: 'Частичная компенсация выплачена', compensation: amount });
      }
      case 'returnMoney':
        if (body.return_for_back_way !== undefined && !(Number(body.return_for_back_way) >= 0)) throw badRequest('return_for_back_way must not be negative');
        return this.decide(action, body.return_id, { state: 'MoneyReturned', moneyReturnState: 'Деньги возвращены' });
    }
  }
}
