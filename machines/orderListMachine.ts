import { assertEvent, assign, fromCallback, fromPromise, setup } from 'xstate';
import type { OrderQuery, OrderQueryResult } from '../workers/orders/types';

/**
 * One actor per big list (architecture "Machines": list queries). It opens the user's orders in the worker, keeps
 * one current query, and re-runs it when the rows change (sync, push, own edits). A newer query supersedes an
 * older one twice over: the state re-entry stops the older invocation (its answer is never delivered) and the
 * worker's engine drops the older work at its next slice.
 */

export type OrderListSync = { rows: number; hasMore: boolean; total: number };

export type OrderListContext = {
  userId: number;
  /** The list view's name in the worker: queries of one view supersede each other. */
  view: string;
  query: OrderQuery;
  /** The current result; null until the first query answered. */
  handle: number | null;
  total: number;
  /** Grows with each answered query: the table refetches its windows when it changes. */
  resultVersion: number;
  /** Rows held in the worker (the cache), and the running sync's progress. */
  held: number;
  sync: OrderListSync | null;
  /** A sync has finished (or failed) since the list opened: only then does "no rows" mean there are none. */
  synced: boolean;
  error: string | null;
};

export type OrderListEvent =
  | { type: 'list.query'; query: OrderQuery }
  | { type: 'list.retry' }
  | { type: 'orders.changed'; total: number }
  | { type: 'orders.syncProgress'; progress: OrderListSync }
  | { type: 'orders.syncFailed'; message: string };

/**
 * The answer to the list's first query when it is already here (asked for while the app started): the list starts
 * ready with it instead of opening and querying.
 */
export type OrderListFirstAnswer = { held: number; synced: boolean; handle: number; total: number };
export type OrderListInput = { userId: number; view?: string; query?: OrderQuery; first?: OrderListFirstAnswer | null };
export type OpenOrdersInput = { userId: number };
/** `cursor` is the cache's sync cursor: set once a sync has completed for this user (now or in an earlier visit). */
export type OpenOrdersOutput = { rows: number; cursor?: string | null };
export type RunQueryInput = { query: OrderQuery; view: string };
/** Feeds 'orders.changed', 'orders.syncProgress' and 'orders.syncFailed' from the worker's events. */
export type OrderEventsInput = Record<string, never>;

const notProvided = (name: string) => () => {
  throw new Error(`orderListMachine: actor '${name}' not provided`);
};

function messageOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error) return String((error as { message: unknown }).message);
  return String(error);
}

export const orderListMachine = setup({
  types: {
    context: {} as OrderListContext,
    events: {} as OrderListEvent,
    input: {} as OrderListInput,
  },
  actors: {
    openOrders: fromPromise<OpenOrdersOutput, OpenOrdersInput>(notProvided('openOrders')),
    runQuery: fromPromise<OrderQueryResult, RunQueryInput>(notProvided('runQuery')),
    orderEvents: fromCallback<OrderListEvent, OrderEventsInput>(notProvided('orderEvents')),
  },
  actions: {
    storeQuery: assign(({ event }) => {
      assertEvent(event, 'list.query');
      return { query: event.query };
    }),
    storeSync: assign(({ context, event }) => {
      assertEvent(event, 'orders.syncProgress');
      return { sync: event.progress.hasMore ? event.progress : null, held: event.progress.total, synced: context.synced || !event.progress.hasMore };
    }),
    storeHeld: assign(({ event }) => {
      assertEvent(event, 'orders.changed');
      return { held: event.total };
    }),
    storeSyncFailure: assign(({ event }) => {
      assertEvent(event, 'orders.syncFailed');
      return { sync: null, synced: true, error: event.message };
    }),
  },
}).createMachine({
  id: 'orderList',
  context: ({ input }) => ({
    userId: input.userId,
    view: input.view ?? 'orderList',
    query: input.query ?? {},
    handle: input.first?.handle ?? null,
    total: input.first?.total ?? 0,
    resultVersion: input.first ? 1 : 0,
    held: input.first?.held ?? 0,
    sync: null,
    synced: input.first?.synced ?? false,
    error: null,
  }),
  invoke: { src: 'orderEvents', input: {} },
  on: {
    'orders.syncProgress': { actions: 'storeSync' },
    'orders.syncFailed': { actions: 'storeSyncFailure' },
  },
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: ({ context }) => context.handle !== null, target: 'ready' }, { target: 'opening' }],
    },
    opening: {
      invoke: {
        src: 'openOrders',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: {
          target: 'querying',
          actions: assign(({ context, event }) => ({ held: event.output.rows, synced: context.synced || (event.output.cursor ?? null) !== null })),
        },
        onError: { target: 'failed', actions: assign(({ event }) => ({ error: messageOf(event.error) })) },
      },
      on: { 'list.query': { actions: 'storeQuery' } },
    },
    querying: {
      invoke: {
        src: 'runQuery',
        input: ({ context }) => ({ query: context.query, view: context.view }),
        onDone: [
          {
            guard: ({ event }) => event.output.status === 'done',
            target: 'ready',
            actions: assign(({ context, event }) => {
              const output = event.output as Extract<OrderQueryResult, { status: 'done' }>;
              return { handle: output.handle, total: output.total, resultVersion: context.resultVersion + 1, error: null };
            }),
          },
          // Superseded inside the worker by a query this actor no longer waits for: nothing to show.
          { target: 'ready' },
        ],
        onError: { target: 'failed', actions: assign(({ event }) => ({ error: messageOf(event.error) })) },
      },
      on: {
        'list.query': { target: 'querying', reenter: true, actions: 'storeQuery' },
        'orders.changed': { target: 'querying', reenter: true, actions: 'storeHeld' },
      },
    },
    ready: {
      on: {
        'list.query': { target: 'querying', actions: 'storeQuery' },
        'orders.changed': { target: 'querying', actions: 'storeHeld' },
      },
    },
    failed: {
      on: {
        'list.retry': { target: 'opening', actions: assign({ error: null }) },
        'list.query': { target: 'opening', actions: ['storeQuery', assign({ error: null })] },
      },
    },
  },
});

export type OrderListSnapshot = ReturnType<typeof orderListMachine.getInitialSnapshot>;

export const selectTotal = (snapshot: OrderListSnapshot) => snapshot.context.total;
export const selectHandle = (snapshot: OrderListSnapshot) => snapshot.context.handle;
export const selectResultVersion = (snapshot: OrderListSnapshot) => snapshot.context.resultVersion;
export const selectSync = (snapshot: OrderListSnapshot) => snapshot.context.sync;
export const selectHeld = (snapshot: OrderListSnapshot) => snapshot.context.held;
export const selectError = (snapshot: OrderListSnapshot) => snapshot.context.error;
export const selectQuery = (snapshot: OrderListSnapshot) => snapshot.context.query;
/** First paint: nothing to show yet (opening, or the first query still running). */
export const selectIsLoading = (snapshot: OrderListSnapshot) =>
  snapshot.matches('opening') || (snapshot.matches('querying') && snapshot.context.handle === null);
export const selectIsFailed = (snapshot: OrderListSnapshot) => snapshot.matches('failed');
