import { isStaleHandleFailure, type PageWindow, type RowsOnScreen } from '@workers/lists/types';

/** Windows kept per result: a long scroll must not grow memory. */
const KEPT_WINDOWS = 60;
/** Results whose windows are kept (see ListWindows.recent). */
const RECENT_RESULTS = 3;

type Fetch<Row> = (handle: number, page: number) => Promise<Row[]>;

/**
 * The rows of one result that have been fetched, a window at a time, and who to tell when more arrive. It lives
 * outside React state so that a window arriving renders only the table body that subscribes to it.
 */
export class ListWindows<Row> {
  private key = '';
  private handle: number | null = null;
  private total = 0;
  private windows = new Map<number, Row[]>();
  private inflight = new Set<number>();
  /**
   * The windows of the results shown last, by `handle:version`. A render may show an older result again: a click
   * rendered at once while a newer result still renders in a transition. Its rows must still be there.
   */
  private recent = new Map<string, { windows: Map<number, Row[]>; inflight: Set<number> }>();
  /** Windows of a result that came with its answer, before the page learnt of it (see `accept`). */
  private early: { handle: number; windows: Map<number, Row[]> } | null = null;
  private listeners = new Set<() => void>();
  /** The rows last on screen: a query answers the same place of its result with it (see `onScreen`). */
  private range: [number, number] = [0, 0];

  constructor(
    private readonly fetch: Fetch<Row>,
    private readonly onStale: () => void,
    /** Rows a window holds (the worker is asked for this many at a time). */
    private readonly windowRows: number,
  ) {}

  /**
   * Switches to another result, with the windows already fetched for it (preloaded with its answer, or fetched when
   * it was shown before); only the last RECENT_RESULTS results keep theirs.
   */
  show(handle: number | null, version: number, total: number): void {
    const key = `${handle}:${version}`;
    if (key === this.key) return;
    this.key = key;
    const previous = this.handle;
    this.handle = handle;
    this.total = total;
    let shown = this.recent.get(key);
    if (!shown) {
      const early = this.early?.handle === handle ? this.early.windows : null;
      if (early) this.early = null;
      // The result on screen answered again (a reload's head, asked once more while the cache is read): the same
      // handle holds the same rows, so its windows go on being shown rather than a frame of placeholders.
      const same = handle !== null && handle === previous ? { windows: this.windows, inflight: this.inflight } : null;
      shown = same ?? { windows: early ?? new Map(), inflight: new Set() };
      this.recent.set(key, shown);
      if (this.recent.size > RECENT_RESULTS) this.recent.delete(this.recent.keys().next().value!);
    }
    this.windows = shown.windows;
    this.inflight = shown.inflight;
  }

  rowAt = (index: number): Row | undefined => this.windows.get(Math.floor(index / this.windowRows))?.[index % this.windowRows];

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  onRangeChange = (start: number, end: number): void => {
    const [before, after] = this.range;
    this.range = [start, end];
    const from = Math.floor(start / this.windowRows);
    const to = Math.floor((end - 1) / this.windowRows);
    for (let page = from; page <= to; page++) this.request(page);
    // At a reading pace (the new rows touch the old ones) the neighbouring windows too, so scrolling on meets rows
    // that are already here. A fling or a jump lands far away: windows around where it passed would be wasted.
    if (start <= after && end >= before) {
      this.request(to + 1);
      this.request(from - 1);
    }
  };

  /**
   * The rows on screen: a query answers their windows of its result with it, so the result and its rows appear in
   * one render (a keystroke costs one call to the worker and one body render, never a frame of placeholders).
   */
  onScreen(): RowsOnScreen {
    const [start, end] = this.range;
    return { start, end, window: this.windowRows };
  }

  /** Windows of a result not shown yet, answered with its query (or with the first answer asked for at start-up). */
  accept(handle: number, windows: PageWindow<Row>[]): void {
    if (this.handle !== handle) this.early = { handle, windows: new Map(windows.map(({ page, rows }) => [page, rows])) };
  }

  private request(page: number): void {
    const handle = this.handle;
    if (handle === null || page < 0 || page * this.windowRows >= this.total || this.windows.has(page) || this.inflight.has(page)) return;
    const own = this.windows;
    const inflight = this.inflight;
    inflight.add(page);
    this.fetch(handle, page)
      .then((rows) => {
        own.set(page, rows);
        if (own.size > KEPT_WINDOWS) own.delete(own.keys().next().value!);
        if (this.windows !== own) return;
        // A window fetched ahead, or for a place already scrolled past, changes nothing on screen.
        const [start, end] = this.range;
        if (page * this.windowRows < end && (page + 1) * this.windowRows > start) this.listeners.forEach((listener) => listener());
      })
      .catch((error: unknown) => {
        if (isStaleHandleFailure(error)) this.onStale();
      })
      .finally(() => inflight.delete(page));
  }
}

