import { useActorRef, useSelector } from '@xstate/react';
import { proxy } from 'comlink';
import { useCallback, useMemo, useRef, useState } from 'react';
import { fromCallback, fromPromise } from 'xstate';
import type { OrderRow } from '@contract/orders';
import { orderListMachine, type OrderEventsInput, type OrderListEvent } from '@machines/orderListMachine';
import { isStaleHandleFailure, type OrderQuery } from '@workers/orders/types';
import type { DataClient } from '@workers/client';

const WINDOW = 100;

/**
 * One order-list actor for a page, wired to the worker, plus a window cache: the table asks for the rows on
 * screen, this fetches them a hundred at a time from the worker and keeps only the recent windows.
 */
export function useOrderList(client: DataClient, userId: number, view: string, initialQuery: OrderQuery) {
  const machine = useMemo(
    () =>
      orderListMachine.provide({
        actors: {
          openOrders: fromPromise(async ({ input }) => client.orders.open(input.userId)),
          runQuery: fromPromise(async ({ input }) => client.orders.query(input.query, input.view)),
          orderEvents: fromCallback<OrderListEvent, OrderEventsInput>(({ sendBack }) => {
            const offs: Promise<() => void>[] = [
              client.subscribe('orders.changed', proxyOf((event) => sendBack({ type: 'orders.changed', total: event.total }))),
              client.subscribe('orders.syncProgress', proxyOf((progress) => sendBack({ type: 'orders.syncProgress', progress }))),
              client.subscribe('orders.syncFailed', proxyOf((event) => sendBack({ type: 'orders.syncFailed', message: event.failure.message }))),
            ];
            return () => offs.forEach((off) => void off.then((unsubscribe) => unsubscribe()).catch(() => undefined));
          }),
        },
      }),
    [client],
  );
  const actor = useActorRef(machine, { input: { userId, view, query: initialQuery } });
  const handle = useSelector(actor, (s) => s.context.handle);
  const resultVersion = useSelector(actor, (s) => s.context.resultVersion);
  const windows = useRef(new Map<number, OrderRow[]>());
  const inflight = useRef(new Set<number>());
  const [, setTick] = useState(0);

  // Reset during render, not in an effect: the table's range effect (a child's) runs first and must fetch into the
  // new result's cache, not into one an effect would then throw away.
  const resultKey = useRef('');
  if (resultKey.current !== `${handle}:${resultVersion}`) {
    resultKey.current = `${handle}:${resultVersion}`;
    windows.current = new Map();
    inflight.current = new Set();
  }

  const fetchWindow = useCallback(
    (page: number) => {
      if (handle === null || windows.current.has(page) || inflight.current.has(page)) return;
      const own = windows.current;
      inflight.current.add(page);
      client.orders
        .window(handle, page * WINDOW, WINDOW)
        .then((window) => {
          if (windows.current !== own) return;
          own.set(page, window.rows);
          // Keep the windows near the screen; a long scroll must not grow memory.
          if (own.size > 60) own.delete(own.keys().next().value!);
          setTick((n) => n + 1);
        })
        .catch((error: unknown) => {
          if (isStaleHandleFailure(error)) actor.send({ type: 'orders.changed', total: actor.getSnapshot().context.held });
        })
        .finally(() => inflight.current.delete(page));
    },
    [actor, client, handle],
  );

  const onRangeChange = useCallback(
    (start: number, end: number) => {
      for (let page = Math.floor(start / WINDOW); page <= Math.floor((end - 1) / WINDOW); page++) fetchWindow(page);
    },
    [fetchWindow],
  );

  const rowAt = useCallback((index: number) => windows.current.get(Math.floor(index / WINDOW))?.[index % WINDOW], []);

  return { actor, rowAt, onRangeChange };
}

/** Callbacks handed to the worker travel as Comlink proxies. */
function proxyOf<T>(callback: (payload: T) => void) {
  return proxy(callback);
}
