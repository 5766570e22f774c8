import { useActorRef } from '@xstate/react';
import { appActorOptions } from '@/app/createAppActor';
import { proxy } from 'comlink';
import { useEffect, useMemo, useRef } from 'react';
import { fromCallback, fromPromise, waitFor } from 'xstate';
import type { OrderRow } from '@contract/orders';
import { listMachine, type ListEvent, type ListEventsInput } from '@machines/listMachine';
import type { OrderQuery } from '@workers/orders/types';
import { ListWindows } from '@/components/virtual-table/listWindows';
import { useListView, type ListView } from '@/components/virtual-table/useListActor';
import type { DataClient } from '@workers/client';
import { useFirstRowsHold } from '@/app/layout/stages';
import { peekFirstAnswer, takenFirstAnswer } from './firstAnswer';
import { ORDER_WINDOW_ROWS } from './query';

const WINDOW = ORDER_WINDOW_ROWS;
/** The order list's window cache: the list's (src/components/virtual-table/listWindows.ts), a window being ORDER_WINDOW_ROWS rows. */
export class OrderWindows extends ListWindows<OrderRow> {
  constructor(fetch: (handle: number, page: number) => Promise<OrderRow[]>, onStale: () => void) {
    super(fetch, onStale, WINDOW);
  }
}

/** What the page shows of its list actor (the list view of src/components/virtual-table/useListActor.ts). */
export type OrderListView = ListView;

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
    ...appActorOptions(),
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

  // The shell's bars and menu (and this page's filter controls) wait for the first rows.
  const releaseStages = useFirstRowsHold(listView);

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
        releaseStages();
      }, 0),
    );
  }, [handle, total, client, releaseStages]);


  return { actor, view: listView, rowAt: windows.rowAt, subscribeRows: windows.subscribe, onRangeChange };
}


/** Callbacks handed to the worker travel as Comlink proxies. */
function proxyOf<T>(callback: (payload: T) => void) {
  return proxy(callback);
}
