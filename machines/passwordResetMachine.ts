import { assertEvent, assign, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { ForgotResetBody, ForgotSendBody, ForgotSent, ResetChannel } from '../contract/passwordReset';

/**
 * "Forgot password" on the login page (contract/passwordReset.ts): asking (name, e-mail or SMS, captcha) → sending
 * (the server sends a 6-digit code) → entering (the code and a new password; back to ask again) → resetting → done
 * (the new password is set; the login page follows). A refusal goes back to the step it came from with its reason.
 */

export type PasswordResetContext = {
  username: string;
  channel: ResetChannel;
  sent: ForgotSent | null;
  error: string | null;
};

export type PasswordResetEvent =
  | { type: 'reset.send'; body: ForgotSendBody }
  | { type: 'reset.submit'; code: string; password: string }
  | { type: 'reset.back' }
  | { type: 'reset.restart' };

const reasonOf = (error: unknown): string =>
  typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string' ? error.message : String(error);

const initial: PasswordResetContext = { username: '', channel: 'email', sent: null, error: null };

export const passwordResetMachine = setup({
  types: { context: {} as PasswordResetContext, events: {} as PasswordResetEvent },
  actors: {
    sendCode: fromPromise<ForgotSent, ForgotSendBody>(async () => {
      throw new Error('sendCode not provided');
    }),
    resetPassword: fromPromise<null, ForgotResetBody>(async () => {
      throw new Error('resetPassword not provided');
    }),
  },
  guards: {
    complete: ({ event }) => event.type === 'reset.send' && event.body.username.trim() !== '' && event.body.code.trim() !== '',
    codeGiven: ({ event }) => event.type === 'reset.submit' && /^\d{6}$/.test(event.code.trim()) && event.password !== '',
  },
}).createMachine({
  id: 'passwordReset',
  context: initial,
  initial: 'asking',
  states: {
    asking: {
      on: {
        'reset.send': {
          guard: 'complete',
          target: 'sending',
          actions: assign(({ event }) => {
            assertEvent(event, 'reset.send');
            return { username: event.body.username.trim(), channel: event.body.channel, error: null };
          }),
        },
      },
    },
    sending: {
      invoke: {
        id: 'sendCode',
        src: 'sendCode',
        input: ({ event }) => {
          assertEvent(event, 'reset.send');
          return { ...event.body, username: event.body.username.trim() };
        },
        onDone: { target: 'entering', actions: assign(({ event }) => ({ sent: event.output })) },
        onError: { target: 'asking', actions: assign(({ event }) => ({ error: reasonOf(event.error) })) },
      },
    },
    entering: {
      on: {
        'reset.submit': { guard: 'codeGiven', target: 'resetting', actions: assign({ error: null }) },
        'reset.back': { target: 'asking', actions: assign({ sent: null, error: null }) },
      },
    },
    resetting: {
      invoke: {
        id: 'resetPassword',
        src: 'resetPassword',
        input: ({ context, event }) => {
          assertEvent(event, 'reset.submit');
          return { username: context.username, code: event.code.trim(), password: event.password };
        },
        onDone: { target: 'done' },
        onError: { target: 'entering', actions: assign(({ event }) => ({ error: reasonOf(event.error) })) },
      },
    },
    done: {
      on: { 'reset.restart': { target: 'asking', actions: assign(initial) } },
    },
  },
});

export type PasswordResetActor = ActorRefFrom<typeof passwordResetMachine>;
export type PasswordResetSnapshot = SnapshotFrom<typeof passwordResetMachine>;
export type PasswordResetState = 'asking' | 'sending' | 'entering' | 'resetting' | 'done';

export const selectResetState = (s: PasswordResetSnapshot): PasswordResetState =>
  s.matches('sending') ? 'sending' : s.matches('entering') ? 'entering' : s.matches('resetting') ? 'resetting' : s.matches('done') ? 'done' : 'asking';
export const selectResetError = (s: PasswordResetSnapshot) => s.context.error;
export const selectResetSent = (s: PasswordResetSnapshot) => s.context.sent;
export const selectResetUsername = (s: PasswordResetSnapshot) => s.context.username;
