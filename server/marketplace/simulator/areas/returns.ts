import type { returnsListResponseSchema } from '../../ozon/schemas';
import { DAY_MS, type PostingCore } from '../postings';
import { randomFor } from '../random';
import type { SimShop } from '../shop';
import type { Answer } from '../wire';
import { asStrings, checkLimit, iso, parseTime } from '../wire';


/** Ozon area "returns": /v1/returns/list, about 4% of delivered or cancelled postings, paged by last_id. */
export class ReturnsArea {
  private readonly shop: SimShop;

  constructor(shop: SimShop) {
    this.shop = shop;
  }

  // ---- returns: about 4% of delivered or cancelled postings came back.
  private returnAt(index: number) {
    if (index >= this.shop.orderCount) return undefined;
    if (randomFor(this.shop.seed, this.shop.clientId, 'return', index).next() >= 0.04) return undefined;
    const core = this.shop.areas.postings.core(index);
    if (core.status !== 'delivered' && core.status !== 'cancelled') return undefined;
    return core;
  }

  returnsList(body: Record<string, unknown>): Answer<typeof returnsListResponseSchema> {
    const limit = checkLimit(body.limit, 500);
    const filter = (body.filter ?? {}) as Record<string, unknown>;
    if (filter.return_schema === 'FBO') return { returns: [], has_next: false };
    const base = Number(this.shop.clientId) * 10_000_000;
    const numbers = asStrings(filter.posting_numbers);
    const range = (filter.logistic_return_date ?? filter.visual_status_change_moment) as { time_from?: string; time_to?: string } | undefined;
    let lo = 0;
    let hi = this.shop.orderCount - 1;
    if (range?.time_from || range?.time_to) {
      [lo, hi] = this.shop.areas.postings.indexRange(
        range.time_from ? parseTime(range.time_from, 'time_from') - 10 * DAY_MS : -Infinity,
        range.time_to ? parseTime(range.time_to, 'time_to') - 10 * DAY_MS : Infinity,
      );
    }
    const after = body.last_id ? Number(body.last_id) - base + 1 : 0;
    const candidates = numbers.length
      ? numbers.map((n) => this.shop.areas.postings.indexOf(n)).filter((i): i is number => i !== undefined && i >= Math.max(lo, after) && i <= hi).sort((a, b) => a - b)
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
        const p = this.shop.areas.postings.posting(core.index);
        const line = p.products[0]!;
        const returnedAt = core.inProcessAt + 10 * DAY_MS;
        const full = core.status === 'delivered';
        return {
          id: base + core.index,
          company_id: Number(this.shop.clientId),
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

}
