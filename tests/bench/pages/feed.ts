import type { OrderRow } from '../../../contract/orders';

/**
 * The peers' data: the same GET /api/order/sync chunks the worker fetches (same server, same rows), read on the main
 * thread with the token the runner logged in with (`?token=…&userId=…`).
 */
export async function fetchAllOrders(onChunk: (rows: OrderRow[]) => void): Promise<number> {
  const params = new URLSearchParams(location.search);
  const headers = { 'x-token': params.get('token') ?? '', 'x-user-id': params.get('userId') ?? '' };
  let cursor: string | null = null;
  let total = 0;
  for (;;) {
    const query = new URLSearchParams({ limit: '10000' });
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

/** What the runner reads from a peer page: the result's size, and whether everything arrived. */
export type BenchState = { total: number; loaded: boolean };

declare global {
  interface Window {
    __bench?: { state: () => BenchState; filterStatus: (status: string | null) => void };
  }
}
