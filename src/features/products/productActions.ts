import { fromPromise } from 'xstate';
import type { EndpointSpec } from '@contract/endpoint';
import { ACTION_DAILY_QUOTA, PRODUCT_ENDPOINTS, quotaLeft, type ProductRow } from '@contract/products';
import type { DataClient } from '@workers/client';
import {
  productActionsMachine,
  type PrepareProductsInput,
  type PrepareProductsOutput,
  type ProductActionKind,
  type ProductActionQuota,
  type RunProductsInput,
  type RunProductsOutput,
} from '@machines/productActionsMachine';

/** The batch actions, in the toolbar's order. */
export const ACTION_KINDS: ProductActionKind[] = ['price', 'stock', 'image', 'archive', 'unarchive', 'deleteArchive'];

/** The call each action makes, whose permission decides whether a member sees its button (src/app/granted.ts). */
export const ACTION_ENDPOINTS: Record<ProductActionKind, EndpointSpec> = {
  price: PRODUCT_ENDPOINTS.priceUpdate,
  stock: PRODUCT_ENDPOINTS.stockUpdate,
  image: PRODUCT_ENDPOINTS.updateSkuImage,
  archive: PRODUCT_ENDPOINTS.archive,
  unarchive: PRODUCT_ENDPOINTS.unarchive,
  deleteArchive: PRODUCT_ENDPOINTS.deleteArchive,
};

/** Products one action reads from a whole-result selection; more are left out and the confirm step says so. */
export const MAX_PRODUCTS = 10_000;

/** Which selected products an action applies to (the server checks again and says why per product). */
const APPLIES: Record<ProductActionKind, (row: ProductRow) => boolean> = {
  price: (row) => row.status !== 'archived',
  stock: (row) => row.status !== 'archived',
  archive: (row) => row.status !== 'archived',
  unarchive: (row) => row.status === 'archived',
  deleteArchive: (row) => row.status === 'archived',
  image: (row) => row.status !== 'archived',
};

/** Texts an outcome needs that no server message carries. */
export type ProductActionTexts = {
  /** Ozon took the call but could not fetch or accept these pictures. */
  picturesFailed: (urls: string[]) => string;
  /** Ozon's daily update quota leaves `left` of the `need` products of a shop; it starts again at `resetAt`. */
  quotaShort: (left: number, need: number, resetAt: string) => string;
  /** Stock for a product whose shop has no warehouse chosen (it has none). */
  noWarehouse: string;
};

/** Each shop's share of the subjects against the daily quota the action spends (none: an empty list). */
async function quotasOf(client: DataClient, texts: ProductActionTexts, kind: ProductActionKind, subjects: { shopId: number }[]): Promise<ProductActionQuota[]> {
  const quota = ACTION_DAILY_QUOTA[kind];
  if (quota === null || subjects.length === 0) return [];
  const need = new Map<number, number>();
  for (const s of subjects) need.set(s.shopId, (need.get(s.shopId) ?? 0) + 1);
  const limits = await client.products.limits([...need.keys()]);
  return limits.map((limit) => {
    const n = need.get(limit.shopId) ?? 0;
    const { usage, limit: max, resetAt } = limit[quota];
    const left = limit.error ? null : quotaLeft(limit[quota]);
    return { shopId: limit.shopId, shopName: limit.shopName, need: n, left, usage, limit: max, resetAt, error: limit.error, reason: texts.quotaShort(left ?? 0, n, resetAt) };
  });
}

export async function prepareProducts(client: DataClient, texts: ProductActionTexts, { kind, selection }: PrepareProductsInput): Promise<PrepareProductsOutput> {
  const all = await client.products.rowsOf(
    selection.kind === 'ids' ? selection : { kind: 'all', handle: selection.handle, except: selection.except },
    MAX_PRODUCTS,
  );
  const rows = all.filter(APPLIES[kind]);
  const selected = selection.kind === 'ids' ? selection.ids.length : selection.total - selection.except.length;
  const subjects = rows.map((row) => ({ id: row.id, label: `${row.offerId} · ${row.name}`, shopId: row.shopId, shopName: row.shopName, minPrice: row.minPrice }));
  return { subjects, omitted: Math.max(0, selected - all.length), notApplicable: all.length - rows.length, quotas: await quotasOf(client, texts, kind, subjects) };
}

export async function runProducts(client: DataClient, texts: ProductActionTexts, { kind, subjects, params, batchId }: RunProductsInput): Promise<RunProductsOutput> {
  const ids = subjects.map((s) => s.id);
  if (kind === 'image' && 'images' in params) {
    const answers = await client.products.updateSkuImages(ids, params.images, params.keep);
    return {
      outcomes: answers.map((answer) => {
        if ('failure' in answer) return { id: answer.id, ok: false, message: answer.failure };
        const failed = answer.result.pictures.filter((p) => p.state === 'failed').map((p) => p.url);
        return failed.length ? { id: answer.id, ok: false, message: texts.picturesFailed(failed) } : { id: answer.id, ok: true, message: '' };
      }),
    };
  }
  if (kind === 'price' && 'price' in params) {
    return { outcomes: await client.products.updatePrices(ids.map((id) => ({ id, price: params.price, oldPrice: params.oldPrice, minPrice: params.minPrice })), batchId) };
  }
  if (kind === 'stock' && 'warehouseByShop' in params) return { outcomes: await stockByShop(client, texts, subjects, { warehouseByShop: params.warehouseByShop, stock: params.stock }, batchId) };
  if (kind === 'archive' || kind === 'unarchive' || kind === 'deleteArchive') return { outcomes: await client.products.archive(kind, ids) };
  throw new Error(`productActions: ${kind} without its values`);
}

/**
 * Stock is set at a warehouse of the product's own shop: the subjects go shop by shop, one call each with that
 * shop's warehouse (one warehouse for a selection over two shops was refused for the other shop's products).
 */
async function stockByShop(
  client: DataClient,
  texts: ProductActionTexts,
  subjects: RunProductsInput['subjects'],
  { warehouseByShop, stock }: { warehouseByShop: Record<number, string>; stock: number },
  batchId: string,
): Promise<RunProductsOutput['outcomes']> {
  const shops = new Map<number, string[]>();
  for (const s of subjects) shops.set(s.shopId, [...(shops.get(s.shopId) ?? []), s.id]);
  const outcomes: RunProductsOutput['outcomes'] = [];
  for (const [shopId, ids] of shops) {
    const warehouseId = warehouseByShop[shopId];
    if (!warehouseId) {
      outcomes.push(...ids.map((id) => ({ id, ok: false, message: texts.noWarehouse })));
      continue;
    }
    outcomes.push(...(await client.products.updateStocks(ids.map((id) => ({ id, warehouseId, stock })), batchId)));
  }
  return outcomes;
}

/** The product actions' machine with its two actors on the data worker. */
export function productActionsOn(client: DataClient, texts: ProductActionTexts) {
  return productActionsMachine.provide({
    actors: {
      prepareProducts: fromPromise(({ input }) => prepareProducts(client, texts, input)),
      runProducts: fromPromise(({ input }) => runProducts(client, texts, input)),
    },
  });
}
