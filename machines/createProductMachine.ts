import { assertEvent, assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { CardDraft, CategoryAttribute, CreateItem, CreateTask } from '../contract/create';
import { checkCard, type CardProblem } from '../contract/ozonCard';
import { reasonOf } from './copyActionMachine';

/**
 * Creating one card's variants in a shop as an actor (architecture "Every user action is an actor"):
 *
 *   idle → invalid (Ozon's rules broken: nothing sent; the form shows each against its field) → idle …
 *        → sending → following → outcome → (retry) sending …
 *                  ↘ failed (the call failed as a whole) → (retry) sending
 *
 * `action.start` checks the card with contract/ozonCard.ts against the type's attributes first; only a card Ozon
 * would take is sent. `following` asks the server every `pollMs` until Ozon has settled each variant (listed, or
 * failed with its reasons, which the form shows against their fields); `action.retry` sends the card again (the
 * seller fixes it in the form meanwhile).
 */

export type CreateProductContext = {
  shopId: number | null;
  card: CardDraft | null;
  problems: CardProblem[];
  task: CreateTask | null;
  error: string | null;
  pollMs: number;
};

export type CreateProductEvent =
  | { type: 'action.start'; shopId: number; card: CardDraft; attributes: CategoryAttribute[] | null }
  | { type: 'action.retry'; card: CardDraft; attributes: CategoryAttribute[] | null }
  | { type: 'action.close' };

export type CreateProductEmitted = { type: 'action.finished'; listed: number; failed: number };
export type CreateProductInput = { pollMs?: number };
export type CreateInput = { shopId: number; card: CardDraft };
export type CreateStatusInput = { shopId: number; taskId: number; offerIds: string[] };

/** How often Ozon's import is asked about while variants are unsettled. */
export const CREATE_POLL_MS = 2_000;

const notProvided = (name: string) => () => {
  throw new Error(`createProductMachine: actor '${name}' not provided`);
};

export const isSettled = (item: CreateItem) => item.status === 'listed' || item.status === 'failed';

/** Ozon's rules against the card, or "attributes not loaded" as a problem of the category. */
function problemsOf(card: CardDraft, attributes: CategoryAttribute[] | null): CardProblem[] {
  const problems = checkCard(card, attributes);
  if (attributes === null && card.categoryId !== null && !problems.some((p) => p.field === 'category')) return [{ field: 'category', key: 'cardCategoryRequired' }, ...problems];
  return problems;
}

export const createProductMachine = setup({
  types: {
    context: {} as CreateProductContext,
    events: {} as CreateProductEvent,
    input: {} as CreateProductInput,
    emitted: {} as CreateProductEmitted,
  },
  actors: {
    create: fromPromise<CreateTask, CreateInput>(notProvided('create')),
    status: fromPromise<CreateTask, CreateStatusInput>(notProvided('status')),
  },
  delays: {
    poll: ({ context }) => context.pollMs,
  },
  guards: {
    isValid: ({ event }) => {
      assertEvent(event, ['action.start', 'action.retry']);
      return problemsOf(event.card, event.attributes).length === 0;
    },
    hasUnsettled: ({ context }) => (context.task?.items ?? []).some((i) => !isSettled(i)),
  },
  actions: {
    check: assign(({ context, event }) => {
      assertEvent(event, ['action.start', 'action.retry']);
      return {
        shopId: event.type === 'action.start' ? event.shopId : context.shopId,
        card: event.card,
        problems: problemsOf(event.card, event.attributes),
        error: null,
      };
    }),
    storeTask: assign((_, task: CreateTask) => ({ task })),
    storeError: assign((_, error: unknown) => ({ error: reasonOf(error) })),
    emitFinished: emit(({ context }) => ({
      type: 'action.finished' as const,
      listed: (context.task?.items ?? []).filter((i) => i.status === 'listed').length,
      failed: (context.task?.items ?? []).filter((i) => i.status === 'failed').length,
    })),
    reset: assign({ shopId: null, card: null, problems: [], task: null, error: null }),
  },
}).createMachine({
  id: 'createProduct',
  context: ({ input }) => ({ shopId: null, card: null, problems: [], task: null, error: null, pollMs: input?.pollMs ?? CREATE_POLL_MS }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'action.start': [
          { guard: 'isValid', target: 'sending', actions: 'check' },
          { target: 'invalid', actions: 'check' },
        ],
      },
    },
    /** The card breaks Ozon's rules: nothing was sent. A new start checks it again. */
    invalid: {
      on: {
        'action.start': [
          { guard: 'isValid', target: 'sending', actions: 'check' },
          { target: 'invalid', reenter: true, actions: 'check' },
        ],
        'action.close': { target: 'idle', actions: 'reset' },
      },
    },
    sending: {
      invoke: {
        src: 'create',
        input: ({ context }) => ({ shopId: context.shopId!, card: context.card! }),
        onDone: { target: 'following', actions: { type: 'storeTask', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    /** The create call failed as a whole (network, timeout, a refusal naming a field): retry sends the card again. */
    failed: {
      on: {
        'action.retry': [
          { guard: 'isValid', target: 'sending', actions: 'check' },
          { target: 'invalid', actions: 'check' },
        ],
        'action.close': { target: 'idle', actions: 'reset' },
      },
    },
    following: {
      initial: 'checking',
      states: {
        checking: {
          always: [{ guard: 'hasUnsettled', target: 'waiting' }, { target: '#createProduct.outcome' }],
        },
        waiting: {
          after: { poll: 'asking' },
        },
        asking: {
          invoke: {
            src: 'status',
            input: ({ context }) => ({ shopId: context.task!.shopId, taskId: context.task!.taskId, offerIds: context.task!.items.map((i) => i.offerId) }),
            onDone: { target: 'checking', actions: { type: 'storeTask', params: ({ event }) => event.output } },
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
        'action.retry': [
          { guard: 'isValid', target: 'sending', actions: 'check' },
          { target: 'invalid', actions: 'check' },
        ],
        'action.close': { target: 'idle', actions: 'reset' },
      },
    },
  },
});

export type CreateProductSnapshot = SnapshotFrom<typeof createProductMachine>;
export type CreateProductStep = 'idle' | 'invalid' | 'sending' | 'failed' | 'following' | 'outcome';

export function selectCreateStep(snapshot: CreateProductSnapshot): CreateProductStep {
  if (snapshot.matches('following')) return 'following';
  return snapshot.value as CreateProductStep;
}

/** The variants' standing on Ozon. */
export function selectCreateProgress(snapshot: CreateProductSnapshot) {
  const items = snapshot.context.task?.items ?? [];
  const count = (status: CreateItem['status']) => items.filter((i) => i.status === status).length;
  return { total: items.length, importing: count('importing'), moderating: count('moderating'), listed: count('listed'), failed: count('failed') };
}
