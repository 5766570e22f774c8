import { assertEvent, assign, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';

/**
 * An access policy's step-up (issue 44): a call answered 401 `stepUp` waits in the worker while the app asks the person
 * for a one-time code. idle → asking (the policy's words) → giving (POST /user/otp/step-up) → idle: the worker replays
 * the waiting calls. A wrong code goes back to asking with the server's reason; cancel closes the dialog and the
 * waiting calls fail with the policy's words. Another call needing a code while the dialog is open joins it.
 */

export type StepUpContext = {
  /** The policy's 401 text: which policy wants a code, and how recent. */
  reason: string;
  error: string | null;
};

export type StepUpEvent = { type: 'stepUp.needed'; message: string } | { type: 'stepUp.submit'; code: string } | { type: 'stepUp.cancel' };

const reasonOf = (error: unknown): string =>
  typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string' ? error.message : String(error);

/** A one-time code: 6 to 8 digits, as the organisation's one-time password policy sets them. */
export const STEP_UP_CODE = /^\d{6,8}$/;

export const stepUpMachine = setup({
  types: { context: {} as StepUpContext, events: {} as StepUpEvent },
  actors: {
    giveCode: fromPromise<unknown, { code: string }>(async () => {
      throw new Error('giveCode not provided');
    }),
  },
  actions: {
    /** Tells the worker that the waiting calls fail (access.cancelStepUp). */
    cancelWaiting: () => undefined,
  },
  guards: {
    codeGiven: ({ event }) => event.type === 'stepUp.submit' && STEP_UP_CODE.test(event.code.trim()),
  },
}).createMachine({
  id: 'stepUp',
  context: { reason: '', error: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'stepUp.needed': {
          target: 'asking',
          actions: assign(({ event }) => ({ reason: event.message, error: null })),
        },
      },
    },
    asking: {
      on: {
        'stepUp.needed': { actions: assign(({ event }) => ({ reason: event.message })) },
        'stepUp.submit': { guard: 'codeGiven', target: 'giving', actions: assign({ error: null }) },
        'stepUp.cancel': { target: 'idle', actions: ['cancelWaiting', assign({ reason: '', error: null })] },
      },
    },
    giving: {
      invoke: {
        id: 'giveCode',
        src: 'giveCode',
        input: ({ event }) => {
          assertEvent(event, 'stepUp.submit');
          return { code: event.code.trim() };
        },
        // The worker replays the waiting calls itself once the code is taken (workers/access.ts).
        onDone: { target: 'idle', actions: assign({ reason: '', error: null }) },
        onError: { target: 'asking', actions: assign(({ event }) => ({ error: reasonOf(event.error) })) },
      },
    },
  },
});

export type StepUpActor = ActorRefFrom<typeof stepUpMachine>;
export type StepUpSnapshot = SnapshotFrom<typeof stepUpMachine>;
export type StepUpState = 'idle' | 'asking' | 'giving';

export const selectStepUpState = (s: StepUpSnapshot): StepUpState => (s.matches('asking') ? 'asking' : s.matches('giving') ? 'giving' : 'idle');
export const selectStepUpReason = (s: StepUpSnapshot) => s.context.reason;
export const selectStepUpError = (s: StepUpSnapshot) => s.context.error;
