import { assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { FEATURE_UPDATE_SHOW_DAYS } from '@contract/featureUpdate';
import type { CurrentFeatureUpdate } from '@contract/notice';
import type { ValidityTimes } from '@contract/session';

/**
 * The feature-update dialog (seller-tool §2.4, §4): shows the server's current announcement only if this browser has
 * not acknowledged it, fewer than 30 days have passed since its start date, and follow or plug validity is still in
 * the future. Confirming acknowledges it and asks the caller to refresh.
 */

const DAY_MS = 86_400_000;

export type FeatureUpdateInput = { acknowledgedId: number | null; roleTime: ValidityTimes; now: () => number };
export type FeatureUpdateContext = FeatureUpdateInput & { update: CurrentFeatureUpdate | null };
export type FeatureUpdateEvent = { type: 'featureUpdate.confirm' } | { type: 'featureUpdate.close' };
export type FeatureUpdateEmitted = { type: 'featureUpdate.refresh' };

/** The spec's rule; start dates are China dates (UTC+8). */
export function shouldShowFeatureUpdate(
  update: CurrentFeatureUpdate | null,
  { acknowledgedId, roleTime, now }: Pick<FeatureUpdateInput, 'acknowledgedId' | 'roleTime'> & { now: number },
): boolean {
  if (!update || update.id === acknowledgedId) return false;
  const start = Date.parse(`${update.startDate}T00:00:00+08:00`);
  if (!Number.isFinite(start) || now - start >= FEATURE_UPDATE_SHOW_DAYS * DAY_MS || now < start) return false;
  const future = (time: number | null | undefined) => time !== null && time !== undefined && time > now;
  return future(roleTime.followValidTime) || future(roleTime.plugValidTime);
}

export const featureUpdateMachine = setup({
  types: {
    context: {} as FeatureUpdateContext,
    events: {} as FeatureUpdateEvent,
    emitted: {} as FeatureUpdateEmitted,
    input: {} as FeatureUpdateInput,
  },
  actors: {
    fetchCurrent: fromPromise<CurrentFeatureUpdate | null>(async () => {
      throw new Error('fetchCurrent not provided');
    }),
  },
  actions: {
    persistAcknowledged: (_, _id: number) => {},
  },
  guards: {
    shouldShow: ({ context }) => shouldShowFeatureUpdate(context.update, { ...context, now: context.now() }),
  },
}).createMachine({
  id: 'featureUpdate',
  context: ({ input }) => ({ ...input, update: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'fetchCurrent',
        onDone: { target: 'deciding', actions: assign({ update: ({ event }) => event.output }) },
        // Quiet: an announcement that cannot load is simply not shown.
        onError: 'hidden',
      },
    },
    deciding: {
      always: [{ guard: 'shouldShow', target: 'showing' }, { target: 'hidden' }],
    },
    showing: {
      on: {
        'featureUpdate.confirm': {
          target: 'hidden',
          actions: [
            assign({ acknowledgedId: ({ context }) => context.update?.id ?? null }),
            { type: 'persistAcknowledged', params: ({ context }) => context.update?.id ?? 0 },
            emit({ type: 'featureUpdate.refresh' as const }),
          ],
        },
        'featureUpdate.close': 'hidden',
      },
    },
    hidden: { type: 'final' },
  },
});

export type FeatureUpdateSnapshot = SnapshotFrom<typeof featureUpdateMachine>;
export const selectFeatureUpdateOpen = (snapshot: FeatureUpdateSnapshot) => snapshot.matches('showing');
export const selectFeatureUpdate = (snapshot: Pick<FeatureUpdateSnapshot, 'context'>) => snapshot.context.update;
