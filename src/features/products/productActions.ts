import { fromPromise } from 'xstate';
import type { ProductRow } from '@contract/products';
import type { DataClient } from '@workers/client';
import {
  productActionsMachine,
  type PrepareProductsInput,
  type PrepareProductsOutput,
  type ProductActionKind,
  type RunProductsInput,
  type RunProductsOutput,
} from '@machines/productActionsMachine';

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
};

export async function prepareProducts(client: DataClient, { kind, selection }: PrepareProductsInput): Promise<PrepareProductsOutput> {
  const all = await client.products.rowsOf(
    selection.kind === 'ids' ? selection : { kind: 'all', handle: selection.handle, except: selection.except },
    MAX_PRODUCTS,
  );
  const rows = all.filter(APPLIES[kind]);
  const selected = selection.kind === 'ids' ? selection.ids.length : selection.total - selection.except.length;
  return {
    subjects: rows.map((row) => ({ id: row.id, label: `${row.offerId} · ${row.name}`, shopId: row.shopId })),
    omitted: Math.max(0, selected - rows.length),
  };
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
    return { outcomes: await client.products.updatePrices(ids.map((id) => ({ id, price: params.price, oldPrice: params.oldPrice })), batchId) };
  }
  if (kind === 'stock' && 'warehouseId' in params) {
    return { outcomes: await client.products.updateStocks(ids.map((id) => ({ id, warehouseId: params.warehouseId, stock: params.stock })), batchId) };
  }
  if (kind === 'archive' || kind === 'unarchive' || kind === 'deleteArchive') return { outcomes: await client.products.archive(kind, ids) };
  throw new Error(`productActions: ${kind} without its values`);
}

/** The product actions' machine with its two actors on the data worker. */
export function productActionsOn(client: DataClient, texts: ProductActionTexts) {
  return productActionsMachine.provide({
    actors: {
      prepareProducts: fromPromise(({ input }) => prepareProducts(client, input)),
      runProducts: fromPromise(({ input }) => runProducts(client, texts, input)),
    },
  });
}
