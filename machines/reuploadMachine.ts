import { assertEvent, assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { ProductLimit, ProductOutcome } from '../contract/products';
import { isReuploadSettled, type ReuploadItem } from '../contract/reupload';
import type { ProductActionSelection } from './productActionsMachine';
import { reasonOf } from './batchOutcomes';

/**
 * Delist and re-upload as an actor (/product/oz-reupload-product), from the picked products to each one's outcome:
 *
 *   idle → preparing → confirming → starting → following ⇄ polling → outcome → retrying → following
 *                    ↘ empty        ↘ idle     ↘ failed → starting (the same batch: resumes)
 *   idle → (reupload.resume) polling: a batch left under way earlier (a reload, a crash) is followed again
 *
 * The confirm step shows each shop's daily create quota. The batch id is made once per batch, so a start sent again
 * (a retry after a network failure) resumes the server's batch instead of making a second one. Following asks the
 * server every `poll` ms; the server moves each product on as far as Ozon allows at each ask.
 */
export type ReuploadSubject = { id: string; label: string; shopId: number; offerId: string };

export type PrepareReuploadInput = { selection: ProductActionSelection };
export type PrepareReuploadOutput = { subjects: ReuploadSubject[]; omitted: number; limits: ProductLimit[] };
export type StartReuploadInput = { batchId: string; ids: string[] };
export type StartReuploadOutput = { items: ReuploadItem[]; refused: ProductOutcome[] };
export type ReuploadStatusInput = { batchId: string };
export type ReuploadRetryInput = { batchId: string; ids: number[] };
export type ReuploadItemsOutput = { items: ReuploadItem[] };

export type ReuploadContext = {
  selection: ProductActionSelection | null;
  subjects: ReuploadSubject[];
  omitted: number;
  limits: ProductLimit[];
  batchId: string;
  items: ReuploadItem[];
  /** Products refused before anything was done, with the reason. */
  refused: ProductOutcome[];
  /** Why the last call failed (shown; following keeps asking). */
  error: string | null;
  pollMs: number;
};

export type ReuploadEvent =
  | { type: 'reupload.start'; selection: ProductActionSelection }
  | { type: 'reupload.confirm' }
  | { type: 'reupload.cancel' }
  | { type: 'reupload.retry' }
  | { type: 'reupload.resume'; batchId: string }
  | { type: 'reupload.close' };

export type ReuploadEmitted = { type: 'reupload.finished'; done: number; failed: number };

export type ReuploadInput = { pollMs?: number };

const notProvided = (name: string) => () => {
  throw new Error(`reuploadMachine: actor '${name}' not provided`);
};

let batches = 0;
const newBatchId = () => `ru-${Date.now().toString(36)}-${(batches++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

const empty = (pollMs: number): ReuploadContext => ({ selection: null, subjects: [], omitted: 0, limits: [], batchId: '', items: [], refused: [], error: null, pollMs });

export const reuploadMachine = setup({
  types: {
    context: {} as ReuploadContext,
    events: {} as ReuploadEvent,
    emitted: {} as ReuploadEmitted,
    input: {} as ReuploadInput,
  },
  actors: {
    prepareReupload: fromPromise<PrepareReuploadOutput, PrepareReuploadInput>(notProvided('prepareReupload')),
    startReupload: fromPromise<StartReuploadOutput, StartReuploadInput>(notProvided('startReupload')),
    reuploadStatus: fromPromise<ReuploadItemsOutput, ReuploadStatusInput>(notProvided('reuploadStatus')),
    retryReupload: fromPromise<ReuploadItemsOutput, ReuploadRetryInput>(notProvided('retryReupload')),
  },
  delays: {
    poll: ({ context }) => context.pollMs,
  },
  guards: {
    hasSubjects: (_, output: PrepareReuploadOutput) => output.subjects.length > 0,
    isSettled: (_, items: ReuploadItem[]) => items.every((i) => isReuploadSettled(i.step)),
    hasFailed: ({ context }) => context.items.some((i) => i.step === 'failed' && i.failedStep !== null),
  },
  actions: {
    start: assign(({ context, event }) => {
      assertEvent(event, 'reupload.start');
      return { ...empty(context.pollMs), selection: event.selection };
    }),
    resume: assign(({ context, event }) => {
      assertEvent(event, 'reupload.resume');
      return { ...empty(context.pollMs), batchId: event.batchId };
    }),
    storeSubjects: assign((_, { subjects, omitted, limits }: PrepareReuploadOutput) => ({ subjects, omitted, limits })),
    newBatch: assign({ batchId: () => newBatchId(), error: null }),
    storeStart: assign((_, { items, refused }: StartReuploadOutput) => ({ items, refused, error: null })),
    storeItems: assign((_, { items }: ReuploadItemsOutput) => ({ items, error: null })),
    storeError: assign((_, error: unknown) => ({ error: reasonOf(error) })),
    emitFinished: emit(({ context }) => ({
      type: 'reupload.finished' as const,
      done: context.items.filter((i) => i.step === 'done').length,
      failed: context.items.filter((i) => i.step === 'failed').length + context.refused.length,
    })),
    reset: assign(({ context }) => empty(context.pollMs)),
  },
}).createMachine({
  id: 'reupload',
  context: ({ input }) => empty(input?.pollMs ?? 3_000),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'reupload.start': { target: 'preparing', actions: 'start' },
        'reupload.resume': { target: 'polling', actions: 'resume' },
      },
    },
    preparing: {
      invoke: {
        id: 'prepareReupload',
        src: 'prepareReupload',
        input: ({ context }) => ({ selection: context.selection! }),
        onDone: [
          { guard: { type: 'hasSubjects', params: ({ event }) => event.output }, target: 'confirming', actions: { type: 'storeSubjects', params: ({ event }) => event.output } },
          { target: 'empty', actions: { type: 'storeSubjects', params: ({ event }) => event.output } },
        ],
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
      on: { 'reupload.cancel': { target: 'idle', actions: 'reset' } },
    },
    empty: { on: { 'reupload.close': { target: 'idle', actions: 'reset' } } },
    confirming: {
      on: {
        'reupload.confirm': { target: 'starting', actions: 'newBatch' },
        'reupload.cancel': { target: 'idle', actions: 'reset' },
      },
    },
    starting: {
      invoke: {
        id: 'startReupload',
        src: 'startReupload',
        input: ({ context }) => ({ batchId: context.batchId, ids: context.subjects.map((s) => s.id) }),
        onDone: [
          { guard: { type: 'isSettled', params: ({ event }) => event.output.items }, target: 'outcome', actions: { type: 'storeStart', params: ({ event }) => event.output } },
          { target: 'following', actions: { type: 'storeStart', params: ({ event }) => event.output } },
        ],
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    failed: {
      on: {
        // Without a batch yet the products are prepared again; with one, the same batch is sent again and resumes.
        'reupload.retry': [{ guard: ({ context }) => context.batchId === '', target: 'preparing', actions: assign({ error: null }) }, { target: 'starting' }],
        'reupload.close': { target: 'idle', actions: 'reset' },
      },
    },
    following: {
      after: { poll: 'polling' },
      on: { 'reupload.close': { target: 'idle', actions: 'reset' } },
    },
    polling: {
      invoke: {
        id: 'reuploadStatus',
        src: 'reuploadStatus',
        input: ({ context }) => ({ batchId: context.batchId }),
        onDone: [
          { guard: { type: 'isSettled', params: ({ event }) => event.output.items }, target: 'outcome', actions: { type: 'storeItems', params: ({ event }) => event.output } },
          { target: 'following', actions: { type: 'storeItems', params: ({ event }) => event.output } },
        ],
        // A failed ask (network, server busy) is shown and asked again: the batch goes on on the server.
        onError: { target: 'following', actions: { type: 'storeError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
      on: { 'reupload.close': { target: 'idle', actions: 'reset' } },
    },
    outcome: {
      entry: 'emitFinished',
      on: {
        'reupload.retry': { guard: 'hasFailed', target: 'retrying' },
        'reupload.close': { target: 'idle', actions: 'reset' },
        'reupload.start': { target: 'preparing', actions: 'start' },
      },
    },
    retrying: {
      invoke: {
        id: 'retryReupload',
        src: 'retryReupload',
        input: ({ context }) => ({ batchId: context.batchId, ids: context.items.filter((i) => i.step === 'failed' && i.failedStep !== null).map((i) => i.id) }),
        onDone: [
          { guard: { type: 'isSettled', params: ({ event }) => event.output.items }, target: 'outcome', actions: { type: 'storeItems', params: ({ event }) => event.output } },
          { target: 'following', actions: { type: 'storeItems', params: ({ event }) => event.output } },
        ],
        onError: { target: 'outcome', actions: { type: 'storeError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
  },
});

export type ReuploadSnapshot = SnapshotFrom<typeof reuploadMachine>;
export type ReuploadStage = 'idle' | 'preparing' | 'empty' | 'confirming' | 'starting' | 'failed' | 'following' | 'outcome' | 'retrying';

export function selectReuploadStage(snapshot: ReuploadSnapshot): ReuploadStage {
  return snapshot.matches('polling') ? 'following' : (snapshot.value as ReuploadStage);
}

export function selectReuploadProgress(snapshot: ReuploadSnapshot): { total: number; done: number; failed: number; underway: number } {
  const { items, refused } = snapshot.context;
  const done = items.filter((i) => i.step === 'done').length;
  const failed = items.filter((i) => i.step === 'failed').length + refused.length;
  return { total: items.length + refused.length, done, failed, underway: items.length - done - items.filter((i) => i.step === 'failed').length };
}
