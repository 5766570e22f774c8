import type { analyticsResponseSchema, financeTransactionListResponseSchema, productQueriesDetailsResponseSchema, productQueriesResponseSchema } from '../../ozon/schemas';
import { LEAF_TYPES } from '../catalog';
import type { SimProduct } from '../products';
import { badRequest } from '../errors';
import { DAY_MS, HISTORY_DAYS } from '../postings';
import { randomFor } from '../random';
import type { OzonRequest } from '../../ozon/versions';
import type { SimShop } from '../shop';
import type { Answer } from '../wire';
import { checkLimit, iso, parseTime } from '../wire';


/** Buyers' words added to a product word to make the queries that lead to it (a subset of the market's modifiers). */
const QUERY_MODIFIERS = ['купить', 'недорого', 'набор', 'черный', 'белый', 'с доставкой', 'оптом', 'подарок', 'оригинал', 'премиум', 'компактный', 'для дома'];
const QUERY_SORTS = { BY_SEARCHES: 'unique_search_users', BY_VIEWS: 'unique_view_users', BY_POSITION: 'position', BY_CONVERSION: 'view_conversion', BY_GMV: 'gmv' } as const;
type QueryFigures = { unique_search_users: number; unique_view_users: number; position: number; view_conversion: number; gmv: number; order_count: number };

/**
 * Ozon areas "analytics" and "finance": /v1/analytics/data and /v3/finance/transaction/list, derived from the
 * postings; /v1/analytics/product-queries and its details, the search queries behind each sellable SKU (its product
 * word alone, with buyers' modifiers, with its brand), as a Premium seller sees them (every field filled).
 */
export class AnalyticsArea {
  private readonly shop: SimShop;

  constructor(shop: SimShop) {
    this.shop = shop;
  }

  // ---- analytics and finance
  analytics(body: OzonRequest<'analyticsData'>): Answer<typeof analyticsResponseSchema> {
    const from = Date.parse(body.date_from);
    const to = Date.parse(body.date_to);
    if (Number.isNaN(from) || Number.isNaN(to) || to < from) throw badRequest('date_from and date_to are required');
    const dimensions = body.dimension;
    const metrics = body.metrics;
    if (dimensions.length === 0) throw badRequest('dimension is required');
    if (metrics.length === 0 || metrics.length > 14) throw badRequest('metrics must hold 1 to 14 metrics');
    const known = new Set(['sku', 'day', 'week', 'month']);
    const unknown = dimensions.find((d) => !known.has(d));
    if (unknown) throw badRequest(`dimension ${unknown} is not available`);
    const limit = checkLimit(body.limit, 1000);
    const offset = Number(body.offset ?? 0);
    const days: number[] = [];
    for (let t = Math.floor(from / DAY_MS) * DAY_MS; t <= to; t += DAY_MS) days.push(t);
    const skus = dimensions.includes('sku') ? this.shop.sellable.slice(0, 200) : [undefined];
    const byDay = dimensions.includes('day') ? days : [undefined];
    const perDay = this.shop.orderCount / HISTORY_DAYS;
    const rows: { dimensions: { id: string; name: string }[]; metrics: number[] }[] = [];
    for (const p of skus) {
      for (const day of byDay) {
        const r = randomFor(this.shop.seed, this.shop.clientId, 'analytics', p?.sku ?? 0, day ?? from, day ?? to);
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
    return { result: { data: rows.slice(offset, offset + limit), totals }, timestamp: iso(this.shop.env.now()) };
  }

  /** The queries of one SKU over `days` days, most searched first: the same SKU and period always give the same. */
  private queriesOf(p: SimProduct, days: number): (QueryFigures & { query: string })[] {
    const leaf = LEAF_TYPES.find((type) => type.typeId === p.typeId);
    const word = (leaf?.productWords.find((w) => p.name.startsWith(w)) ?? p.name.split(',')[0]!).toLowerCase();
    const r = randomFor(this.shop.seed, this.shop.clientId, 'queries', p.sku);
    const texts = new Set<string>([word]);
    const brand = p.attributes.find((attribute) => attribute.id === 85)?.values[0]?.value;
    if (brand && brand !== 'Нет бренда') texts.add(`${word} ${brand.toLowerCase()}`);
    if (leaf) texts.add(leaf.names.ru.toLowerCase());
    // 3 to 11 of the modifiers in a per-SKU order (shuffled, so never more than there are).
    const modifiers = [...QUERY_MODIFIERS];
    for (let i = modifiers.length - 1; i > 0; i--) {
      const j = r.int(0, i);
      [modifiers[i], modifiers[j]] = [modifiers[j]!, modifiers[i]!];
    }
    for (const modifier of modifiers.slice(0, r.int(3, modifiers.length - 1))) texts.add(`${word} ${modifier}`);
    const popularity = 5 + r.next() * 120;
    return [...texts].map((query, rank) => {
      const searches = Math.max(1, Math.round((popularity * days * (0.5 + r.next())) / (1 + rank * 0.8)));
      const views = Math.round(searches * (0.2 + r.next() * 0.5));
      const conversion = Math.round((0.5 + r.next() * 9) * 100) / 100;
      const orders = Math.floor((views * conversion) / 100);
      return { query, unique_search_users: searches, unique_view_users: views, position: Math.round((1 + r.next() * (20 + rank * 15)) * 10) / 10, view_conversion: conversion, order_count: orders, gmv: Math.round(orders * p.price * 100) / 100 };
    }).sort((a, b) => b.unique_search_users - a.unique_search_users);
  }

  /** The request's SKUs the shop sells, its period in days, and its sort, checked as Ozon checks them. */
  private queriesRequest(body: OzonRequest<'productQueries'> | OzonRequest<'productQueriesDetails'>, maxPageSize: number) {
    const from = parseTime(body.date_from, 'date_from');
    const to = body.date_to ? parseTime(body.date_to, 'date_to') : this.shop.env.now();
    if (to < from) throw badRequest('date_to must not be before date_from');
    if (body.skus.length === 0 || body.skus.length > 1000) throw badRequest('skus must hold 1 to 1000 SKUs');
    const pageSize = Number(body.page_size);
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > maxPageSize) throw badRequest(`page_size must be between 1 and ${maxPageSize}`);
    const page = Number(body.page ?? 0);
    if (!Number.isInteger(page) || page < 0) throw badRequest('page must be 0 or more');
    const wanted = new Set(body.skus.map(Number));
    const products = this.shop.sellable.filter((p) => wanted.has(p.sku));
    const key = QUERY_SORTS[body.sort_by ?? 'BY_SEARCHES'];
    const sign = body.sort_dir === 'ASCENDING' ? 1 : -1;
    const order = (a: Partial<QueryFigures>, b: Partial<QueryFigures>) => sign * ((a[key] ?? 0) - (b[key] ?? 0));
    const days = Math.max(1, Math.ceil((to - from) / DAY_MS));
    const period = { date_from: iso(from).slice(0, 10), date_to: iso(to).slice(0, 10) };
    return { products, days, order, page, pageSize, period };
  }

  productQueries(body: OzonRequest<'productQueries'>): Answer<typeof productQueriesResponseSchema> {
    const { products, days, order, page, pageSize, period } = this.queriesRequest(body, 1000);
    const items = products.map((p) => {
      const queries = this.queriesOf(p, days);
      const searches = queries.reduce((sum, q) => sum + q.unique_search_users, 0);
      const views = queries.reduce((sum, q) => sum + q.unique_view_users, 0);
      const orders = queries.reduce((sum, q) => sum + q.order_count, 0);
      return {
        sku: p.sku,
        offer_id: p.offerId,
        name: p.name,
        category: LEAF_TYPES.find((type) => type.typeId === p.typeId)?.names.ru ?? '',
        currency: 'RUB',
        gmv: Math.round(queries.reduce((sum, q) => sum + q.gmv, 0) * 100) / 100,
        unique_search_users: searches,
        unique_view_users: views,
        position: Math.round((queries.reduce((sum, q) => sum + q.position * q.unique_search_users, 0) / searches) * 10) / 10,
        view_conversion: views > 0 ? Math.round((orders / views) * 10_000) / 100 : 0,
      };
    }).sort(order);
    return { analytics_period: period, items: items.slice(page * pageSize, (page + 1) * pageSize), page_count: Math.ceil(items.length / pageSize), total: items.length };
  }

  productQueriesDetails(body: OzonRequest<'productQueriesDetails'>): Answer<typeof productQueriesDetailsResponseSchema> {
    const { products, days, order, page, pageSize, period } = this.queriesRequest(body, 100);
    const perSku = Number(body.limit_by_sku);
    if (!Number.isInteger(perSku) || perSku < 1 || perSku > 15) throw badRequest('limit_by_sku must be between 1 and 15');
    const rows = products.flatMap((p) => this.queriesOf(p, days).sort(order).slice(0, perSku).map((q) => ({ ...q, sku: p.sku, currency: 'RUB' }))).sort(order);
    const queries = rows.slice(page * pageSize, (page + 1) * pageSize).map((q, i) => ({ ...q, query_index: page * pageSize + i + 1 }));
    return { analytics_period: period, queries, page_count: Math.ceil(rows.length / pageSize), total: rows.length };
  }

  finance(body: OzonRequest<'financeTransactionList'>): Answer<typeof financeTransactionListResponseSchema> {
    const filter = body.filter;
    const postings = this.shop.areas.postings;
    // Ozon's filter takes a posting number, a period, or both: a posting alone is found whenever it was made.
    let [lo, hi] = [0, -1];
    if (filter?.date || !filter?.posting_number) {
      const from = parseTime(filter?.date?.from, 'filter.date.from');
      const to = parseTime(filter?.date?.to, 'filter.date.to');
      if (to - from > 32 * DAY_MS) throw badRequest('the period must not exceed one month');
      [lo, hi] = postings.indexRange(from, to);
    }
    if (filter?.posting_number) {
      const i = postings.indexOf(filter.posting_number);
      const found = i !== undefined && (!filter.date || (i >= lo && i <= hi));
      [lo, hi] = found ? [i, i] : [1, 0];
    }
    const page = Number(body.page);
    const pageSize = Number(body.page_size);
    if (!Number.isInteger(page) || page < 1) throw badRequest('page must be 1 or more');
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) throw badRequest('page_size must be between 1 and 1000');
    const count = Math.max(0, hi - lo + 1);
    const first = lo + (page - 1) * pageSize;
    const operations = [];
    for (let i = first; i <= Math.min(hi, first + pageSize - 1); i++) {
      const p = this.shop.areas.postings.posting(i);
      const core = this.shop.areas.postings.core(i);
      const sale = p.products.reduce((sum, x) => sum + x.price.amount * x.quantity, 0);
      // As the posting stands: a delivered one is paid out (sale less commission and delivery), a cancelled one
      // costs its return delivery, one still on its way has only its processing fee booked so far.
      const kind = core.status === 'cancelled' ? 'cancelled' : core.status === 'delivered' ? 'delivered' : 'open';
      const commission = kind === 'delivered' ? -Math.round(sale * 0.18 * 100) / 100 : 0;
      const delivery = -Math.round((30 + (p.products[0]?.weight ?? 100) * 0.1) * 100) / 100;
      const processing = -Math.round(sale * 0.01 * 100) / 100;
      operations.push({
        operation_id: Number(this.shop.clientId) * 10_000_000 + i,
        operation_type: { cancelled: 'OperationReturnGoodsFBSofRMS', delivered: 'OperationAgentDeliveredToCustomer', open: 'MarketplaceServiceItemFulfillment' }[kind],
        operation_type_name: { cancelled: 'Возврат', delivered: 'Доставка покупателю', open: 'Обработка отправления' }[kind],
        operation_date: iso(core.inProcessAt).replace('T', ' ').slice(0, 19),
        amount: Math.round(({ cancelled: delivery, delivered: sale + commission + delivery, open: processing }[kind]) * 100) / 100,
        accruals_for_sale: kind === 'delivered' ? sale : 0,
        sale_commission: commission,
        delivery_charge: kind === 'delivered' ? delivery : 0,
        return_delivery_charge: kind === 'cancelled' ? delivery : 0,
        type: { cancelled: 'returns', delivered: 'orders', open: 'services' }[kind],
        posting: { delivery_schema: 'FBS', order_date: p.in_process_at, posting_number: p.posting_number, warehouse_id: p.delivery_method.warehouse_id },
        items: p.products.map((x) => ({ name: x.name, sku: x.sku })),
        services: kind === 'open' ? [{ name: 'MarketplaceServiceItemFulfillment', price: processing }] : [],
      });
    }
    return { result: { operations, page_count: Math.ceil(count / pageSize), row_count: count } };
  }
}
