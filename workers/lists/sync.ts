import type { ListChunk, ListFrame } from '../../contract/listFrame';
import type { ListRow } from '../../contract/listSchema';
import type { ListCache } from './cache';
import { yieldToEventLoop, type ListEngine } from './engine';
import type { ListQuery } from './types';

/** A binary answer: the decoded frame and the Blob it came in (the cache stores that as it is). */
export type ReceivedFrame<C extends ListChunk = ListChunk> = ListFrame<C> & { blob: Blob };

/** A list's rows changed since a cursor, as row objects (the sync's small answers). */
export type RowsChunk<Row extends ListRow = ListRow> = { rows: Row[]; cursor: string; hasMore: boolean };

/** One call of a list's sync from `cursor` (null: from the beginning), in either format (orders: GET /api/order/sync). */
export type FetchListChunk<Row extends ListRow = ListRow> = (cursor: string | null) => Promise<RowsChunk<Row> | ReceivedFrame>;

export type ListSyncProgress = { rows: number; hasMore: boolean };

/** Any list's engine. */
type AnyEngine = ListEngine<ListRow, ListQuery<object>>;

/** Per engine: the part of a cache load still running after `loadList` resolved, and which load it is. */
const pendingLoads = new WeakMap<AnyEngine, { generation: number; done: Promise<void> }>();

export type LoadListOptions = {
  /** Called once every cached row is in the engine (the list then queries again to show them all). */
  onLoaded?: (rows: number) => void;
  /** Called instead when reading the cache failed part-way (what was read stays in the engine). */
  onFailed?: () => void;
  /** Waited for after the first record is in, before the others are read (a page's first rows being shown). */
  beforeRest?: () => Promise<void> | undefined;
  /**
   * Called once the cache's keys, sync state and head are read, before any record is decoded: the rows it holds
   * and its cursor (the head is then the cache's `openingHead`).
   */
  onStart?: (rows: number, cursor: string | null) => void;
  /** Waited for after `onStart`, before the first record is read (a list's first answer given from the head). */
  beforeFirst?: () => Promise<void> | undefined;
};

/**
 * Fills the engine from the cache; the worker calls this once per user session before the first query.
 * Resolves as soon as the first chunk is in the engine, so a list shows its first rows without waiting for a
 * million; the rest keeps loading (`onLoaded` tells when it is all there), and `syncList` waits for it before
 * applying newer rows, so a cached row can never overwrite a fresher one.
 * The search index is not built here: it costs about half a second per million rows, and the list's first query
 * (a sort) should not wait for it. The sync that follows an open builds it, or the first search does.
 */
export async function loadList(cache: ListCache, engine: AnyEngine, options: LoadListOptions = {}): Promise<{ cursor: string | null; rows: number }> {
  engine.clear();
  const generation = (pendingLoads.get(engine)?.generation ?? 0) + 1;
  let firstRows: () => void = () => undefined;
  const first = new Promise<void>((resolve) => (firstRows = resolve));
  // A newer load (another user) cleared the engine: this one's rows no longer belong there.
  const current = () => pendingLoads.get(engine)?.generation === generation;
  let cursor: string | null = null;
  /** Rows the records hold, reserved in the engine at the second record (see below). */
  let toReserve = 0;
  const read = () =>
    cache.load(
      (chunk) => {
        if (!current()) return;
        // The engine makes room for every row once instead of growing its columns chunk after chunk; after the
        // first record, whose rows a list is waiting for (a million rows' columns took 20-30 ms to allocate).
        if (toReserve > engine.size && engine.size > 0) {
          engine.reserve(toReserve - engine.size);
          toReserve = 0;
        }
        // The cache holds each id once: the engine need not check (nor index) a million ids on the way in. In
        // slices, so the worker answers a list's query or a session call between them instead of after the record.
        return engine.appendTrustedInSlices(chunk, async () => (await yieldToEventLoop(), current())).then(firstRows);
      },
      (rows, stored) => {
        cursor = stored;
        toReserve = rows;
        if (current()) options.onStart?.(rows, stored);
      },
      options.beforeRest,
      options.beforeFirst,
    );
  const whole = read().then(async (result) => {
    // Another tab wrote to the cache while this one read it: read it again into an empty engine (the lists query
    // again once it is in).
    for (let attempt = 0; result.changed && attempt < 2 && current(); attempt++) {
      engine.clear();
      result = await read();
    }
    return result;
  });
  const done = whole.then(
    (result) => {
      if (pendingLoads.get(engine)?.generation === generation) options.onLoaded?.(result.rows);
    },
    () => {
      if (pendingLoads.get(engine)?.generation === generation) options.onFailed?.();
    },
  );
  pendingLoads.set(engine, { generation, done });
  await Promise.race([first, whole]);
  return { cursor, rows: engine.size };
}

/** Resolves once the cache load under way for this engine (if any) has put every cached row in. */
export async function listLoaded(engine: AnyEngine): Promise<void> {
  await pendingLoads.get(engine)?.done;
}

/** What a sync makes room for at most in one go (beyond it the columns grow as rows come). */
const MAX_RESERVED_ROWS = 4_000_000;

/**
 * Pulls changes since the cache's cursor until the server has no more. Each chunk is committed to the cache
 * (rows and cursor together) before the engine sees it, so what the list shows is always what a reload would show.
 * Stops between chunks when `signal` aborts; the next sync resumes from the stored cursor.
 */
export async function syncList<Row extends ListRow>(
  cache: ListCache<Row>,
  engine: ListEngine<Row, ListQuery<object>>,
  fetchChunk: FetchListChunk<Row>,
  options: { signal?: AbortSignal; onProgress?: (progress: ListSyncProgress) => void } = {},
): Promise<{ rows: number; cursor: string | null }> {
  await listLoaded(engine);
  let cursor = await cache.cursor();
  let rows = 0;
  // The next chunk is asked for as soon as this one's cursor is known, so the server builds it while this one is
  // written; it is used only after this one committed, and dropped (never stored) when the sync stops first.
  let next: Promise<RowsChunk<Row> | ReceivedFrame> | null = null;
  for (;;) {
    if (options.signal?.aborted) break;
    const chunk = await (next ?? fetchChunk(cursor));
    next = null;
    if (chunk.hasMore && !options.signal?.aborted) {
      next = fetchChunk(chunk.cursor);
      // A failure surfaces when the loop awaits it; until then it must not count as unhandled.
      next.catch(() => undefined);
    }
    if ('blob' in chunk) {
      // Room for every row the sync still brings, at once (as a load does), not a column copy per doubling.
      if (chunk.remaining !== undefined) engine.reserve(Math.min(chunk.remaining, MAX_RESERVED_ROWS));
      // The engine holds what the cache holds: its verdict (kept for the append) spares the cache indexing a full
      // sync's ids.
      const fresh = engine.isFresh(chunk.chunk);
      await cache.applyFrame(chunk, chunk.blob, { allNew: fresh });
      engine.appendChunk(chunk.chunk);
      rows += chunk.chunk.n;
    } else {
      await cache.applyChanges(chunk.rows, chunk.cursor);
      engine.upsert(chunk.rows);
      rows += chunk.rows.length;
    }
    cursor = chunk.cursor;
    options.onProgress?.({ rows, hasMore: chunk.hasMore });
    if (!chunk.hasMore) break;
  }
  return { rows, cursor };
}
