import { useActorRef } from '@xstate/react';
import { proxy } from 'comlink';
import { startTransition, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { fromCallback, fromPromise, waitFor } from 'xstate';
import type { OrderRow } from '@contract/orders';
import { listMachine, type ListEvent, type ListEventsInput, type ListSnapshot, type ListSync } from '@machines/listMachine';
import { isStaleHandleFailure, type OrderQuery } from '@workers/orders/types';
import type { DataClient } from '@workers/client';
import type { OrderPageWindow, OrderRowsOnScreen } from '@workers/orders/area';
import { holdStages } from '@/app/layout/stages';
import { peekFirstAnswer, takenFirstAnswer } from './firstAnswer';
import { ORDER_WINDOW_ROWS } from './query';

const WINDOW = ORDER_WINDOW_ROWS;
/** Windows kept per result: a long scroll must not grow memory. */
const KEPT_WINDOWS = 60;
/** Results whose windows are kept (see OrderWindows.recent). */
const RECENT_RESULTS = 3;

type Fetch = (handle: number, page: number) => Promise<OrderRow[]>;

/**
 * The rows of one result that have been fetched, a hundred at a time, and who to tell when more arrive. It lives
 * outside React state so that a window arriving renders only the table body that subscribes to it.
 */
export class OrderWindows {
  private key = '';
  private handle: number | null = null;
  private total = 0;
  private windows = new Map<number, OrderRow[]>();
  private inflight = new Set<number>();
  /**
   * The windows of the results shown last, by `handle:version`. A render may show an older result again: a click
   * rendered at once while a newer result still renders in a transition. Its rows must still be there.
   */
  private recent = new Map<string, { windows: Map<number, OrderRow[]>; inflight: Set<number> }>();
  /** Windows of a result that came with its answer, before the page learnt of it (see `accept`). */
  private early: { handle: number; windows: Map<number, OrderRow[]> } | null = null;
  private listeners = new Set<() => void>();
  /** The rows last on screen: a query answers the same place of its result with it (see `onScreen`). */
  private range: [number, number] = [0, 0];

  constructor(private readonly fetch: Fetch, private readonly onStale: () => void) {}

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

  rowAt = (index: number): OrderRow | undefined => this.windows.get(Math.floor(index / WINDOW))?.[index % WINDOW];

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  onRangeChange = (start: number, end: number): void => {
    const [before, after] = this.range;
    this.range = [start, end];
    const from = Math.floor(start / WINDOW);
    const to = Math.floor((end - 1) / WINDOW);
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
  onScreen(): OrderRowsOnScreen {
    const [start, end] = this.range;
    return { start, end, window: WINDOW };
  }

  /** Windows of a result not shown yet, answered with its query (or with the first answer asked for at start-up). */
  accept(handle: number, windows: OrderPageWindow[]): void {
    if (this.handle !== handle) this.early = { handle, windows: new Map(windows.map(({ page, rows }) => [page, rows])) };
  }

  private request(page: number): void {
    const handle = this.handle;
    if (handle === null || page < 0 || page * WINDOW >= this.total || this.windows.has(page) || this.inflight.has(page)) return;
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
        if (page * WINDOW < end && (page + 1) * WINDOW > start) this.listeners.forEach((listener) => listener());
      })
      .catch((error: unknown) => {
        if (isStaleHandleFailure(error)) this.onStale();
      })
      .finally(() => inflight.delete(page));
  }
}

/** What the page shows of its list actor: the current result, the cache's rows and the sync, the list's state. */
export type OrderListView = {
  handle: number | null;
  resultVersion: number;
  total: number;
  held: number;
  sync: ListSync | null;
  synced: boolean;
  loading: boolean;
  failed: boolean;
  error: string | null;
};

function viewOf(snapshot: ListSnapshot): OrderListView {
  const { handle, resultVersion, total, held, sync, synced, error } = snapshot.context;
  const loading = snapshot.matches('opening') || (snapshot.matches('querying') && handle === null);
  return { handle, resultVersion, total, held, sync, synced, loading, failed: snapshot.matches('failed'), error };
}

const sameView = (a: OrderListView, b: OrderListView) => (Object.keys(a) as (keyof OrderListView)[]).every((key) => Object.is(a[key], b[key]));

/**
 * The actor's view for rendering. The actor changes on the worker's messages (an answer, a sync's progress): read
 * through useSyncExternalStore (@xstate/react's useSelector) each change rendered the page and committed the rows in
 * the message's own task, one long task for a list's first rows; a transition renders in slices that give way to the
 * browser. One state for all of it, so the table's result, count and rows always agree.
 *
 * A query the user asked for (a filter, a search, a sort) goes the same way: rendering its result urgently measured
 * no faster (alternating clicks on a million rows, three runs of 8-10 each, medians within this VM's noise both ways).
 */
function useListView(actor: { getSnapshot: () => ListSnapshot; subscribe: (listener: () => void) => { unsubscribe: () => void } }): OrderListView {
  const [view, setView] = useState(() => viewOf(actor.getSnapshot()));
  useEffect(() => {
    const update = () => {
      const next = viewOf(actor.getSnapshot());
      startTransition(() => setView((shown) => (sameView(shown, next) ? shown : next)));
    };
    // A change between the first render and this subscription.
    update();
    const subscription = actor.subscribe(update);
    return () => subscription.unsubscribe();
  }, [actor]);
  return view;
}

/**
 * One order-list actor for a page, wired to the worker, plus its window cache: the table asks for the rows on
 * screen, the cache fetches them a hundred at a time from the worker and keeps only the recent windows.
 */
export function useOrderList(client: DataClient, userId: number, view: string, initialQuery: OrderQuery) {
  const windowsRef = useRef<OrderWindows | null>(null);
  const listening = useRef<Promise<unknown> | null>(null);
  // Read once per mount (React 19 keeps the first render's memo in StrictMode's second render), taken once mounted.
  const first = useMemo(() => peekFirstAnswer(userId, view, initialQuery), []); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (first) takenFirstAnswer(first);
  }, [first]);
  const machine = useMemo(
    () => {
      // Still on its way when the page mounted: the list's open and first query join it instead of asking again.
      let joining = first && !first.settled ? first : null;
      return listMachine.provide({
        actors: {
          openList: fromPromise(async ({ input }) => (joining ? joining.opened : client.orders.open(input.userId))),
          runQuery: fromPromise(async ({ input, signal }) => {
            const join = joining;
            joining = null;
            if (join && JSON.stringify(input.query) === join.key && input.view === join.view) {
              const answer = await join.answer.catch(() => null);
              if (answer) {
                windowsRef.current?.accept(answer.handle, [{ page: 0, rows: answer.rows }]);
                return { status: 'done' as const, seq: 0, handle: answer.handle, total: answer.total };
              }
            }
            // The rows on screen come with the answer (a millisecond in the worker). The actor holds the queries this page
            // sends: order queries.
            const { windows: onScreen, ...result } = await client.orders.query(input.query as OrderQuery, input.view, windowsRef.current?.onScreen());
            if (result.status === 'done' && onScreen && !signal.aborted) windowsRef.current?.accept(result.handle, onScreen);
            return result;
          }),
          listEvents: fromCallback<ListEvent, ListEventsInput>(({ sendBack }) => {
            const offs: Promise<() => void>[] = [
              client.subscribe('orders.changed', proxyOf((event) => sendBack({ type: 'list.changed', total: event.total }))),
              client.subscribe('orders.syncProgress', proxyOf((progress) => sendBack({ type: 'list.syncProgress', progress }))),
              client.subscribe('orders.syncFailed', proxyOf((event) => sendBack({ type: 'list.syncFailed', message: event.failure.message }))),
            ];
            listening.current = Promise.all(offs);
            // A sync the worker began before this list listened (at start-up): its progress so far.
            void listening.current
              .then(() => client.orders.progress())
              .then((progress) => {
                if (progress) sendBack({ type: 'list.syncProgress', progress });
              })
              .catch(() => undefined);
            return () => offs.forEach((off) => void off.then((unsubscribe) => unsubscribe()).catch(() => undefined));
          }),
        },
      });
    },
    [client], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const settled = first?.settled;
  const actor = useActorRef(machine, {
    input: {
      userId,
      view,
      query: initialQuery,
      first: settled ? { held: settled.opened.rows, synced: settled.opened.cursor !== null, handle: settled.handle, total: settled.total } : null,
    },
  });
  const windows = useMemo(() => {
    const cache = new OrderWindows(
      async (handle, page) => (await client.orders.window(handle, page * WINDOW, WINDOW)).rows,
      () => actor.send({ type: 'list.changed', total: actor.getSnapshot().context.held }),
    );
    if (settled) cache.accept(settled.handle, [{ page: 0, rows: settled.rows }]);
    return cache;
  }, [actor, client]); // eslint-disable-line react-hooks/exhaustive-deps

  windowsRef.current = windows;

  // An answer from start-up may predate changes this list was not yet listening for (a small cache loads whole
  // before the page mounts): once it listens and shows that answer, it asks once more. The rows on screen stay until
  // the new answer comes with its own.
  useEffect(() => {
    if (!first) return undefined;
    let stopped = false;
    void (async () => {
      await listening.current;
      await waitFor(actor, (snapshot) => snapshot.matches('ready'));
      if (!stopped) actor.send({ type: 'list.changed', total: actor.getSnapshot().context.held });
    })().catch(() => undefined);
    return () => {
      stopped = true;
    };
  }, [actor, first]);
  const listView = useListView(actor);
  const { handle, resultVersion, total } = listView;

  // Switched during render, not in an effect: the table's range effect (a child's) runs first and must fetch into
  // the new result's cache.
  windows.show(handle, resultVersion, total);

  // A new function per result tells the table to ask for its rows on screen again (see VirtualTable).
  const onRangeChange = useMemo(() => (start: number, end: number) => windows.onRangeChange(start, end), [windows, handle, resultVersion]); // eslint-disable-line react-hooks/exhaustive-deps

  // The shell's bars and menu (and this page's filter controls) wait for the first rows: see holdStages. A list
  // that answers with no rows, or fails, lets them go at once.
  const releaseStages = useRef<(() => void) | null>(null);
  useLayoutEffect(() => {
    const release = holdStages(FIRST_ROWS_HOLD_MS);
    releaseStages.current = release;
    return release;
  }, []);
  useEffect(() => {
    if (!listView.loading && (listView.failed || total === 0)) releaseStages.current?.();
  }, [listView.loading, listView.failed, total]);

  // The list's first rows: once they are painted, the worker goes on reading the rest of the cache or fetching a
  // first visit's next frame (it waits, so that work does not take a core from this page's first frames). Not through
  // stages.ts's afterNextPaint: its queue holds the shell's later stages, one per frame, ahead of this.
  const told = useRef(false);
  useEffect(() => {
    if (told.current || handle === null || total === 0) return;
    told.current = true;
    requestAnimationFrame(() =>
      setTimeout(() => {
        void client.orders.shown().catch(() => undefined);
        releaseStages.current?.();
      }, 0),
    );
  }, [handle, total, client]);


  return { actor, view: listView, rowAt: windows.rowAt, subscribeRows: windows.subscribe, onRangeChange };
}

/** The longest the shell's later parts wait for a list's first rows. */
const FIRST_ROWS_HOLD_MS = 800;

/** Callbacks handed to the worker travel as Comlink proxies. */
function proxyOf<T>(callback: (payload: T) => void) {
  return proxy(callback);
}
