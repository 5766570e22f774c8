import { assertEvent, assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { countOutcomes, failAll, isRetryable, reasonOf, requeueUndone, type ItemOutcome } from './batchOutcomes';

/**
 * A batch action on the product list as an actor, on the pattern of machines/orderActionsMachine.ts: set prices,
 * set stock at a warehouse, archive, unarchive, delete archived, put pictures on the cards. One actor per page, one action at a time, from the
 * selection to each product's outcome:
 *
 *   idle → preparing → confirming → running (chunk by chunk) → outcome → running (retry the failed) | idle
 *                    ↘ empty        ↘ idle (cancel)
 *
 * An action that spends one of Ozon's daily quotas (pictures: card updates) reads each shop's quota first; a
 * selection past what remains today is not confirmed as it is: the user sends only the products that fit (the
 * others are refused with the quota's reason, unsent) or cancels. The server refuses past the quota too.
 *   preparing ↘ failed → preparing (retry) | idle
 *
 * An inline edit of one product starts with its values (`params`) and skips the confirm step. Each chunk is sent
 * with one batch id, so a chunk resent after a crash sends nothing twice (the server records what went through).
 */
export type ProductActionKind = 'price' | 'stock' | 'archive' | 'unarchive' | 'deleteArchive' | 'image';

/**
 * A product the action works on; `label` is what the outcome list names it by (offer id and name). `minPrice`: the
 * card's minimum price (0: none), which a new price left without one must not fall under.
 */
export type ProductSubject = { id: string; label: string; shopId: number; shopName: string; minPrice?: number };
export type ProductSubjectOutcome = ItemOutcome;

/**
 * The price (old and minimum price optional, 0: none), the warehouse of each shop (by shop id) and the stock, or the pictures (the first the main one; `keep`:
 * the card keeps its other pictures after them) the user entered.
 */
export type ProductActionParams =
  | { price: number; oldPrice?: number; minPrice?: number }
  | { warehouseByShop: Record<number, string>; stock: number }
  | { images: string[]; keep: boolean }
  | Record<string, never>;

export type ProductActionSelection = { kind: 'ids'; ids: string[] } | { kind: 'all'; handle: number; except: string[]; total: number };

/**
 * One shop's part of the daily Ozon quota the action spends (contract/products.ts ACTION_DAILY_QUOTA), read before
 * the confirm step: `need` products of the selection are in the shop, `left` remain today (null: no limit, or it
 * could not be read, `error` then says why, and Ozon decides). `reason` is the refusal the user reads for those past it.
 */
export type ProductActionQuota = {
  shopId: number;
  shopName: string;
  need: number;
  left: number | null;
  usage: number;
  limit: number;
  resetAt: string;
  error: string | null;
  reason: string;
};

export type PrepareProductsInput = { kind: ProductActionKind; selection: ProductActionSelection };
/** `omitted`: selected products past what one run reads; `notApplicable`: selected ones the action does not apply to. */
export type PrepareProductsOutput = { subjects: ProductSubject[]; omitted: number; notApplicable?: number; quotas?: ProductActionQuota[] };
export type RunProductsInput = { kind: ProductActionKind; subjects: ProductSubject[]; params: ProductActionParams; batchId: string };
export type RunProductsOutput = { outcomes: { id: string; ok: boolean; message: string }[] };

export type ProductActionsContext = {
  kind: ProductActionKind | null;
  selection: ProductActionSelection | null;
  subjects: ProductSubject[];
  omitted: number;
  /** Selected products the action does not apply to (unarchiving one that is not archived). */
  notApplicable: number;
  /** The daily quota per shop the action spends (empty: it spends none). */
  quotas: ProductActionQuota[];
  params: ProductActionParams;
  /** Given with the start (an inline edit): run at once. */
  direct: boolean;
  outcomes: Record<string, ProductSubjectOutcome>;
  queue: string[];
  chunk: string[];
  runs: number;
  error: string | null;
};

export type ProductActionsEvent =
  | { type: 'action.start'; kind: ProductActionKind; selection: ProductActionSelection; params?: ProductActionParams }
  /** `fit`: send only the products within today's quota; the others are refused with its reason, unsent. */
  | { type: 'action.confirm'; params?: ProductActionParams; fit?: boolean }
  | { type: 'action.cancel' }
  | { type: 'action.retry' }
  | { type: 'action.close' };

export type ProductActionsEmitted = { type: 'action.finished'; kind: ProductActionKind; done: number; failed: number };

/**
 * Products per step: Ozon takes prices by 1,000 and stocks by 100; pictures go one product a call (10 a step, for
 * progress); the rest by 100 for progress.
 */
export const PRODUCT_CHUNK_SIZES: Record<ProductActionKind, number> = { price: 1_000, stock: 100, archive: 100, unarchive: 100, deleteArchive: 100, image: 10 };

const notProvided = (name: string) => () => {
  throw new Error(`productActionsMachine: actor '${name}' not provided`);
};

let batches = 0;
const newBatchId = () => `${Date.now().toString(36)}-${(batches++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

const isShort = (quota: ProductActionQuota) => quota.left !== null && quota.need > quota.left;

/** Which subjects today's quotas leave out: in each short shop, those past what remains (in the selection's order). */
function pastQuota(subjects: readonly ProductSubject[], quotas: readonly ProductActionQuota[]): Map<string, string> {
  const short = new Map(quotas.filter(isShort).map((q) => [q.shopId, q]));
  const taken = new Map<number, number>();
  const out = new Map<string, string>();
  for (const subject of subjects) {
    const quota = short.get(subject.shopId);
    if (!quota) continue;
    const n = (taken.get(subject.shopId) ?? 0) + 1;
    taken.set(subject.shopId, n);
    if (n > quota.left!) out.set(subject.id, quota.reason);
  }
  return out;
}

const empty = (): Omit<ProductActionsContext, 'runs'> => ({ kind: null, selection: null, subjects: [], omitted: 0, notApplicable: 0, quotas: [], params: {}, direct: false, outcomes: {}, queue: [], chunk: [], error: null });

export const productActionsMachine = setup({
  types: {
    context: {} as ProductActionsContext,
    events: {} as ProductActionsEvent,
    emitted: {} as ProductActionsEmitted,
  },
  actors: {
    prepareProducts: fromPromise<PrepareProductsOutput, PrepareProductsInput>(notProvided('prepareProducts')),
    runProducts: fromPromise<RunProductsOutput, RunProductsInput>(notProvided('runProducts')),
  },
  guards: {
    hasSubjects: (_, output: PrepareProductsOutput) => output.subjects.length > 0,
    isDirect: ({ context }, output: PrepareProductsOutput) => context.direct && output.subjects.length > 0,
    hasQueue: ({ context }) => context.queue.length > 0,
    /** The whole selection fits today's quotas, or the user chose to send only what fits (and something does). */
    isWithinQuota: ({ context, event }) => {
      if (event.type !== 'action.confirm') return false;
      if (!context.quotas.some(isShort)) return true;
      return event.fit === true && pastQuota(context.subjects, context.quotas).size < context.subjects.length;
    },
    hasRetryable: ({ context }) => Object.values(context.outcomes).some(isRetryable),
  },
  actions: {
    start: assign(({ event }) => {
      assertEvent(event, 'action.start');
      return { ...empty(), kind: event.kind, selection: event.selection, params: event.params ?? {}, direct: event.params !== undefined };
    }),
    storeSubjects: assign((_, { subjects, omitted, notApplicable, quotas }: PrepareProductsOutput) => ({ subjects, omitted, notApplicable: notApplicable ?? 0, quotas: quotas ?? [] })),
    storeError: assign((_, error: unknown) => ({ error: reasonOf(error) })),
    begin: assign(({ context }, params: ProductActionParams | undefined) => {
      const outcomes: Record<string, ProductSubjectOutcome> = {};
      const past = pastQuota(context.subjects, context.quotas);
      for (const subject of context.subjects) {
        const reason = past.get(subject.id);
        outcomes[subject.id] = reason === undefined ? { status: 'pending' } : { status: 'failed', reason };
      }
      return { params: params ?? context.params, outcomes, queue: context.subjects.filter((s) => !past.has(s.id)).map((s) => s.id) };
    }),
    requeue: assign(({ context }) => requeueUndone(context.subjects.map((s) => s.id), context.outcomes)),
    takeChunk: assign(({ context }) => ({ chunk: context.queue.slice(0, PRODUCT_CHUNK_SIZES[context.kind ?? 'price']), runs: context.runs + 1 })),
    recordChunk: assign(({ context }, output: RunProductsOutput) => {
      const outcomes = { ...context.outcomes };
      // A product answered twice (stock at several warehouses) is done only when every answer is.
      const seen = new Set<string>();
      for (const answer of output.outcomes) {
        const before = seen.has(answer.id) ? outcomes[answer.id] : undefined;
        seen.add(answer.id);
        if (before?.status === 'failed') continue;
        outcomes[answer.id] = answer.ok ? { status: 'done' } : { status: 'failed', reason: answer.message };
      }
      return { outcomes, queue: context.queue.slice(context.chunk.length), chunk: [] };
    }),
    failChunk: assign(({ context }, error: unknown) => ({ outcomes: failAll(context.outcomes, context.chunk, reasonOf(error)), queue: context.queue.slice(context.chunk.length), chunk: [] })),
    emitFinished: emit(({ context }) => {
      const { done, failed } = countOutcomes(context.outcomes);
      return { type: 'action.finished' as const, kind: context.kind ?? 'price', done, failed };
    }),
    reset: assign(() => empty()),
  },
}).createMachine({
  id: 'productActions',
  context: () => ({ ...empty(), runs: 0 }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'action.start': { target: 'preparing', actions: 'start' } },
    },
    preparing: {
      invoke: {
        src: 'prepareProducts',
        input: ({ context }) => ({ kind: context.kind!, selection: context.selection! }),
        onDone: [
          {
            guard: { type: 'isDirect', params: ({ event }) => event.output },
            target: 'running',
            actions: [{ type: 'storeSubjects', params: ({ event }) => event.output }, { type: 'begin', params: undefined }],
          },
          { guard: { type: 'hasSubjects', params: ({ event }) => event.output }, target: 'confirming', actions: { type: 'storeSubjects', params: ({ event }) => event.output } },
          { target: 'empty', actions: { type: 'storeSubjects', params: ({ event }) => event.output } },
        ],
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
      on: { 'action.cancel': { target: 'idle', actions: 'reset' } },
    },
    empty: { on: { 'action.close': { target: 'idle', actions: 'reset' } } },
    failed: {
      on: {
        'action.retry': { target: 'preparing', actions: assign({ error: null }) },
        'action.close': { target: 'idle', actions: 'reset' },
      },
    },
    confirming: {
      on: {
        'action.confirm': { guard: 'isWithinQuota', target: 'running', actions: { type: 'begin', params: ({ event }) => event.params } },
        'action.cancel': { target: 'idle', actions: 'reset' },
      },
    },
    running: {
      initial: 'chunk',
      states: {
        chunk: {
          entry: 'takeChunk',
          invoke: {
            src: 'runProducts',
            input: ({ context }) => {
              const wanted = new Set(context.chunk);
              return { kind: context.kind!, subjects: context.subjects.filter((s) => wanted.has(s.id)), params: context.params, batchId: newBatchId() };
            },
            onDone: { target: 'next', actions: { type: 'recordChunk', params: ({ event }) => event.output } },
            onError: { target: 'next', actions: { type: 'failChunk', params: ({ event }: { event: { error: unknown } }) => event.error } },
          },
        },
        next: {
          always: [{ guard: 'hasQueue', target: 'chunk' }, { target: '#productActions.outcome' }],
        },
      },
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

export type ProductActionsSnapshot = SnapshotFrom<typeof productActionsMachine>;
export type ProductActionsStep = 'idle' | 'preparing' | 'empty' | 'failed' | 'confirming' | 'running' | 'outcome';

export function selectProductStep(snapshot: ProductActionsSnapshot): ProductActionsStep {
  return (snapshot.matches('running') ? 'running' : snapshot.value) as ProductActionsStep;
}

export function selectProductProgress(snapshot: ProductActionsSnapshot): { total: number; done: number; failed: number } {
  const { total, done, failed } = countOutcomes(snapshot.context.outcomes);
  return { total, done, failed };
}

/** The products not done, with the reason, in the order they were selected. */
export function selectProductFailures(snapshot: ProductActionsSnapshot): { subject: ProductSubject; reason: string }[] {
  const { subjects, outcomes } = snapshot.context;
  return subjects.flatMap((subject) => {
    const outcome = outcomes[subject.id];
    return outcome?.status === 'failed' ? [{ subject, reason: outcome.reason }] : [];
  });
}

/** The shops whose share of the selection exceeds what today's quota leaves. */
export function selectQuotaShortfalls(snapshot: ProductActionsSnapshot): ProductActionQuota[] {
  return snapshot.context.quotas.filter(isShort);
}

/** How many of the selection today's quotas take (all of them when none is short). */
export function selectWithinQuota(snapshot: ProductActionsSnapshot): number {
  const { subjects, quotas } = snapshot.context;
  return subjects.length - pastQuota(subjects, quotas).size;
}
