import { decodeListFrame, rowsOfChunk } from '../../../contract/listFrame';
import type { OrderRow } from '../../../contract/orders';
import { PRODUCT_LIST, type ProductRow } from '../../../contract/products';

/** Which list a peer page shows (`?list=orders|products`, orders when absent): the runner's scenario. */
export type BenchList = 'orders' | 'products';
export const benchList = (): BenchList => (new URLSearchParams(location.search).get('list') === 'products' ? 'products' : 'orders');

/** Rows per sync request, for both lists: the chunks arrive and are shown one after another. */
const CHUNK_ROWS = '10000';

/** The runner logged in through the API and passes its token (`?token=…&userId=…`). */
function authHeaders(): Record<string, string> {
  const params = new URLSearchParams(location.search);
  return { 'x-token': params.get('token') ?? '', 'x-user-id': params.get('userId') ?? '' };
}

/**
 * The peers' data: the same GET /api/order/sync chunks the worker fetches (same server, same rows), read on the main
 * thread with the token the runner logged in with.
 */
export async function fetchAllOrders(onChunk: (rows: OrderRow[]) => void): Promise<number> {
  const headers = authHeaders();
  let cursor: string | null = null;
  let total = 0;
  for (;;) {
    const query = new URLSearchParams({ limit: CHUNK_ROWS });
    if (cursor !== null) query.set('cursor', cursor);
    const response = await fetch(`/api/order/sync?${query}`, { headers });
    const envelope = (await response.json()) as { code: number; data: { rows: OrderRow[]; cursor: string; hasMore: boolean } };
    if (envelope.code !== 200) throw new Error(`sync answered ${envelope.code}`);
    onChunk(envelope.data.rows);
    total += envelope.data.rows.length;
    cursor = envelope.data.cursor;
    if (!envelope.data.hasMore) return total;
  }
}

/**
 * The same for products: GET /api/product/sync answers only the binary frames the worker reads (contract/listFrame.ts),
 * so each chunk's frame is decoded into row objects on the main thread, as the order peers parse their JSON chunks.
 */
export async function fetchAllProducts(onChunk: (rows: ProductRow[]) => void): Promise<number> {
  const headers = authHeaders();
  let cursor: string | null = null;
  let total = 0;
  for (;;) {
    const query = new URLSearchParams({ limit: CHUNK_ROWS, format: 'binary' });
    if (cursor !== null) query.set('cursor', cursor);
    const response = await fetch(`/api/product/sync?${query}`, { headers });
    if (!response.ok || response.headers.get('content-type')?.startsWith('application/json')) throw new Error(`sync answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
    const frame = decodeListFrame(PRODUCT_LIST, await response.arrayBuffer());
    const rows = rowsOfChunk<ProductRow>(PRODUCT_LIST, frame.chunk);
    onChunk(rows);
    total += rows.length;
    cursor = frame.cursor;
    if (!frame.hasMore) return total;
  }
}

/** What the runner reads from a peer page: the result's size, and whether everything arrived. */
export type BenchState = { total: number; loaded: boolean };

declare global {
  interface Window {
    __bench?: { state: () => BenchState; filterStatus: (status: string | null) => void };
  }
}
