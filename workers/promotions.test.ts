import { PROMOTION_ENDPOINTS as E, type ActionProductRow, type ProductOutcomes } from '../contract/promotions';
import type { HttpClient } from './http/client';
import { createPromotionsApi } from './promotions';

const ref = { storeId: 1, actionId: 7 };
const product = (productId: number, actionPrice: number): ActionProductRow => ({
  productId,
  offerId: `offer-${productId}`,
  name: `product ${productId}`,
  price: 1000,
  actionPrice,
  maxActionPrice: 800,
  stock: 5,
  addMode: actionPrice ? 'MANUAL' : 'NOT_SET',
  cost: 500,
  floor: 600,
  marginPercent: null,
});

/** A server that holds one action's products 1–2 and candidates 3–5, and takes every product but 5. */
function fakeServer() {
  const calls: string[] = [];
  const refuseFive = (ids: number[]): ProductOutcomes => ({ outcomes: ids.map((productId) => ({ productId, ok: productId !== 5, reason: productId === 5 ? 'Ozon refused' : null })) });
  const client = {
    call: async (endpoint: { path: string }, input: { products?: { productId: number }[]; productIds?: number[] }) => {
      calls.push(endpoint.path);
      if (endpoint === E.actionProducts) return { rows: [product(1, 700), product(2, 650)], total: 2, truncated: false };
      if (endpoint === E.actionCandidates) return { rows: [product(3, 0), product(4, 0), product(5, 0)], total: 3, truncated: false };
      if (endpoint === E.actionAdd) return refuseFive(input.products!.map((p) => p.productId));
      if (endpoint === E.actionRemove) return refuseFive(input.productIds!);
      throw new Error(`unexpected ${endpoint.path}`);
    },
  } as unknown as HttpClient;
  return { client, calls };
}

async function ids(api: ReturnType<typeof createPromotionsApi>, view: 'products' | 'candidates') {
  const result = await api.queryProducts(view, { sort: { column: 'offerId', direction: 'asc' } });
  if (result.status !== 'done') throw new Error('superseded');
  return (await api.windowProducts(view, result.handle, 0, 100)).rows.map((r) => [r.productId, r.actionPrice, r.addMode, r.guard]);
}

describe('promotions worker: adds and removals write back to the held lists', () => {
  it('moves the products Ozon took between the views at once, with their action price and guard state', async () => {
    const { client, calls } = fakeServer();
    const api = createPromotionsApi(client);
    await api.openProducts('products', ref);
    await api.openProducts('candidates', ref);
    await api.add({ ...ref, products: [{ productId: 3, actionPrice: 550 }, { productId: 5, actionPrice: 700 }] });
    expect(await ids(api, 'products')).toEqual([[1, 700, 'MANUAL', 'ok'], [2, 650, 'MANUAL', 'ok'], [3, 550, 'MANUAL', 'below']]);
    expect(await ids(api, 'candidates')).toEqual([[4, 0, 'NOT_SET', 'ok'], [5, 0, 'NOT_SET', 'ok']]);
    await api.remove({ ...ref, productIds: [1] });
    expect(await ids(api, 'products')).toEqual([[2, 650, 'MANUAL', 'ok'], [3, 550, 'MANUAL', 'below']]);
    expect((await ids(api, 'candidates')).map(([id]) => id)).toEqual([1, 4, 5]);
    expect(await api.heldProducts('candidates')).toBe(3);
    // Nothing was read from the server again.
    expect(calls.filter((path) => path === E.actionProducts.path || path === E.actionCandidates.path)).toHaveLength(2);
  });

  it('leaves the held rows of another action alone', async () => {
    const { client } = fakeServer();
    const api = createPromotionsApi(client);
    await api.openProducts('candidates', ref);
    await api.add({ storeId: 1, actionId: 8, products: [{ productId: 3, actionPrice: 550 }] });
    expect((await ids(api, 'candidates')).map(([id]) => id)).toEqual([3, 4, 5]);
  });
});
