import { assertEvent, assign, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { ReturnDetail, RfbsAction, RfbsActionBody } from '../contract/returns';

/**
 * One decision on an rFBS return request (verify, reject with a reason, receive, return money, compensate partly),
 * as the page renders it: idle → confirming (the dialog asks for what the decision needs) → running (Ozon is asked)
 * → done (the request as Ozon now has it) | failed (the reason; retry sends the same decision again). The row in
 * the list follows through the worker's cache.
 */

export type ReturnActionSubject = { id: string; action: RfbsAction; label: string };

export type ReturnActionContext = {
  subject: ReturnActionSubject | null;
  body: RfbsActionBody | null;
  result: ReturnDetail | null;
  error: string | null;
};

export type ReturnActionEvent =
  | { type: 'action.start'; subject: ReturnActionSubject }
  | { type: 'action.confirm'; body: RfbsActionBody }
  | { type: 'action.cancel' }
  | { type: 'action.retry' }
  | { type: 'action.close' };

export type RunReturnActionInput = { body: RfbsActionBody };

/** A failure's text as the worker gives it (already in the user's language). */
export const reasonOf = (error: unknown): string =>
  typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string' ? error.message : String(error);

export const returnActionMachine = setup({
  types: {
    context: {} as ReturnActionContext,
    events: {} as ReturnActionEvent,
  },
  actors: {
    runReturnAction: fromPromise<ReturnDetail, RunReturnActionInput>(async () => {
      throw new Error('runReturnAction not provided');
    }),
  },
  actions: {
    takeSubject: assign(({ event }) => {
      assertEvent(event, 'action.start');
      return { subject: event.subject, body: null, result: null, error: null };
    }),
    takeBody: assign(({ event }) => {
      assertEvent(event, 'action.confirm');
      return { body: event.body, error: null };
    }),
    clear: assign({ subject: null, body: null, result: null, error: null }),
  },
  guards: {
    isForSubject: ({ context, event }) => event.type === 'action.confirm' && context.subject !== null && event.body.id === context.subject.id && event.body.action === context.subject.action,
  },
}).createMachine({
  id: 'returnAction',
  context: { subject: null, body: null, result: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'action.start': { target: 'confirming', actions: 'takeSubject' } },
    },
    confirming: {
      on: {
        'action.confirm': { guard: 'isForSubject', target: 'running', actions: 'takeBody' },
        'action.cancel': { target: 'idle', actions: 'clear' },
      },
    },
    running: {
      invoke: {
        id: 'runReturnAction',
        src: 'runReturnAction',
        input: ({ context }) => ({ body: context.body! }),
        onDone: { target: 'done', actions: assign(({ event }) => ({ result: event.output })) },
        onError: { target: 'failed', actions: assign(({ event }) => ({ error: reasonOf(event.error) })) },
      },
    },
    done: {
      on: {
        'action.close': { target: 'idle', actions: 'clear' },
        'action.start': { target: 'confirming', actions: 'takeSubject' },
      },
    },
    failed: {
      on: {
        'action.retry': { target: 'running', actions: assign({ error: null }) },
        'action.close': { target: 'idle', actions: 'clear' },
        'action.cancel': { target: 'idle', actions: 'clear' },
      },
    },
  },
});

export type ReturnActionActor = ActorRefFrom<typeof returnActionMachine>;
export type ReturnActionSnapshot = SnapshotFrom<typeof returnActionMachine>;

export const selectReturnActionState = (s: ReturnActionSnapshot) =>
  s.matches('confirming') ? 'confirming' : s.matches('running') ? 'running' : s.matches('done') ? 'done' : s.matches('failed') ? 'failed' : 'idle';
export const selectReturnActionSubject = (s: ReturnActionSnapshot) => s.context.subject;
export const selectReturnActionError = (s: ReturnActionSnapshot) => s.context.error;
export const selectReturnActionResult = (s: ReturnActionSnapshot) => s.context.result;
