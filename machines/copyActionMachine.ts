import { assertEvent, assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { CopyItem, CopyPreviewAnswer, CopyRecord, CopySource, PriceRule, ShopCurrency } from '../contract/copy';

/**
 * Copying Ozon cards into the seller's shops as an actor (architecture "Every user action is an actor"), from the
 * pasted lines to each card's end on Ozon:
 *
 *   idle → previewing → reviewing → running → following → outcome → retrying → following …
 *                    ↘ failed       ↘ idle     ↘ failed                  ↘ idle | previewing (a new paste)
 *
 * `reviewing` holds each readable card with its target price; the seller may change a card's price, offer id or
 * name, leave cards out, then start. `running` sends the chosen cards in chunks (progress; a cancel stops between
 * chunks) and collects one record per card and shop. `following` asks the server about the unsettled records every
 * `pollMs` until Ozon has settled each (listed or failed with its reasons); `action.retry` copies the failed again.
 */

export type CopyEdit = Partial<Pick<CopyItem, 'price' | 'offerId' | 'name'>>;

export type CopyActionContext = {
  sources: string[];
  rule: PriceRule | null;
  preview: CopyPreviewAnswer | null;
  /** The seller's changes per SKU. */
  edits: Record<number, CopyEdit>;
  /** SKUs left out of the copy. */
  excluded: number[];
  shopIds: number[];
  /** Items still to send in this run, in order; the running chunk is at its head. */
  queue: CopyItem[];
  chunk: CopyItem[];
  /** One per card and shop, as the server last answered. */
  records: CopyRecord[];
  error: string | null;
  pollMs: number;
  chunkSize: number;
  cancelled: boolean;
};

export type CopyActionEvent =
  | { type: 'copy.preview'; sources: string[]; rule: PriceRule }
  | { type: 'copy.edit'; sku: number; edit: CopyEdit }
  | { type: 'copy.exclude'; skus: number[]; excluded: boolean }
  | { type: 'action.start'; shopIds: number[] }
  | { type: 'action.cancel' }
  | { type: 'action.retry' }
  | { type: 'action.close' };

export type CopyActionEmitted = { type: 'action.finished'; listed: number; failed: number };
export type CopyActionInput = { pollMs?: number; chunkSize?: number };

export type PreviewInput = { sources: string[]; rule: PriceRule };
export type CopyChunkInput = { shopIds: number[]; currency: ShopCurrency; items: CopyItem[] };
export type StatusInput = { ids: number[] };

/** How often Ozon's import is asked about while copies are unsettled. */
export const COPY_POLL_MS = 3_000;
/** Cards per /CopyProduct call: small enough to show progress, each call well inside its 200 s. */
export const COPY_CHUNK_SIZE = 50;

const notProvided = (name: string) => () => {
  throw new Error(`copyActionMachine: actor '${name}' not provided`);
};

export function reasonOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error) return String((error as { message: unknown }).message);
  return String(error);
}

export const isSettled = (record: CopyRecord) => record.status === 'listed' || record.status === 'failed';

/** The cards the seller will copy: readable, not left out, with their edits applied. */
export function itemsToCopy(context: Pick<CopyActionContext, 'preview' | 'edits' | 'excluded'>): CopyItem[] {
  const excluded = new Set(context.excluded);
  return (context.preview?.items ?? [])
    .filter((item): item is CopySource & { sku: number } => item.state === 'ok' && item.sku !== null && !excluded.has(item.sku))
    .map((item) => {
      const edit = context.edits[item.sku] ?? {};
      return {
        sku: item.sku,
        price: edit.price ?? item.targetPrice,
        ...(item.targetOldPrice ? { oldPrice: item.targetOldPrice } : {}),
        ...(edit.offerId ? { offerId: edit.offerId } : {}),
        ...(edit.name && edit.name !== item.name ? { name: edit.name } : {}),
      };
    });
}

function mergeRecords(current: readonly CopyRecord[], fresh: readonly CopyRecord[]): CopyRecord[] {
  const byId = new Map(fresh.map((r) => [r.id, r]));
  const merged = current.map((r) => byId.get(r.id) ?? r);
  const known = new Set(current.map((r) => r.id));
  return [...merged, ...fresh.filter((r) => !known.has(r.id))];
}

export const copyActionMachine = setup({
  types: {
    context: {} as CopyActionContext,
    events: {} as CopyActionEvent,
    input: {} as CopyActionInput,
    emitted: {} as CopyActionEmitted,
  },
  actors: {
    preview: fromPromise<CopyPreviewAnswer, PreviewInput>(notProvided('preview')),
    copyChunk: fromPromise<CopyRecord[], CopyChunkInput>(notProvided('copyChunk')),
    status: fromPromise<CopyRecord[], StatusInput>(notProvided('status')),
    retry: fromPromise<CopyRecord[], StatusInput>(notProvided('retry')),
  },
  delays: {
    poll: ({ context }) => context.pollMs,
  },
  guards: {
    hasItems: ({ context, event }) => {
      assertEvent(event, 'action.start');
      return event.shopIds.length > 0 && itemsToCopy(context).length > 0;
    },
    hasQueue: ({ context }) => context.queue.length > 0 && !context.cancelled,
    hasUnsettled: ({ context }) => context.records.some((r) => !isSettled(r)),
    hasFailed: ({ context }) => context.records.some((r) => r.status === 'failed'),
  },
  actions: {
    startPreview: assign(({ event }) => {
      assertEvent(event, 'copy.preview');
      return { sources: event.sources, rule: event.rule, preview: null, edits: {}, excluded: [], error: null };
    }),
    storePreview: assign((_, preview: CopyPreviewAnswer) => ({ preview })),
    storeError: assign((_, error: unknown) => ({ error: reasonOf(error) })),
    edit: assign(({ context, event }) => {
      assertEvent(event, 'copy.edit');
      return { edits: { ...context.edits, [event.sku]: { ...context.edits[event.sku], ...event.edit } } };
    }),
    exclude: assign(({ context, event }) => {
      assertEvent(event, 'copy.exclude');
      const set = new Set(context.excluded);
      for (const sku of event.skus) {
        if (event.excluded) set.add(sku);
        else set.delete(sku);
      }
      return { excluded: [...set] };
    }),
    begin: assign(({ context, event }) => {
      assertEvent(event, 'action.start');
      return { shopIds: event.shopIds, queue: itemsToCopy(context), chunk: [], records: [], error: null, cancelled: false };
    }),
    takeChunk: assign(({ context }) => ({ chunk: context.queue.slice(0, context.chunkSize) })),
    recordChunk: assign(({ context }, records: CopyRecord[]) => ({ records: mergeRecords(context.records, records), queue: context.queue.slice(context.chunk.length), chunk: [] })),
    updateRecords: assign(({ context }, records: CopyRecord[]) => ({ records: mergeRecords(context.records, records) })),
    markCancelled: assign({ cancelled: true }),
    emitFinished: emit(({ context }) => ({
      type: 'action.finished' as const,
      listed: context.records.filter((r) => r.status === 'listed').length,
      failed: context.records.filter((r) => r.status === 'failed').length,
    })),
    reset: assign({ sources: [], rule: null, preview: null, edits: {}, excluded: [], shopIds: [], queue: [], chunk: [], records: [], error: null, cancelled: false }),
  },
}).createMachine({
  id: 'copyAction',
  context: ({ input }) => ({
    sources: [],
    rule: null,
    preview: null,
    edits: {},
    excluded: [],
    shopIds: [],
    queue: [],
    chunk: [],
    records: [],
    error: null,
    pollMs: input?.pollMs ?? COPY_POLL_MS,
    chunkSize: input?.chunkSize ?? COPY_CHUNK_SIZE,
    cancelled: false,
  }),
  initial: 'idle',
  on: {
    'copy.preview': { target: '.previewing', actions: 'startPreview' },
  },
  states: {
    idle: {},
    previewing: {
      invoke: {
        src: 'preview',
        input: ({ context }) => ({ sources: context.sources, rule: context.rule! }),
        onDone: { target: 'reviewing', actions: { type: 'storePreview', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
      on: { 'action.cancel': { target: 'idle', actions: 'reset' } },
    },
    /** The preview failed as a whole (rates or Ozon unreachable): retry reads it again. */
    failed: {
      on: {
        'action.retry': { target: 'previewing', actions: assign({ error: null }) },
        'action.close': { target: 'idle', actions: 'reset' },
      },
    },
    reviewing: {
      on: {
        'copy.edit': { actions: 'edit' },
        'copy.exclude': { actions: 'exclude' },
        'action.start': { guard: 'hasItems', target: 'running', actions: 'begin' },
        'action.close': { target: 'idle', actions: 'reset' },
      },
    },
    running: {
      initial: 'chunk',
      states: {
        chunk: {
          entry: 'takeChunk',
          invoke: {
            src: 'copyChunk',
            input: ({ context }) => ({ shopIds: context.shopIds, currency: context.rule!.currency, items: context.chunk }),
            onDone: { target: 'next', actions: { type: 'recordChunk', params: ({ event }) => event.output } },
            onError: { target: '#copyAction.stopped', actions: { type: 'storeError', params: ({ event }: { event: { error: unknown } }) => event.error } },
          },
        },
        next: {
          always: [{ guard: 'hasQueue', target: 'chunk' }, { target: '#copyAction.following' }],
        },
      },
      on: { 'action.cancel': { actions: 'markCancelled' } },
    },
    /** A copy call failed as a whole (network, timeout, a refusal) with cards still unsent: retry sends them. */
    stopped: {
      on: {
        'action.retry': { target: 'running', actions: assign({ error: null, cancelled: false }) },
        'action.close': { target: 'idle', actions: 'reset' },
      },
    },
    following: {
      initial: 'checking',
      states: {
        checking: {
          always: [{ guard: 'hasUnsettled', target: 'waiting' }, { target: '#copyAction.outcome' }],
        },
        waiting: {
          after: { poll: 'asking' },
        },
        asking: {
          invoke: {
            src: 'status',
            input: ({ context }) => ({ ids: context.records.filter((r) => !isSettled(r)).map((r) => r.id) }),
            onDone: { target: 'checking', actions: { type: 'updateRecords', params: ({ event }) => event.output } },
            // A poll that fails is asked again at the next tick.
            onError: { target: 'waiting' },
          },
        },
      },
      on: { 'action.close': { target: 'idle', actions: 'reset' } },
    },
    outcome: {
      entry: 'emitFinished',
      on: {
        'action.retry': { guard: 'hasFailed', target: 'retrying' },
        'action.close': { target: 'idle', actions: 'reset' },
      },
    },
    retrying: {
      invoke: {
        src: 'retry',
        input: ({ context }) => ({ ids: context.records.filter((r) => r.status === 'failed').map((r) => r.id) }),
        onDone: { target: 'following', actions: { type: 'updateRecords', params: ({ event }) => event.output } },
        onError: { target: 'outcome', actions: { type: 'storeError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
  },
});

export type CopyActionSnapshot = SnapshotFrom<typeof copyActionMachine>;
export type CopyActionStep = 'idle' | 'previewing' | 'failed' | 'reviewing' | 'running' | 'stopped' | 'following' | 'outcome' | 'retrying';

export function selectStep(snapshot: CopyActionSnapshot): CopyActionStep {
  if (snapshot.matches('running')) return 'running';
  if (snapshot.matches('following')) return 'following';
  return snapshot.value as CopyActionStep;
}

/** Cards sent so far against all chosen, and the records' standing. */
export function selectProgress(snapshot: CopyActionSnapshot) {
  const { records, queue, shopIds } = snapshot.context;
  const count = (status: CopyRecord['status']) => records.filter((r) => r.status === status).length;
  const chosen = itemsToCopy(snapshot.context).length;
  return {
    sent: Math.max(0, chosen - queue.length),
    chosen,
    shops: shopIds.length,
    records: records.length,
    listed: count('listed'),
    failed: count('failed'),
    unsettled: records.length - count('listed') - count('failed'),
  };
}

export const selectItems = (snapshot: CopyActionSnapshot) => itemsToCopy(snapshot.context);
