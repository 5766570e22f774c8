import { assign, fromPromise, setup } from 'xstate';
import type { TrackResult, TrackSearchAnswer } from '../contract/tracking';

/**
 * A parcel-tracking search (/track/track-search): a search while one runs replaces it (the worker cancels the older
 * call: the endpoint is cancellable), a failed one keeps the numbers and offers a retry, the last results stay on
 * screen until new ones arrive. The page provides `track` (the data worker's call).
 */
export const trackSearchMachine = setup({
  types: {
    context: {} as { numbers: string[]; results: TrackResult[]; error: unknown },
    events: {} as { type: 'search'; numbers: string[] } | { type: 'retry' },
  },
  actors: {
    track: fromPromise<TrackSearchAnswer, { numbers: string[] }>(() => Promise.reject(new Error('track is provided by the page'))),
  },
}).createMachine({
  id: 'trackSearch',
  initial: 'idle',
  context: { numbers: [], results: [], error: null },
  on: {
    search: { target: '.searching', reenter: true, actions: assign({ numbers: ({ event }) => event.numbers, error: null }) },
  },
  states: {
    idle: {},
    searching: {
      invoke: {
        src: 'track',
        input: ({ context }) => ({ numbers: context.numbers }),
        onDone: { target: 'done', actions: assign({ results: ({ event }) => event.output.results }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    done: {},
    failed: { on: { retry: { target: 'searching', actions: assign({ error: null }) } } },
  },
});
