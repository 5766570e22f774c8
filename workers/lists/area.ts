import { ListFrameError } from '../../contract/listFrame';
import type { AnyListSchema, ListRow } from '../../contract/listSchema';
import type { ApiFailure } from '../api';
import type { ListCache, ListHead } from './cache';
import { yieldToEventLoop, type ListEngine, type ListEngineOptions } from './engine';
import { decodeFrameBlob } from './frameBytes';
import { loadList, syncList, type ReceivedFrame } from './sync';
import {
  isHeadHandle,
  pagesOnScreen,
  type ListQuery,
  type ListQueryResult,
  type ListSort,
  type ListWindow,
  type PageWindow,
  type RowsOnScreen,
  type StaleHandleFailure,
} from './types';

/** Rows of the selection a batch action works on: listed keys, or a whole result except some. */
export type ListSelection = { kind: 'ids'; ids: string[] } | { kind: 'all'; handle: number; except: string[] };

export type ListOpenResult = { rows: number; cursor: string | null };
export type ListFirstAnswer<Row extends ListRow> = { opened: ListOpenResult; result: ListQueryResult; rows: Row[] };
export type ListSyncResult = { rows: number; total: number };
/** A sync moved on: rows received so far in this sync, whether more wait, rows now held. */
export type ListSyncProgressEvent = { rows: number; hasMore: boolean; total: number };
/** The rows in memory changed (sync, push, own edits): lists query again. */
export type ListChangedEvent = { version: number; total: number };

/**
 * The cached list part of a worker area (orders, products, returns ...): the user's rows cached in IndexedDB
 * (workers/lists/cache.ts), held in columns in memory (workers/lists/engine.ts), kept fresh by the area's sync call.
 * Everything that crosses to the page is plain data: handles, totals, windows of rows.
 */
export type ListAreaApi<Row extends ListRow, Query extends ListQuery<object>> = {
  /** Loads the user's cache into memory (first rows queryable at once), then syncs in the background. */
  open(userId: number): Promise<ListOpenResult>;
  /**
   * `open`, then a list's first query and its first window, in one call: a page being loaded asks for its first
   * rows at start-up, and the worker answers as soon as the first cached rows are in, without a round trip to a
   * main thread that is busy rendering the app.
   */
  first(userId: number, query: Query, view: string, rows: number): Promise<ListFirstAnswer<Row>>;
  /**
   * A list has painted its first rows. Until then (or FIRST_ROWS_GRACE_MS) the rest of a warm open's cache and a
   * first visit's second frame wait: read meanwhile, they took a core from the page's first frames.
   */
  shown(): Promise<void>;
  /** Pulls changes since the cache's cursor; progress arrives as the area's sync progress event. One at a time. */
  sync(): Promise<ListSyncResult>;
  /**
   * The running sync's latest progress (null when none runs): a list that starts listening mid-sync (the worker
   * began it at start-up, before the page was there) learns that more rows are coming.
   */
  progress(): Promise<ListSyncProgressEvent | null>;
  /** Filters, searches and sorts in the worker; a newer query on the same view supersedes older ones. */
  query(query: Query, view?: string, onScreen?: RowsOnScreen): Promise<ListQueryResult & { windows?: PageWindow<Row>[] }>;
  /** Rows `start .. start + count - 1` of a result; rejects with `{ type: 'StaleHandle' }` when the rows moved. */
  window(handle: number, start: number, count: number): Promise<ListWindow<Row>>;
  release(handle: number): Promise<void>;
  get(id: string): Promise<Row | null>;
  /** Forgets the user's rows in memory (logout); `dropCache` removes the IndexedDB copy too (shared computer). */
  close(options?: { dropCache?: boolean }): Promise<void>;
};

/**
 * Rows per sync frame after the first, and so per cache record. A warm open reads each record in a read transaction
 * of its own, and those wait their turn behind the Blob reads (100-480 ms each in headless Chromium): a million
 * rows as ten records instead of twenty made a warm open's all-rows answer about 350 ms sooner (medians of five
 * reloads: 3.05 s -> 2.7 s), the cold load as long. At 200,000 the warm open gained less again and the cold load
 * took longer.
 */
export const LIST_SYNC_LIMIT = 100_000;
/**
 * A first visit's first frame: rows a list shows at once (and a warm open's first record). Small, because the code
 * that reads it runs for the first time, mostly interpreted: 5,000 rows took 60-120 ms from their bytes to the
 * list's first answer in the worker.
 */
export const LIST_FIRST_SYNC_LIMIT = 1_000;
const CHANGED_EVERY_MS = 2_000;
const SEARCH_INDEX_DELAY_MS = 1_000;
/**
 * The text work after a sync (records decoded, search index, status tabs) waits this long after a list last asked
 * for rows or a query: it is a second or more of slices, and on two cores the worker busy beside a list being
 * scrolled cost that list's frames (after a warm open, a series of jumps had 9 frames in 146 over 20 ms, against
 * 2-3 in 115 once the preparation was done).
 */
const QUIET_MS = 250;
/** Rows of a list's opening answer kept with the cache for the next open (the first window a list asks for). */
const HEAD_ROWS = 100;
/** How long the rest of a load or of a first visit's sync waits for a list to show its first rows. */
const FIRST_ROWS_GRACE_MS = 500;

export type ListAreaDeps<Row extends ListRow, Query extends ListQuery<object>> = {
  /** The area's engine (its schema's ListEngine). */
  engine: ListEngine<Row, Query>;
  openCache: (userId: number) => ListCache<Row>;
  removeCache: (userId: number) => Promise<void>;
  /**
   * One binary frame of the area's sync from `cursor` (undefined: from the beginning), `limit` rows at most, the
   * server building the next at `next`; decoded, with the Blob it came in. A frame that does not add up is thrown
   * as the area's contract failure (never cached).
   */
  fetchFrame: (request: { cursor?: string; limit: number; next: number }, signal: AbortSignal) => Promise<ReceivedFrame>;
  /** What the area reports on the worker's event bus. */
  notify: {
    changed: (event: ListChangedEvent) => void;
    progress: (event: ListSyncProgressEvent) => void;
    /** A sync failed (the cache keeps what it had). */
    failed: (failure: ApiFailure) => void;
  };
  /** A filter column whose values are tabs on the page: their answers are made ahead in the list's sort. */
  tabColumn?: string;
  engineOptions?: ListEngineOptions;
  /**
   * A first visit's answer to a query from the server (its total and first `rows` rows in the query's order), or
   * null for a query the server cannot answer (a search, a grouping): see `coldHeadFor`.
   */
  fetchHead?: (query: Query, rows: number) => Promise<{ total: number; rows: Row[] } | null>;
};

/** How long a first visit's query waits for the server's head before it answers from the rows synced so far. */
const COLD_HEAD_WAIT_MS = 4_000;

/** Opens when told to, or `graceMs` after it is first waited for. */
type Gate = { passed: () => Promise<void>; open: () => void };
function gate(graceMs: number): Gate {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    passed: () => {
      timer ??= setTimeout(open, graceMs);
      return opened;
    },
    open: () => {
      clearTimeout(timer);
      open();
    },
  };
}

/**
 * A sync call's binary answer as a received frame: the decoded frame and the Blob it came in (the cache stores that
 * very Blob). An answer that is not a frame, or a frame that does not add up, is thrown as `refuse(error)`: refused
 * like an answer that breaks the contract, never cached.
 */
export async function receiveFrame(schema: AnyListSchema, answer: unknown, refuse: (error: Error) => unknown): Promise<ReceivedFrame> {
  if (!(answer instanceof Blob)) throw refuse(new TypeError('not a binary answer'));
  try {
    return { ...(await decodeFrameBlob(schema, answer)), blob: answer };
  } catch (error) {
    if (error instanceof ListFrameError) throw refuse(error);
    throw error;
  }
}

const isApiFailure = (error: unknown) => typeof error === 'object' && error !== null && 'type' in error && 'code' in error;

export type ListArea<Row extends ListRow, Query extends ListQuery<object>> = {
  api: ListAreaApi<Row, Query>;
  engine: ListEngine<Row, Query>;
  /** Syncs now; during a running sync, once more when it ends (a push said the server's rows changed). */
  syncSoon(): void;
  /** The keys a selection names (a whole result: its rows' keys but the excepted). */
  idsOf(selection: ListSelection): string[];
  /** A selection of a whole result answered from a head: the same query once every row is in. */
  settledSelection(selection: ListSelection): Promise<ListSelection>;
  /** Own edits show at once: the server's rows come through the cache like any sync. */
  afterEdit(): Promise<void>;
};

/**
 * A cached big list's worker side, shared by every area that lists rows with the one list engine: the warm open
 * from the cache's head, the first visit's small first frame, the sync with progress and change events at a
 * bounded rate, the search and filter indexes built when the list is left alone.
 */
export function createListArea<Row extends ListRow, Query extends ListQuery<object>>(deps: ListAreaDeps<Row, Query>): ListArea<Row, Query> {
  const { engine, openCache, notify, tabColumn } = deps;
  const key = engine.schema.key;
  let cache: ListCache<Row> | null = null;
  let userId: number | null = null;
  let syncing: Promise<ListSyncResult> | null = null;
  let opening: Promise<ListOpenResult> | null = null;
  /**
   * The latest load's start: what `open` will answer, once the cache's keys and head are read (before any record is
   * decoded), or null when the load ended without getting there.
   */
  let started: Promise<ListOpenResult | null> = Promise.resolve(null);
  /** A push that arrived during a sync: sync once more when it ends. */
  let again = false;
  let abort = new AbortController();

  const changed = () => notify.changed({ version: engine.version, total: engine.size });
  /** The sort of the first query since the open (a list's opening order): kept with the cache for the next open. */
  let openingSort: ListSort | null = null;
  /** The first query since the open: its head (total and first rows) is kept with the cache for the next open. */
  let openingQuery: Query | null = null;
  /** The sort of the latest query: the tabs' answers are made ahead in it. */
  let latestSort: ListSort | null = null;
  const noteSort = (query: Query) => {
    if (openingSort === null && query.sort) openingSort = query.sort;
    openingQuery ??= query;
    if (query.sort) latestSort = query.sort;
  };

  /**
   * A warm open's answer to the list's opening query, from the head kept with the cache: the total and first rows
   * the list will have once every record is in. Until then that query answers this (rows past the head wait for the
   * load), not the top of the records read so far, which the list replaced with other rows a second later.
   */
  let provisional: { handle: number; key: string; total: number; rows: Row[]; loaded: Promise<void>; settle: () => void } | null = null;
  let nextProvisional = -1;
  /** Whether a load is putting the cached rows in (its head, read with its first record, answers meanwhile). */
  let loading = false;
  const provisionalFor = (query: Query) => {
    const queryKey = JSON.stringify(query);
    if (provisional?.key === queryKey) return provisional;
    const headWhileLoading = loading ? cache?.openingHead() : null;
    if (!headWhileLoading || headWhileLoading.query !== queryKey) return null;
    let settle = () => {};
    const loaded = new Promise<void>((resolve) => (settle = resolve));
    provisional = { handle: nextProvisional--, key: queryKey, total: headWhileLoading.total, rows: headWhileLoading.rows, loaded, settle };
    return provisional;
  };
  const endProvisional = () => {
    loading = false;
    provisional?.settle();
    provisional = null;
  };

  /**
   * A first visit (the cache was empty) while its first sync runs: the rows come oldest change first, so the top of
   * the rows synced so far is not the list's top (an old order showed first, then the newest replaced it). Until the
   * sync ends, a query answers the server's head for it instead, as a warm open answers the head kept with the cache.
   */
  let coldCache: ListCache<Row> | null = null;
  let coldHeadAsked: { key: string; done: Promise<void> } | null = null;
  async function coldHeadFor(query: Query): Promise<void> {
    const queryKey = JSON.stringify(query);
    if (!deps.fetchHead || coldCache === null || coldCache !== cache || provisional?.key === queryKey) return;
    if (coldHeadAsked?.key !== queryKey) {
      const own = coldCache;
      const done = deps
        .fetchHead(query, HEAD_ROWS)
        .then((head) => {
          if (!head || coldCache !== own || provisional?.key === queryKey) return;
          provisional?.settle();
          let settle = () => {};
          const loaded = new Promise<void>((resolve) => (settle = resolve));
          provisional = { handle: nextProvisional--, key: queryKey, total: head.total, rows: head.rows, loaded, settle };
        })
        .catch(() => undefined);
      coldHeadAsked = { key: queryKey, done };
    }
    await Promise.race([coldHeadAsked.done, new Promise((resolve) => setTimeout(resolve, COLD_HEAD_WAIT_MS))]);
  }
  /** The first sync of a first visit is over: the rows answer for themselves. */
  const endColdVisit = (own: ListCache<Row>) => {
    if (coldCache !== own) return;
    coldCache = null;
    coldHeadAsked = null;
    endProvisional();
    changed();
  };
  /** An answer of the engine, or of the head while the load goes on (the engine's handle is then let go). */
  const answerOf = (query: Query, result: ListQueryResult): ListQueryResult => {
    const early = result.status === 'done' ? provisionalFor(query) : null;
    if (!early || result.status !== 'done') return result;
    engine.release(result.handle);
    return { ...result, handle: early.handle, total: early.total };
  };
  /** Rows of a result; of a head, only those it holds (null: the list asks again once the load is over). */
  const rowsOf = (handle: number, start: number, count: number): Row[] | null => {
    if (!isHeadHandle(handle)) return engine.window(handle, start, count).rows;
    const head = provisional?.handle === handle ? provisional : null;
    if (!head || Math.min(start + count, head.total) > head.rows.length) return null;
    return head.rows.slice(start, start + count);
  };
  const stale = (handle: number): StaleHandleFailure => ({ type: 'StaleHandle', handle });
  async function settledSelection(selection: ListSelection): Promise<ListSelection> {
    if (selection.kind !== 'all' || !isHeadHandle(selection.handle)) return selection;
    const head = provisional?.handle === selection.handle ? provisional : null;
    if (!head) throw stale(selection.handle);
    await head.loaded;
    const result = await engine.query(JSON.parse(head.key) as Query, 'selection');
    if (result.status !== 'done') throw stale(selection.handle);
    return { ...selection, handle: result.handle };
  }

  /**
   * After a sync: keeps the opening query's head for the rows as they are, unless it is there already (whatever
   * the engine's layout: unlike the saved order, a head does not depend on it).
   */
  async function saveOpeningHead(own: ListCache<Row>): Promise<void> {
    const query = openingQuery;
    if (!query || cache !== own || engine.size !== own.rowCount || (await own.hasHead(JSON.stringify(query)))) return;
    const version = own.version();
    const result = await engine.query(query, 'opening head');
    if (result.status !== 'done' || cache !== own) return;
    const head: ListHead<Row> = { query: JSON.stringify(query), total: result.total, rows: engine.window(result.handle, 0, HEAD_ROWS).rows };
    engine.release(result.handle);
    await own.saveHead(head, version);
  }

  /**
   * A warm open: the opening order saved with the cache spares sorting every row again once they are all in, and
   * the orders built ahead (the schema's sortAhead) a first sort by a name.
   */
  async function adoptSavedOrder(own: ListCache<Row>): Promise<void> {
    const [saved, ahead] = await Promise.all([own.savedOrder().catch(() => null), own.savedOrdersAhead().catch(() => [])]);
    if (cache !== own) return;
    if (saved) engine.adoptPermutation(JSON.parse(saved.sort) as ListSort, saved.order);
    for (const { sort, order } of ahead) engine.adoptPermutation(JSON.parse(sort) as ListSort, order);
  }

  /**
   * The orders of the schema's sortAhead columns, built in slices while no list asks for anything (see
   * ListEngine.prepareTextOrders): asked for once a load has every cached row in and after every synced frame, one
   * build at a time, again when rows came meanwhile. Once they cover the cached rows they are saved with the cache
   * for the next open.
   */
  let textOrders: Promise<void> | null = null;
  let textOrdersAgain = false;
  function prepareTextOrdersSoon(): void {
    if (engine.schema.sortAhead.length === 0) return;
    if (textOrders) {
      textOrdersAgain = true;
      return;
    }
    const own = cache;
    textOrders = (async () => {
      do {
        textOrdersAgain = false;
        const complete = await engine.prepareTextOrders(whenQuiet, () => cache === own);
        if (complete && own && cache === own) await saveOrdersAhead(own);
      } while (textOrdersAgain && cache === own);
    })()
      .catch(() => undefined)
      .finally(() => {
        textOrders = null;
      });
  }

  async function saveOrdersAhead(own: ListCache<Row>): Promise<void> {
    if (!engine.appendOnly || engine.size !== own.rowCount) return;
    const saved = new Set((await own.savedOrdersAhead()).map((order) => order.sort));
    for (const { sort, order } of engine.textOrdersAhead()) {
      const key = JSON.stringify(sort);
      if (saved.has(key) || cache !== own || !engine.appendOnly || engine.size !== own.rowCount || order.length !== engine.size) continue;
      await own.saveOrderAhead(key, order);
    }
  }

  /** After a sync: saves the opening order for the rows as they are, unless it is there already. */
  async function saveOpeningOrder(own: ListCache<Row>): Promise<void> {
    const sort = openingSort;
    if (!sort || cache !== own || !engine.appendOnly || engine.size !== own.rowCount) return;
    const sortKey = JSON.stringify(sort);
    if (await own.hasOrder(sortKey)) return;
    if (cache !== own || !engine.appendOnly || engine.size !== own.rowCount) return;
    await own.saveOrder(sortKey, engine.permutationFor(sort));
  }

  /**
   * Open while a first visit's first frame is being shown: the next frame, twenty times larger, is asked for once the
   * list has painted those rows (`shown`, or after FIRST_ROWS_GRACE_MS). Asked for at once, the server built it and
   * the worker read it while both cores were needed to show the first rows.
   */
  let listFirst: Gate | null = null;

  // A first visit's first chunk is small so rows show at once; the rest come in the largest chunks the server gives
  // (`next` tells the server, so the frame it builds ahead is the one asked for next, not another small one).
  const fetchChunk = async (cursor: string | null): Promise<ReceivedFrame> => {
    if (listFirst) await listFirst.passed();
    const frame = await deps.fetchFrame(
      { cursor: cursor ?? undefined, limit: cursor === null ? LIST_FIRST_SYNC_LIMIT : LIST_SYNC_LIMIT, next: LIST_SYNC_LIMIT },
      abort.signal,
    );
    if (cursor === null && frame.hasMore) listFirst = gate(FIRST_ROWS_GRACE_MS);
    return frame;
  };

  /** What the running sync last reported while more rows were waiting (see `progress`). */
  let progressNow: ListSyncProgressEvent | null = null;

  async function runSync(): Promise<ListSyncResult> {
    if (!cache) return { rows: 0, total: engine.size };
    const ownCache = cache;
    let received = 0;
    // A list queries again on every change event: during a long sync (a million rows in twenty chunks) that
    // is at most every CHANGED_EVERY_MS, so the worker spends its time on the rows, not on re-sorting them.
    let told = 0;
    try {
      do {
        again = false;
        const result = await syncList(ownCache, engine, fetchChunk, {
          signal: abort.signal,
          onProgress: (progress) => {
            const now = { ...progress, total: engine.size };
            progressNow = progress.hasMore ? now : null;
            notify.progress(now);
            if (progress.rows === 0) return;
            prepareTextOrdersSoon();
            if (!progress.hasMore || told === 0 || Date.now() - told >= CHANGED_EVERY_MS) {
              told = Date.now();
              changed();
            }
          },
        });
        received += result.rows;
      } while (again && cache === ownCache);
      endColdVisit(ownCache);
      // Saved as soon as the rows settle (a reload may come any moment); the list's re-query needs the same order.
      void saveOpeningOrder(ownCache).catch(() => undefined);
      void saveOpeningHead(ownCache).catch(() => undefined);
      prepareSearchSoon();
    } catch (error) {
      endColdVisit(ownCache);
      if (isApiFailure(error)) notify.failed(error as ApiFailure);
      throw error;
    } finally {
      progressNow = null;
    }
    return { rows: received, total: engine.size };
  }

  // The search index and the filter indexes (then the tabs' answers, in the list's latest sort) are built a
  // moment after a sync settles: the list's re-query and its first windows go first.
  let searchTimer: ReturnType<typeof setTimeout> | null = null;
  /** The sort the tabs' answers were last made in (or are being made in). */
  let tabsSort: ListSort | null = null;
  /** Whether the tabs' answers are still wanted in `sort` (the list was not sorted another way since). */
  const tabsWanted = (sort: ListSort) => () => tabsSort?.column === sort.column && tabsSort.direction === sort.direction;
  function prepareSearchSoon(): void {
    if (searchTimer !== null) clearTimeout(searchTimer);
    searchTimer = setTimeout(() => {
      searchTimer = null;
      tabsSort = latestSort;
      // The filter indexes at once (a task a column, tens of milliseconds in all): a tab or a sort's tab
      // answers need them. The rest (a second or more) when the list is left alone.
      void engine
        .prepareFilters()
        .then(() => engine.prepareSearch(whenQuiet))
        // The cache's ids, decoded by then (they were the engine's too): the records' frames can go.
        .then(() => cache?.settleIds())
        .then(() => {
          const sort = tabsSort;
          return sort && tabColumn ? engine.prepareFilterOrders(tabColumn, sort, whenQuiet, tabsWanted(sort)) : undefined;
        })
        .catch(() => undefined);
    }, SEARCH_INDEX_DELAY_MS);
  }

  /** performance.now() when a list last asked for rows or a query: what background work gives way to. */
  let askedAt = Number.NEGATIVE_INFINITY;
  const asked = () => {
    askedAt = performance.now();
  };
  /** Gives way to other messages, then waits until no list has asked for anything for QUIET_MS. */
  const giveWay = deps.engineOptions?.yieldToEventLoop ?? yieldToEventLoop;
  async function whenQuiet(): Promise<void> {
    await giveWay();
    for (let wait = askedAt + QUIET_MS - performance.now(); wait > 0; wait = askedAt + QUIET_MS - performance.now()) {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /**
   * After the list is sorted another way (and once a load's preparation has run): the tabs' answers again,
   * in that sort, right after the answer is sent. Made from the sort's order the answer just used, in slices, only
   * that: a tab clicked next then answers at once in the sort on screen.
   */
  let tabsTimer: ReturnType<typeof setTimeout> | null = null;
  function prepareTabsInSort(sort: ListSort): void {
    if (!tabColumn || searchTimer !== null || tabsSort === null || (tabsSort.column === sort.column && tabsSort.direction === sort.direction)) return;
    tabsSort = sort;
    if (tabsTimer !== null) clearTimeout(tabsTimer);
    tabsTimer = setTimeout(() => {
      tabsTimer = null;
      void engine.prepareFilterOrders(tabColumn, sort, undefined, tabsWanted(sort)).catch(() => undefined);
    }, 0);
  }

  function sync(): Promise<ListSyncResult> {
    if (syncing) return syncing;
    syncing = runSync().finally(() => {
      syncing = null;
    });
    return syncing;
  }

  const idsOf = (selection: ListSelection): string[] => {
    if (selection.kind === 'ids') return selection.ids;
    const except = new Set(selection.except);
    const ids: string[] = [];
    const page = 50_000;
    for (let start = 0; ; start += page) {
      const window = engine.window(selection.handle, start, page);
      for (const row of window.rows) {
        const id = String(row[key]);
        if (!except.has(id)) ids.push(id);
      }
      if (start + page >= window.total) break;
    }
    return ids;
  };

  /** A warm open's first rows on their way to a page: the rest of the cache is read once they are painted. */
  let pageFirst: Gate | null = null;

  /** `open`; `asking` is the query (JSON) of the `first` call that opens the cache, if one does. */
  function openFor(id: number, asking: string | null): Promise<ListOpenResult> {
    // The app may open the cache early (a page of the list being loaded) and the list again: one load serves both.
    if (userId === id && cache) return opening ?? cache.cursor().then((cursor) => ({ rows: engine.size, cursor }));
    abort.abort();
    abort = new AbortController();
    cache?.close();
    userId = id;
    openingSort = openingQuery = null;
    coldCache = null;
    coldHeadAsked = null;
    endProvisional();
    loading = true;
    const own = (cache = openCache(id));
    let headAnswers = false;
    let begin: (opened: ListOpenResult | null) => void = () => undefined;
    started = new Promise((resolve) => (begin = resolve));
    // Resolves with the first cached chunk; the rest follows and the list re-queries when it is all in.
    const run = (async () => {
      try {
        const held = pageFirst;
        const loaded = await loadList(own, engine, {
          onLoaded: () =>
            void adoptSavedOrder(own).finally(() => {
              if (cache === own) endProvisional();
              changed();
              if (cache === own) prepareTextOrdersSoon();
            }),
          onFailed: () => {
            if (cache === own) endProvisional();
            changed();
          },
          beforeRest: () => held?.passed(),
          onStart: (rows, cursor) => {
            if (rows === 0 && cursor === null) coldCache = own;
            headAnswers = asking !== null && own.openingHead()?.query === asking;
            begin({ rows: engine.size, cursor });
          },
          // The head answers the page's first query: its first record waits too, until the rows are painted,
          // and the worker meanwhile answers the session's calls at once.
          beforeFirst: () => (headAnswers ? held?.passed() : undefined),
        });
        changed();
        sync().catch(() => undefined);
        return loaded;
      } finally {
        begin(null);
        if (cache === own) opening = null;
      }
    })();
    opening = run;
    return run;
  }

  const api: ListAreaApi<Row, Query> = {
    async first(id, query, view, rows) {
      asked();
      if (!(userId === id && cache)) {
        pageFirst?.open();
        pageFirst = gate(FIRST_ROWS_GRACE_MS);
      }
      const opening = openFor(id, JSON.stringify(query));
      // A warm open answers from the head kept with the cache as soon as that is read, without waiting for the
      // first record's rows (decoded and put in the engine, 30-50 ms more on this machine).
      const begun = await Promise.race([started, opening.then(() => null)]);
      const head = begun ? provisionalFor(query) : null;
      if (begun && head) {
        noteSort(query);
        return { opened: begun, result: { status: 'done', seq: 0, handle: head.handle, total: head.total }, rows: rowsOf(head.handle, 0, rows) ?? [] };
      }
      const opened = await opening;
      noteSort(query);
      await coldHeadFor(query);
      const result = answerOf(query, await engine.query(query, view));
      return { opened, result, rows: result.status === 'done' ? (rowsOf(result.handle, 0, rows) ?? []) : [] };
    },
    open(id) {
      // A list that opens the cache itself is not the one whose first rows the head answered (that list joins the
      // start-up `first`): it needs the records, so they are not held back for the other's paint.
      pageFirst?.open();
      return openFor(id, null);
    },
    async shown() {
      pageFirst?.open();
      listFirst?.open();
      pageFirst = listFirst = null;
    },
    sync,
    async progress() {
      return progressNow;
    },
    async query(query, view, onScreen) {
      asked();
      noteSort(query);
      await coldHeadFor(query);
      const result = answerOf(query, await engine.query(query, view));
      if (result.status === 'done' && query.sort) prepareTabsInSort(query.sort);
      if (!onScreen || result.status !== 'done') return result;
      const windows = pagesOnScreen(onScreen, result.total).flatMap((page) => {
        const rows = rowsOf(result.handle, page * onScreen.window, onScreen.window);
        return rows ? [{ page, rows }] : [];
      });
      return { ...result, windows };
    },
    async window(handle, start, count) {
      asked();
      if (!isHeadHandle(handle)) return engine.window(handle, start, count);
      const rows = rowsOf(handle, start, count);
      const head = provisional?.handle === handle ? provisional : null;
      if (rows && head) return { handle, start, total: head.total, rows };
      // Past the head: once every row is in, the list asks again (it is told the rows changed).
      await head?.loaded;
      throw stale(handle);
    },
    async release(handle) {
      if (!isHeadHandle(handle)) engine.release(handle);
    },
    async get(id) {
      return engine.get(id) ?? null;
    },
    async close(options = {}) {
      opening = null;
      coldCache = null;
      coldHeadAsked = null;
      endProvisional();
      if (searchTimer !== null) clearTimeout(searchTimer);
      searchTimer = null;
      abort.abort();
      abort = new AbortController();
      cache?.close();
      cache = null;
      engine.clear();
      if (options.dropCache && userId !== null) await deps.removeCache(userId);
      userId = null;
      changed();
    },
  };

  return {
    api,
    engine,
    syncSoon() {
      if (!cache) return;
      if (syncing) again = true;
      else sync().catch(() => undefined);
    },
    idsOf,
    settledSelection,
    afterEdit: () => sync().then(() => undefined, () => undefined),
  };
}
