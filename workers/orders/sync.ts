import type { OrderSyncChunk } from '../../contract/orders';
import type { OrderCache } from './cache';
import type { OrderEngine } from './engine';

/** One call of GET /api/order/sync from `cursor` (null: from the beginning). */
export type FetchOrderChunk = (cursor: string | null) => Promise<OrderSyncChunk>;

export type OrderSyncProgress = { rows: number; hasMore: boolean };

/**
 * Fills the engine from the cache; the worker calls this once per user session before the first query.
 * The search index is not built here: it costs about half a second per million rows, and the list's first query
 * (a sort) should not wait for it. The sync that follows an open builds it, or the first search does.
 */
export async function loadOrders(cache: OrderCache, engine: OrderEngine): Promise<{ cursor: string | null; rows: number }> {
  engine.clear();
  return cache.load((rows) => engine.upsert(rows));
}

/**
 * Pulls changes since the cache's cursor until the server has no more. Each chunk is committed to the cache
 * (rows and cursor together) before the engine sees it, so what the list shows is always what a reload would show.
 * Stops between chunks when `signal` aborts; the next sync resumes from the stored cursor.
 */
export async function syncOrders(
  cache: OrderCache,
  engine: OrderEngine,
  fetchChunk: FetchOrderChunk,
  options: { signal?: AbortSignal; onProgress?: (progress: OrderSyncProgress) => void } = {},
): Promise<{ rows: number; cursor: string | null }> {
  let cursor = await cache.cursor();
  let rows = 0;
  for (;;) {
    if (options.signal?.aborted) break;
    const chunk = await fetchChunk(cursor);
    await cache.applyChanges(chunk.rows, chunk.cursor);
    engine.upsert(chunk.rows);
    cursor = chunk.cursor;
    rows += chunk.rows.length;
    options.onProgress?.({ rows, hasMore: chunk.hasMore });
    if (!chunk.hasMore) break;
  }
  return { rows, cursor };
}
