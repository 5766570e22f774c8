import { assertEvent, assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { allPending, countOutcomes, failAll, reasonOf, requeueUndone, type ItemOutcome } from './batchOutcomes';

/**
 * A batch action of the promotions page as an actor (the shape of orderActionsMachine): add products to an action,
 * remove them, approve or decline discount requests. One actor per page; one action at a time:
 *
 *   idle → confirming (action.edit) → running (a chunk at a time) → outcome → running (retry the failed) | idle
 *                     ↘ idle (cancel)
 *
 * The page hands the subjects (each with what the server needs: a product and its action price, a request and the
 * approved price) to `action.start`; the confirm step shows how many; `running` sends them a chunk at a time with
 * progress and a cancel between chunks; each subject ends done or failed with the server's reason (in the user's
 * language), and `action.retry` runs the failed and the not-yet-run ones again.
 */

export type PromotionActionKind = 'add' | 'remove' | 'approve' | 'decline';

/** One thing acted on. `data` is what the server is sent for it (opaque to the machine). */
export type PromotionSubject = { key: string; label: string; data: Record<string, unknown> };
export type PromotionOutcome = ItemOutcome;

export type RunPromotionChunkInput = { kind: PromotionActionKind; target: Record<string, unknown>; subjects: PromotionSubject[] };
/** Per subject key: null when done, else the reason it failed. */
export type RunPromotionChunkOutput = { failures: Record<string, string> };

export type PromotionActionsContext = {
  kind: PromotionActionKind | null;
  /** What every subject shares (the shop and the action). */
  target: Record<string, unknown>;
  subjects: PromotionSubject[];
  outcomes: Record<string, PromotionOutcome>;
  queue: string[];
  chunk: string[];
  chunkSize: number;
  cancelled: boolean;
};

export type PromotionActionsEvent =
  | { type: 'action.start'; kind: PromotionActionKind; target: Record<string, unknown>; subjects: PromotionSubject[] }
  /** In the confirm step: changes what is sent for one subject (its action price, its approved price). */
  | { type: 'action.edit'; key: string; data: Record<string, unknown> }
  | { type: 'action.confirm' }
  | { type: 'action.cancel' }
  | { type: 'action.retry' }
  | { type: 'action.close' };

export type PromotionActionsEmitted = { type: 'action.finished'; kind: PromotionActionKind; done: number; failed: number };
export type PromotionActionsInput = { chunkSize?: number };

/** Subjects per call: the server batches further by Ozon's limits; smaller chunks show progress. */
export const PROMOTION_CHUNK_SIZE = 200;

const notProvided = (name: string) => () => {
  throw new Error(`promotionActionsMachine: actor '${name}' not provided`);
};

const keysOf = (context: PromotionActionsContext) => context.subjects.map((s) => s.key);

export const promotionActionsMachine = setup({
  types: {
    context: {} as PromotionActionsContext,
    events: {} as PromotionActionsEvent,
    input: {} as PromotionActionsInput,
    emitted: {} as PromotionActionsEmitted,
  },
  actors: {
    runChunk: fromPromise<RunPromotionChunkOutput, RunPromotionChunkInput>(notProvided('runChunk')),
  },
  guards: {
    hasQueue: ({ context }) => context.queue.length > 0 && !context.cancelled,
    hasSubjects: ({ event }) => event.type === 'action.start' && event.subjects.length > 0,
    hasRetryable: ({ context }) => requeueUndone(keysOf(context), context.outcomes).queue.length > 0,
  },
  actions: {
    store: assign(({ event }) => {
      assertEvent(event, 'action.start');
      return {
        kind: event.kind,
        target: event.target,
        subjects: event.subjects,
        outcomes: allPending(event.subjects.map((s) => s.key)),
        queue: event.subjects.map((s) => s.key),
        chunk: [],
        cancelled: false,
      };
    }),
    edit: assign(({ context, event }) => {
      assertEvent(event, 'action.edit');
      return { subjects: context.subjects.map((s) => (s.key === event.key ? { ...s, data: { ...s.data, ...event.data } } : s)) };
    }),
    takeChunk: assign(({ context }) => ({ chunk: context.queue.slice(0, context.chunkSize) })),
    queueRetry: assign(({ context }) => ({ ...requeueUndone(keysOf(context), context.outcomes), cancelled: false })),
    finished: emit(({ context }) => {
      const { done, failed } = countOutcomes(context.outcomes);
      return { type: 'action.finished' as const, kind: context.kind!, done, failed };
    }),
  },
}).createMachine({
  id: 'promotionActions',
  context: ({ input }) => ({ kind: null, target: {}, subjects: [], outcomes: {}, queue: [], chunk: [], chunkSize: input.chunkSize ?? PROMOTION_CHUNK_SIZE, cancelled: false }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'action.start': { guard: 'hasSubjects', target: 'confirming', actions: 'store' } },
    },
    confirming: {
      on: {
        'action.edit': { actions: 'edit' },
        'action.confirm': 'running',
        'action.cancel': { target: 'idle', actions: assign({ kind: null, subjects: [], outcomes: {}, queue: [] }) },
      },
    },
    running: {
      initial: 'next',
      on: { 'action.cancel': { actions: assign({ cancelled: true }) } },
      states: {
        next: {
          always: [{ guard: 'hasQueue', target: 'sending', actions: 'takeChunk' }, { target: '#promotionActions.outcome' }],
        },
        sending: {
          invoke: {
            id: 'runChunk',
            src: 'runChunk',
            input: ({ context }) => ({ kind: context.kind!, target: context.target, subjects: context.subjects.filter((s) => context.chunk.includes(s.key)) }),
            onDone: {
              target: 'next',
              actions: assign(({ context, event }) => ({
                queue: context.queue.slice(context.chunk.length),
                outcomes: {
                  ...context.outcomes,
                  ...Object.fromEntries(
                    context.chunk.map((key) => {
                      const reason = event.output.failures[key];
                      return [key, reason === undefined ? { status: 'done' } : { status: 'failed', reason }] as const;
                    }),
                  ),
                },
              })),
            },
            onError: {
              target: 'next',
              actions: assign(({ context, event }) => ({
                queue: context.queue.slice(context.chunk.length),
                outcomes: failAll(context.outcomes, context.chunk, reasonOf(event.error)),
              })),
            },
          },
        },
      },
    },
    outcome: {
      entry: 'finished',
      on: {
        'action.retry': { guard: 'hasRetryable', target: 'running', actions: 'queueRetry' },
        'action.close': { target: 'idle', actions: assign({ kind: null, subjects: [], outcomes: {}, queue: [], chunk: [] }) },
        'action.start': { guard: 'hasSubjects', target: 'confirming', actions: 'store' },
      },
    },
  },
});

export type PromotionActionsSnapshot = SnapshotFrom<typeof promotionActionsMachine>;

export const selectPhase = (s: PromotionActionsSnapshot): 'idle' | 'confirming' | 'running' | 'outcome' =>
  s.matches('confirming') ? 'confirming' : s.matches('running') ? 'running' : s.matches('outcome') ? 'outcome' : 'idle';
export const selectKind = (s: PromotionActionsSnapshot) => s.context.kind;
export const selectSubjects = (s: PromotionActionsSnapshot) => s.context.subjects;
export const selectOutcomes = (s: PromotionActionsSnapshot) => s.context.outcomes;
export const selectProgress = (s: PromotionActionsSnapshot) => {
  const { total, pending, failed } = countOutcomes(s.context.outcomes);
  return { total, settled: total - pending, failed };
};
