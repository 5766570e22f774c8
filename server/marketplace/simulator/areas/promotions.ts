import type { actionActivateResponseSchema, actionProductsResponseSchema, actionsResponseSchema } from '../../ozon/schemas';
import { badRequest, notFound } from '../errors';
import { DAY_MS } from '../postings';
import { fbsStock } from '../products';
import { randomFor } from '../random';
import type { SimShop } from '../shop';
import type { Answer } from '../wire';
import { asNumbers, checkLimit, iso } from '../wire';

type SimAction = { id: number; title: string; type: string; start: number; end: number; discount: number; candidates: number[]; participating: Map<number, number> };

/** Ozon area "promotions": /v1/actions, candidates, products, activate and deactivate. */
export class PromotionsArea {
  private readonly shop: SimShop;
  readonly actions: SimAction[] = [];

  constructor(shop: SimShop) {
    this.shop = shop;
    this.generateActions();
  }

  // ---- promotions
  private generateActions() {
    const r = randomFor(this.shop.seed, this.shop.clientId, 'actions');
    const titles = ['Распродажа 11.11', 'Весенние скидки', 'Товары дня', 'Эластичный бустинг'];
    const candidatesPool = this.shop.sellable.filter((p) => !p.archived && p.state === 'onSale');
    titles.forEach((title, i) => {
      const candidates = candidatesPool.filter(() => r.chance(0.3)).map((p) => p.id);
      const participating = new Map<number, number>();
      for (const id of candidates) if (r.chance(0.2)) participating.set(id, Math.round(this.shop.productById.get(id)!.price * 0.8));
      this.actions.push({
        id: Number(this.shop.clientId) * 100 + i + 1,
        title,
        type: i === 3 ? 'ELASTIC_BOOSTING' : 'DISCOUNT',
        start: this.shop.anchor - (10 - i * 3) * DAY_MS,
        end: this.shop.anchor + (20 + i * 5) * DAY_MS,
        discount: 10 + i * 5,
        candidates,
        participating,
      });
    });
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

  actionProducts(body: Record<string, unknown>, which: 'candidates' | 'products'): Answer<typeof actionProductsResponseSchema> {
    const action = this.requireAction(body.action_id);
    const limit = checkLimit(body.limit ?? 100, 1000);
    const ids = (which === 'products' ? [...action.participating.keys()] : action.candidates.filter((id) => !action.participating.has(id))).sort((a, b) => a - b);
    const after = body.last_id ? Number(body.last_id) : 0;
    const page = ids.filter((id) => id > after).slice(0, limit);
    return {
      result: {
        products: page.map((id) => {
          const p = this.shop.productById.get(id)!;
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

  actionActivate(body: Record<string, unknown>): Answer<typeof actionActivateResponseSchema> {
    const action = this.requireAction(body.action_id);
    const items = Array.isArray(body.products) ? (body.products as { product_id?: unknown; action_price?: unknown }[]) : [];
    if (items.length === 0) throw badRequest('products is required');
    const productIds: number[] = [];
    const rejected: { product_id: number; reason: string }[] = [];
    for (const item of items) {
      const id = Number(item.product_id);
      const p = this.shop.productById.get(id);
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

  actionDeactivate(body: Record<string, unknown>): Answer<typeof actionActivateResponseSchema> {
    const action = this.requireAction(body.action_id);
    const productIds: number[] = [];
    const rejected: { product_id: number; reason: string }[] = [];
    for (const id of asNumbers(body.product_ids)) {
      if (action.participating.delete(id)) productIds.push(id);
      else rejected.push({ product_id: id, reason: 'product is not in this action' });
    }
    return { result: { product_ids: productIds, rejected } };
  }

}
