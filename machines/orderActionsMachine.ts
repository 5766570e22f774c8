import { assertEvent, assign, emit, enqueueActions, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { allPending, countOutcomes, failAll, isRetryable, reasonOf, requeueUndone, type ItemOutcome } from './batchOutcomes';

/**
 * A batch action on the order list as an actor (architecture "Every user action is an actor"): ship, set tracking
 * numbers, print labels, update stock. One actor per page; one action at a time, from the user's selection to each
 * posting's outcome:
 *
 *   idle → preparing → confirming → running ⇄ (waitingForLabels) → outcome → running (retry) | idle
 *                    ↘ empty        ↘ idle (cancel)                          ↘ preparing (the next action)
 *                    ↘ running (labels: nothing changes on Ozon, so no confirm step)
 *   preparing ↘ failed → preparing (retry) | idle
 *
 * `preparing` turns the selection into subjects (postings, or offers for stock) with their shops, so the confirm
 * step says what will be done, to how many and in which shops. `running` works through the subjects a chunk at a
 * time (progress, and a cancel that stops between chunks); each subject ends done or failed with its reason, and
 * `action.retry` runs the failed and the not-yet-run ones again. Labels come as one file; right after shipping Ozon
 * has none yet and asks for a minute: the machine waits (`waitingForLabels`, with the time they are due for a
 * countdown) and fetches them by itself.
 *
 * The pattern for other areas' batch actions (products, promotions, returns): keep the states and events, change
 * the kinds, the subjects and the two actors.
 */

export type OrderActionKind = 'ship' | 'tracking' | 'labels' | 'stock' | 'cancel' | 'pickingPdf' | 'pickingXlsx';
/** Actions that change nothing on Ozon, only make a file: they run without a confirm step. */
const FILE_ONLY: ReadonlySet<OrderActionKind> = new Set(['labels', 'pickingPdf', 'pickingXlsx']);

/** A choice the marketplace offers for the whole action (cancel: Ozon's reasons every selected posting shares). */
export type ActionChoice = { id: number; title: string };

/**
 * What an action acts on, one outcome each: a posting (ship, tracking, labels) or an offer (stock). `ref` is how
 * the server names it in a failure (posting number, or order number for an entered order without one; offer id).
 */
export type ActionSubject = { key: string; ref: string; shopId: number; shopName: string; rowIds: string[] };

export type SubjectOutcome = ItemOutcome;

/**
 * What the user enters in the confirm step: the tracking number, the warehouse of each shop (by shop id) and the
 * stock, or the cancel reason.
 */
export type OrderActionParams =
  | { trackingNumber: string }
  | { warehouseByShop: Record<number, string>; stock: number }
  | { reasonId: number; message: string }
  | Record<string, never>;

/** The selection as the page holds it; only the `prepareSubjects` actor reads it. */
export type OrderActionSelection = { kind: 'ids'; ids: string[] } | { kind: 'all'; handle: number; except: string[]; total: number };

export type PrepareSubjectsInput = { kind: OrderActionKind; selection: OrderActionSelection };
/**
 * `omitted`: selected rows left out (beyond the per-action limit, or rows the action does not apply to);
 * `choices`: what the confirm step offers to pick from (cancel: Ozon's reasons).
 */
export type PrepareSubjectsOutput = { subjects: ActionSubject[]; omitted: number; choices?: ActionChoice[] };

export type RunChunkInput = { kind: OrderActionKind; subjects: ActionSubject[]; params: OrderActionParams };
/** Per subject: done, or failed with the reason; labels also answer the file. Ozon's "not ready yet" for labels is its own answer. */
export type RunChunkOutput =
  | { status: 'done'; failures: { ref: string; reason: string }[]; file?: ActionFile }
  | { status: 'notReady'; reason: string; retryInMs?: number };
export type ActionFile = { name: string; type: string; bytes: ArrayBuffer };

export type OrderActionsContext = {
  kind: OrderActionKind | null;
  selection: OrderActionSelection | null;
  subjects: ActionSubject[];
  omitted: number;
  choices: ActionChoice[];
  params: OrderActionParams;
  outcomes: Record<string, SubjectOutcome>;
  /** Keys still to run in this pass, in order; the running chunk is at its head. */
  queue: string[];
  /** Keys of the chunk being run. */
  chunk: string[];
  /** Why preparing failed. */
  error: string | null;
  /** Ozon's reason for the labels' wait, when they are due (ms since epoch), and how many waits so far. */
  labelsReason: string | null;
  labelsDueAt: number | null;
  labelWaits: number;
  labelRetryMs: number;
  chunkSize: number | null;
  cancelled: boolean;
};

export type OrderActionsEvent =
  | { type: 'action.start'; kind: OrderActionKind; selection: OrderActionSelection }
  | { type: 'action.confirm'; params?: OrderActionParams }
  | { type: 'action.cancel' }
  | { type: 'action.retry' }
  | { type: 'action.fetchNow' }
  | { type: 'action.close' };

export type OrderActionsEmitted =
  | { type: 'action.finished'; kind: OrderActionKind; done: number; failed: number }
  | { type: 'action.file'; file: ActionFile };

/** Tests (and areas with other limits) may set the wait for labels and one chunk size for every kind. */
export type OrderActionsInput = { labelRetryMs?: number; chunkSize?: number };

/** Subjects per call: Ozon's stock call takes 100 offers; ship and tracking go in steps that show progress. Labels are one file. */
export const CHUNK_SIZES: Record<OrderActionKind, number> = { ship: 100, tracking: 100, stock: 100, cancel: 20, labels: Number.POSITIVE_INFINITY, pickingPdf: Number.POSITIVE_INFINITY, pickingXlsx: Number.POSITIVE_INFINITY };
/** Ozon makes a label 45–60 s after ship. */
export const LABEL_RETRY_MS = 60_000;
/** Waits for labels before the machine gives up and says why. */
export const MAX_LABEL_WAITS = 3;

const notProvided = (name: string) => () => {
  throw new Error(`orderActionsMachine: actor '${name}' not provided`);
};

/** The subjects of `keys`, in their order. */
const subjectsOf = (context: OrderActionsContext, keys: readonly string[]) => {
  const wanted = new Set(keys);
  return context.subjects.filter((subject) => wanted.has(subject.key));
};

export const orderActionsMachine = setup({
  types: {
    context: {} as OrderActionsContext,
    events: {} as OrderActionsEvent,
    input: {} as OrderActionsInput,
    emitted: {} as OrderActionsEmitted,
  },
  actors: {
    prepareSubjects: fromPromise<PrepareSubjectsOutput, PrepareSubjectsInput>(notProvided('prepareSubjects')),
    runChunk: fromPromise<RunChunkOutput, RunChunkInput>(notProvided('runChunk')),
  },
  delays: {
    labelRetry: ({ context }) => context.labelRetryMs,
  },
  guards: {
    hasSubjects: (_, output: PrepareSubjectsOutput) => output.subjects.length > 0,
    /** Labels and picking lists change nothing on Ozon: they are fetched without a confirm step. */
    needsNoConfirm: ({ context }, output: PrepareSubjectsOutput) => output.subjects.length > 0 && context.kind !== null && FILE_ONLY.has(context.kind),
    hasQueue: ({ context }) => context.queue.length > 0,
    hasRetryable: ({ context }) => Object.values(context.outcomes).some(isRetryable),
    isLabelsNotReady: (_, output: RunChunkOutput) => output.status === 'notReady',
    /** Not ready, and fewer than MAX_LABEL_WAITS waits so far. */
    canWaitForLabels: ({ context }, output: RunChunkOutput) => output.status === 'notReady' && context.labelWaits < MAX_LABEL_WAITS,
  },
  actions: {
    start: assign(({ event }) => {
      assertEvent(event, 'action.start');
      return { kind: event.kind, selection: event.selection, subjects: [], omitted: 0, choices: [], params: {}, outcomes: {}, queue: [], chunk: [], error: null };
    }),
    storeSubjects: assign((_, { subjects, omitted, choices }: PrepareSubjectsOutput) => ({ subjects, omitted, choices: choices ?? [] })),
    storeError: assign((_, error: unknown) => ({ error: reasonOf(error) })),
    /** The confirmed run: every subject pending, all queued. */
    begin: assign(({ context }, params: OrderActionParams) => {
      const queue = context.subjects.map((s) => s.key);
      return { params, outcomes: allPending(queue), queue, cancelled: false, labelWaits: 0 };
    }),
    /** Retry: the failed and the never-run subjects, pending again. */
    requeue: assign(({ context }) => ({ ...requeueUndone(context.subjects.map((s) => s.key), context.outcomes), cancelled: false, labelWaits: 0 })),
    takeChunk: assign(({ context }) => ({ chunk: context.queue.slice(0, context.chunkSize ?? CHUNK_SIZES[context.kind ?? 'ship']), labelsReason: null, labelsDueAt: null })),
    recordChunk: assign(({ context }, output: RunChunkOutput) => {
      const failures = output.status === 'done' ? new Map(output.failures.map((f) => [f.ref, f.reason])) : new Map<string, string>();
      const outcomes = { ...context.outcomes };
      for (const subject of subjectsOf(context, context.chunk)) {
        const reason = failures.get(subject.ref);
        outcomes[subject.key] = reason === undefined ? { status: 'done' } : { status: 'failed', reason };
      }
      return { outcomes, queue: context.queue.slice(context.chunk.length), chunk: [] };
    }),
    /** A whole call failed (network, timeout, a refusal): its subjects failed with that reason; the next chunk goes on. */
    failChunk: assign(({ context }, error: unknown) => ({ outcomes: failAll(context.outcomes, context.chunk, reasonOf(error)), queue: context.queue.slice(context.chunk.length), chunk: [] })),
    waitForLabels: assign(({ context }, output: RunChunkOutput) => {
      const retryInMs = output.status === 'notReady' && output.retryInMs !== undefined ? output.retryInMs : context.labelRetryMs;
      return {
        labelsReason: output.status === 'notReady' ? output.reason : null,
        labelsDueAt: Date.now() + retryInMs,
        labelRetryMs: retryInMs,
        labelWaits: context.labelWaits + 1,
      };
    }),
    /** Waited long enough: the chunk fails with Ozon's reason. */
    giveUpLabels: assign(({ context }, output: RunChunkOutput) => ({
      outcomes: failAll(context.outcomes, context.chunk, output.status === 'notReady' ? output.reason : ''),
      queue: context.queue.slice(context.chunk.length),
      chunk: [],
      labelsDueAt: null,
    })),
    markCancelled: assign({ cancelled: true, chunk: [], labelsDueAt: null }),
    emitFile: enqueueActions(({ enqueue }, output: RunChunkOutput) => {
      if (output.status === 'done' && output.file) enqueue.emit({ type: 'action.file', file: output.file });
    }),
    emitFinished: emit(({ context }) => {
      const { done, failed } = countOutcomes(context.outcomes);
      return { type: 'action.finished' as const, kind: context.kind ?? 'ship', done, failed };
    }),
    reset: assign({ kind: null, selection: null, subjects: [], omitted: 0, choices: [], params: {}, outcomes: {}, queue: [], chunk: [], error: null, labelsReason: null, labelsDueAt: null, labelWaits: 0, cancelled: false }),
  },
}).createMachine({
  id: 'orderActions',
  context: ({ input }) => ({
    kind: null,
    selection: null,
    subjects: [],
    omitted: 0,
    choices: [],
    params: {},
    outcomes: {},
    queue: [],
    chunk: [],
    error: null,
    labelsReason: null,
    labelsDueAt: null,
    labelWaits: 0,
    labelRetryMs: input?.labelRetryMs ?? LABEL_RETRY_MS,
    chunkSize: input?.chunkSize ?? null,
    cancelled: false,
  }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'action.start': { target: 'preparing', actions: 'start' } },
    },
    preparing: {
      invoke: {
        id: 'prepareSubjects',
        src: 'prepareSubjects',
        input: ({ context }) => ({ kind: context.kind!, selection: context.selection! }),
        onDone: [
          {
            guard: { type: 'needsNoConfirm', params: ({ event }) => event.output },
            target: 'running',
            actions: [{ type: 'storeSubjects', params: ({ event }) => event.output }, { type: 'begin', params: {} }],
          },
          { guard: { type: 'hasSubjects', params: ({ event }) => event.output }, target: 'confirming', actions: { type: 'storeSubjects', params: ({ event }) => event.output } },
          { target: 'empty', actions: { type: 'storeSubjects', params: ({ event }) => event.output } },
        ],
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
      on: { 'action.cancel': { target: 'idle', actions: 'reset' } },
    },
    /** None of the selected rows is something this action applies to (e.g. stock for entered orders only). */
    empty: {
      on: { 'action.close': { target: 'idle', actions: 'reset' } },
    },
    failed: {
      on: {
        'action.retry': { target: 'preparing', actions: assign({ error: null }) },
        'action.close': { target: 'idle', actions: 'reset' },
      },
    },
    confirming: {
      on: {
        'action.confirm': { target: 'running', actions: { type: 'begin', params: ({ event }) => event.params ?? {} } },
        'action.cancel': { target: 'idle', actions: 'reset' },
      },
    },
    running: {
      initial: 'chunk',
      states: {
        chunk: {
          entry: 'takeChunk',
          invoke: {
            id: 'runChunk',
            src: 'runChunk',
            input: ({ context }) => ({ kind: context.kind!, subjects: subjectsOf(context, context.chunk), params: context.params }),
            onDone: [
              {
                guard: { type: 'canWaitForLabels', params: ({ event }) => event.output },
                target: 'waitingForLabels',
                actions: { type: 'waitForLabels', params: ({ event }) => event.output },
              },
              { guard: { type: 'isLabelsNotReady', params: ({ event }) => event.output }, target: 'next', actions: { type: 'giveUpLabels', params: ({ event }) => event.output } },
              {
                target: 'next',
                actions: [
                  { type: 'recordChunk', params: ({ event }) => event.output },
                  { type: 'emitFile', params: ({ event }) => event.output },
                ],
              },
            ],
            onError: { target: 'next', actions: { type: 'failChunk', params: ({ event }: { event: { error: unknown } }) => event.error } },
          },
        },
        /** Ozon has no labels yet: fetched again by itself when they are due (`labelsDueAt`), or now on request. */
        waitingForLabels: {
          after: { labelRetry: 'chunk' },
          on: { 'action.fetchNow': 'chunk' },
        },
        next: {
          always: [{ guard: 'hasQueue', target: 'chunk' }, { target: '#orderActions.outcome' }],
        },
      },
      on: { 'action.cancel': { target: 'outcome', actions: 'markCancelled' } },
    },
    outcome: {
      entry: 'emitFinished',
      on: {
        'action.retry': { guard: 'hasRetryable', target: 'running', actions: 'requeue' },
        'action.close': { target: 'idle', actions: 'reset' },
        'action.start': { target: 'preparing', actions: 'start' },
      },
    },
  },
});

export type OrderActionsSnapshot = SnapshotFrom<typeof orderActionsMachine>;

/** The step the page shows: nothing, a spinner, the confirm form, progress, Ozon's label wait, or the outcome. */
export type OrderActionsStep = 'idle' | 'preparing' | 'empty' | 'failed' | 'confirming' | 'running' | 'waitingForLabels' | 'outcome';

export function selectStep(snapshot: OrderActionsSnapshot): OrderActionsStep {
  if (snapshot.matches({ running: 'waitingForLabels' })) return 'waitingForLabels';
  if (snapshot.matches('running')) return 'running';
  return snapshot.value as Exclude<OrderActionsStep, 'running' | 'waitingForLabels'>;
}

/** What the confirm step names: how many subjects, in which shops (with how many each), and rows left out. */
export function selectSummary(snapshot: OrderActionsSnapshot): { count: number; shops: { name: string; count: number }[]; omitted: number } {
  const shops = new Map<string, number>();
  for (const subject of snapshot.context.subjects) shops.set(subject.shopName, (shops.get(subject.shopName) ?? 0) + 1);
  return { count: snapshot.context.subjects.length, shops: [...shops].map(([name, count]) => ({ name, count })), omitted: snapshot.context.omitted };
}

/** Subjects finished in this run (done or failed) against all of it. */
export function selectProgress(snapshot: OrderActionsSnapshot): { finished: number; total: number; done: number; failed: number; pending: number } {
  const counts = countOutcomes(snapshot.context.outcomes);
  return { finished: counts.done + counts.failed, ...counts };
}

/** The subjects that did not get done, with the reason (none for those a cancel left unrun). */
export function selectUnfinished(snapshot: OrderActionsSnapshot): { subject: ActionSubject; reason: string | null }[] {
  const { subjects, outcomes } = snapshot.context;
  return subjects
    .filter((subject) => isRetryable(outcomes[subject.key]))
    .map((subject) => {
      const outcome = outcomes[subject.key]!;
      return { subject, reason: outcome.status === 'failed' ? outcome.reason : null };
    });
}

export const selectCanRetry = (snapshot: OrderActionsSnapshot) => snapshot.can({ type: 'action.retry' });
export const selectChoices = (snapshot: OrderActionsSnapshot) => snapshot.context.choices;
