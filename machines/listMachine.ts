import { assertEvent, assign, fromCallback, fromPromise, setup } from 'xstate';
import type { ListQuery, ListQueryResult } from '../workers/lists/types';

/**
 * One actor per big list (architecture "Machines": list queries). It opens the user's rows of a list (orders, products
 * ...) in the worker, keeps one current query, and re-runs it when the rows change (sync, push, own edits). A newer query supersedes an
 * older one twice over: the state re-entry stops the older invocation (its answer is never delivered) and the
 * worker's engine drops the older work at its next slice.
 */

export type ListSync = { rows: number; hasMore: boolean; total: number };

export type ListContext = {
  userId: number;
  /** The list view's name in the worker: queries of one view supersede each other. */
  view: string;
  query: ListQuery<object>;
  /** The current result; null until the first query answered. */
  handle: number | null;
  total: number;
  /** Grows with each answered query: the table refetches its windows when it changes. */
  resultVersion: number;
  /** Rows held in the worker (the cache), and the running sync's progress. */
  held: number;
  sync: ListSync | null;
  /** A sync has finished (or failed) since the list opened: only then does "no rows" mean there are none. */
  synced: boolean;
  error: string | null;
};

export type ListEvent =
  | { type: 'list.query'; query: ListQuery<object> }
  | { type: 'list.retry' }
  | { type: 'list.changed'; total: number }
  | { type: 'list.syncProgress'; progress: ListSync }
  | { type: 'list.syncFailed'; message: string };

/**
 * The answer to the list's first query when it is already here (asked for while the app started): the list starts
 * ready with it instead of opening and querying.
 */
export type ListFirstAnswer = { held: number; synced: boolean; handle: number; total: number };
export type ListInput = { userId: number; view?: string; query?: ListQuery<object>; first?: ListFirstAnswer | null };
export type OpenListInput = { userId: number };
/** `cursor` is the cache's sync cursor: set once a sync has completed for this user (now or in an earlier visit). */
export type OpenListOutput = { rows: number; cursor?: string | null };
export type RunQueryInput = { query: ListQuery<object>; view: string };
/** Feeds 'list.changed', 'list.syncProgress' and 'list.syncFailed' from the worker's events. */
export type ListEventsInput = Record<string, never>;

const notProvided = (name: string) => () => {
  throw new Error(`listMachine: actor '${name}' not provided`);
};

function messageOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error) return String((error as { message: unknown }).message);
  return String(error);
}

export const listMachine = setup({
  types: {
    context: {} as ListContext,
    events: {} as ListEvent,
    input: {} as ListInput,
  },
  actors: {
    openList: fromPromise<OpenListOutput, OpenListInput>(notProvided('openList')),
    runQuery: fromPromise<ListQueryResult, RunQueryInput>(notProvided('runQuery')),
    listEvents: fromCallback<ListEvent, ListEventsInput>(notProvided('listEvents')),
  },
  actions: {
    storeQuery: assign(({ event }) => {
      assertEvent(event, 'list.query');
      return { query: event.query };
    }),
    storeSync: assign(({ context, event }) => {
      assertEvent(event, 'list.syncProgress');
      return { sync: event.progress.hasMore ? event.progress : null, held: event.progress.total, synced: context.synced || !event.progress.hasMore };
    }),
    storeHeld: assign(({ event }) => {
      assertEvent(event, 'list.changed');
      return { held: event.total };
    }),
    storeSyncFailure: assign(({ event }) => {
      assertEvent(event, 'list.syncFailed');
      return { sync: null, synced: true, error: event.message };
    }),
  },
}).createMachine({
  id: 'list',
  context: ({ input }) => ({
    userId: input.userId,
    view: input.view ?? 'default',
    query: input.query ?? {},
    handle: input.first?.handle ?? null,
    total: input.first?.total ?? 0,
    resultVersion: input.first ? 1 : 0,
    held: input.first?.held ?? 0,
    sync: null,
    synced: input.first?.synced ?? false,
    error: null,
  }),
  invoke: { src: 'listEvents', input: {} },
  on: {
    'list.syncProgress': { actions: 'storeSync' },
    'list.syncFailed': { actions: 'storeSyncFailure' },
  },
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: ({ context }) => context.handle !== null, target: 'ready' }, { target: 'opening' }],
    },
    opening: {
      invoke: {
        src: 'openList',
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
              const output = event.output as Extract<ListQueryResult, { status: 'done' }>;
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
        'list.changed': { target: 'querying', reenter: true, actions: 'storeHeld' },
      },
    },
    ready: {
      on: {
        'list.query': { target: 'querying', actions: 'storeQuery' },
        'list.changed': { target: 'querying', actions: 'storeHeld' },
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

export type ListSnapshot = ReturnType<typeof listMachine.getInitialSnapshot>;

export const selectTotal = (snapshot: ListSnapshot) => snapshot.context.total;
export const selectHandle = (snapshot: ListSnapshot) => snapshot.context.handle;
export const selectResultVersion = (snapshot: ListSnapshot) => snapshot.context.resultVersion;
export const selectSync = (snapshot: ListSnapshot) => snapshot.context.sync;
export const selectHeld = (snapshot: ListSnapshot) => snapshot.context.held;
export const selectError = (snapshot: ListSnapshot) => snapshot.context.error;
export const selectQuery = (snapshot: ListSnapshot) => snapshot.context.query;
/** First paint: nothing to show yet (opening, or the first query still running). */
export const selectIsLoading = (snapshot: ListSnapshot) =>
  snapshot.matches('opening') || (snapshot.matches('querying') && snapshot.context.handle === null);
export const selectIsFailed = (snapshot: ListSnapshot) => snapshot.matches('failed');
