import type { itemResultsResponseSchema, productPricesResponseSchema, productStocksResponseSchema } from '../../ozon/schemas';
import { badRequest } from '../errors';
import { fbsStock } from '../products';
import type { OzonRequest } from '../../ozon/versions';
import type { SimShop } from '../shop';
import type { Answer } from '../wire';
import { checkLimit, decodeCursor, encodeCursor } from '../wire';

const PRICE_CHANGES_PER_HOUR = 10;
const STOCK_PAIR_INTERVAL_MS = 30_000;

/**
 * Ozon area "prices and stocks": /v5/product/info/prices, /v1/product/import/prices (the required gap to old_price,
 * ten changes an hour), /v2/products/stocks (one update per product and warehouse every 30 s) and /v4/product/info/stocks.
 */
export class PricesStocksArea {
  private readonly shop: SimShop;
  readonly priceChanges = new Map<number, number[]>();
  readonly stockUpdates = new Map<string, number>();

  constructor(shop: SimShop) {
    this.shop = shop;
  }

  private cursorPage(body: OzonRequest<'productInfoPrices' | 'productInfoStocks'>) {
    const limit = checkLimit(body.limit, 1000);
    const list = this.shop.filterProducts(body.filter);
    const from = decodeCursor<{ o: number }>(body.cursor)?.o ?? 0;
    const page = list.slice(from, from + limit);
    return { page, total: list.length, cursor: from + limit < list.length ? encodeCursor({ o: from + limit }) : '' };
  }

  prices(body: OzonRequest<'productInfoPrices'>): Answer<typeof productPricesResponseSchema> {
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

  importPrices(body: OzonRequest<'productImportPrices'>): Answer<typeof itemResultsResponseSchema> {
    const items = body.prices ?? [];
    if (items.length === 0 || items.length > 1000) throw badRequest('prices must hold 1 to 1000 items');
    const now = this.shop.env.now();
    return {
      result: items.map((item) => {
        // offer_id wins when both are given (swagger).
        const p = item.offer_id ? this.shop.productByOffer.get(String(item.offer_id)) : this.shop.productById.get(Number(item.product_id));
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

  updateStocks(body: OzonRequest<'productsStocks'>): Answer<typeof itemResultsResponseSchema> {
    const items = body.stocks;
    if (items.length === 0 || items.length > 100) throw badRequest('stocks must hold 1 to 100 items');
    const now = this.shop.env.now();
    return {
      result: items.map((item) => {
        const p = item.product_id ? this.shop.productById.get(Number(item.product_id)) : this.shop.productByOffer.get(String(item.offer_id ?? ''));
        const warehouseId = Number(item.warehouse_id);
        const ids = { offer_id: String(item.offer_id ?? p?.offerId ?? ''), product_id: p?.id ?? Number(item.product_id ?? 0), warehouse_id: warehouseId };
        const fail = (code: string, message: string) => ({ ...ids, updated: false, errors: [{ code, message }] });
        if (!p) return fail('offer_id_not_found', 'product not found');
        this.shop.settle(p);
        if (p.state === 'moderating' || p.state === 'failed') return fail('product_is_not_created', 'product is not created yet');
        if (!this.shop.warehouses.some((w) => w.id === warehouseId)) return fail('WAREHOUSE_NOT_FOUND', 'warehouse not found');
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

  stocks(body: OzonRequest<'productInfoStocks'>): Answer<typeof productStocksResponseSchema> {
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

}
