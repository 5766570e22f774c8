import { useActorRef } from '@xstate/react';
import { proxy } from 'comlink';
import { startTransition, useEffect, useMemo, useRef, useState } from 'react';
import { fromCallback, fromPromise } from 'xstate';
import { listMachine, type ListEvent, type ListEventsInput, type ListSnapshot, type ListSync } from '@machines/listMachine';
import type { DataClient } from '@workers/client';
import type { ListChangedEvent, ListOpenResult, ListSyncProgressEvent } from '@workers/lists/area';
import type { ListQuery, ListQueryResult, ListWindow, PageWindow, RowsOnScreen } from '@workers/lists/types';
import { appActorOptions } from '@/app/createAppActor';
import { useFirstRowsHold } from '@/app/layout/stages';
import { ListWindows } from './listWindows';

/** What a page shows of its list actor: the current result, the cache's rows and the sync, the list's state. */
export type ListView = {
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

export function listViewOf(snapshot: ListSnapshot): ListView {
  const { handle, resultVersion, total, held, sync, synced, error } = snapshot.context;
  const loading = snapshot.matches('opening') || (snapshot.matches('querying') && handle === null);
  return { handle, resultVersion, total, held, sync, synced, loading, failed: snapshot.matches('failed'), error };
}

const sameView = (a: ListView, b: ListView) => (Object.keys(a) as (keyof ListView)[]).every((key) => Object.is(a[key], b[key]));

/**
 * The actor's view for rendering. The actor changes on the worker's messages (an answer, a sync's progress): read
 * through useSyncExternalStore (@xstate/react's useSelector) each change rendered the page and committed the rows in
 * the message's own task, one long task for a list's first rows; a transition renders in slices that give way to the
 * browser. One state for all of it, so the table's result, count and rows always agree.
 */
export function useListView(actor: { getSnapshot: () => ListSnapshot; subscribe: (listener: () => void) => { unsubscribe: () => void } }): ListView {
  const [view, setView] = useState(() => listViewOf(actor.getSnapshot()));
  useEffect(() => {
    const update = () => {
      const next = listViewOf(actor.getSnapshot());
      startTransition(() => setView((shown) => (sameView(shown, next) ? shown : next)));
    };
    update();
    const subscription = actor.subscribe(update);
    return () => subscription.unsubscribe();
  }, [actor]);
  return view;
}

/** A cached list's calls in the worker (workers/lists/area.ts), as a page reaches them through the data client. */
export type ListAreaClient<Row, Query extends ListQuery<object>> = {
  open(userId: number): Promise<ListOpenResult>;
  query(query: Query, view?: string, onScreen?: RowsOnScreen): Promise<ListQueryResult & { windows?: PageWindow<Row>[] }>;
  window(handle: number, start: number, count: number): Promise<ListWindow<Row & { deleted: boolean }>>;
  progress(): Promise<ListSyncProgressEvent | null>;
  shown(): Promise<void>;
};

/** The worker's topics of one list area. */
export type ListTopics = {
  changed: (client: DataClient, listener: (event: ListChangedEvent) => void) => Promise<() => void>;
  progress: (client: DataClient, listener: (event: ListSyncProgressEvent) => void) => Promise<() => void>;
  failed: (client: DataClient, listener: (message: string) => void) => Promise<() => void>;
};

/**
 * One list actor for a page over any cached list area (products, returns ...), plus its window cache: the table
 * asks for the rows on screen, the cache fetches them `windowRows` at a time and keeps only the recent windows.
 */
export function useListActor<Row, Query extends ListQuery<object>>(options: {
  client: DataClient;
  area: ListAreaClient<Row, Query>;
  topics: ListTopics;
  userId: number;
  view: string;
  initialQuery: Query;
  windowRows: number;
}) {
  const { client, topics, userId, view, initialQuery, windowRows } = options;
  // A page reaches its area through the Comlink proxy (`client.returns`), which is a new object at every render: the
  // actor and the window cache read the latest one through this ref and are made once. Made again each render, the
  // window cache dropped its rows and the windows answered with a query at every render, and while a sync kept the
  // page rendering the rows on screen never arrived.
  const areaRef = useRef(options.area);
  areaRef.current = options.area;
  const windowsRef = useRef<ListWindows<Row> | null>(null);
  const machine = useMemo(
    () =>
      listMachine.provide({
        actors: {
          openList: fromPromise(async ({ input }) => areaRef.current.open(input.userId)),
          runQuery: fromPromise(async ({ input, signal }) => {
            const { windows: onScreen, ...result } = await areaRef.current.query(input.query as Query, input.view, windowsRef.current?.onScreen());
            if (result.status === 'done' && onScreen && !signal.aborted) windowsRef.current?.accept(result.handle, onScreen);
            return result;
          }),
          listEvents: fromCallback<ListEvent, ListEventsInput>(({ sendBack }) => {
            const offs = [
              topics.changed(client, (event) => sendBack({ type: 'list.changed', total: event.total })),
              topics.progress(client, (progress) => sendBack({ type: 'list.syncProgress', progress })),
              topics.failed(client, (message) => sendBack({ type: 'list.syncFailed', message })),
            ];
            // A sync the worker began before this list listened: its progress so far.
            void Promise.all(offs)
              .then(() => areaRef.current.progress())
              .then((progress) => progress && sendBack({ type: 'list.syncProgress', progress }))
              .catch(() => undefined);
            return () => offs.forEach((off) => void off.then((unsubscribe) => unsubscribe()).catch(() => undefined));
          }),
        },
      }),
    [client, topics],
  );
  const actor = useActorRef(machine, { ...appActorOptions(), input: { userId, view, query: initialQuery, first: null } });
  const windows = useMemo(
    () =>
      new ListWindows<Row>(
        async (handle, page) => (await areaRef.current.window(handle, page * windowRows, windowRows)).rows,
        () => actor.send({ type: 'list.changed', total: actor.getSnapshot().context.held }),
        windowRows,
      ),
    [actor, windowRows],
  );
  windowsRef.current = windows;
  const listView = useListView(actor);
  const { handle, resultVersion, total } = listView;
  windows.show(handle, resultVersion, total);
  const onRangeChange = useMemo(() => (start: number, end: number) => windows.onRangeChange(start, end), [windows, handle, resultVersion]); // eslint-disable-line react-hooks/exhaustive-deps

  const releaseStages = useFirstRowsHold(listView);

  // The list's first rows painted: the worker goes on with the rest of the cache or the next frame.
  const told = useRef(false);
  useEffect(() => {
    if (told.current || handle === null || total === 0) return;
    told.current = true;
    requestAnimationFrame(() =>
      setTimeout(() => {
        void areaRef.current.shown().catch(() => undefined);
        releaseStages();
      }, 0),
    );
  }, [handle, total, releaseStages]);

  return { actor, view: listView, rowAt: windows.rowAt, subscribeRows: windows.subscribe, onRangeChange, windows };
}

/** A worker topic's listener, passed over Comlink. */
export const listenerOf = proxy;
