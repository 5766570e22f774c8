import { assign, sendParent, setup, fromPromise } from 'xstate';
import type { Chat, ChatId, ChatMessage } from '../contract/chatWidget';

/**
 * One outgoing chat message: the conversation machine spawns one per message the user sends (text, image or file
 * tokens alike). `sending` runs the `deliver` actor (the host's call to the server); the server's answer makes it
 * `sent` with the server's id and time, a refusal (a 400 for an expired reply window, a 401, a 504 ...) makes it
 * `failed` with the server's reason, in the user's language as the worker gives it. From `failed` the user retries or
 * discards. The machine reports to its parent by name (`reportSent`, `reportDiscarded`); the conversation swaps the
 * local copy for the server's and drops discarded messages.
 */

/** What the server answered for an accepted message. `void` from a host that answers nothing: the message stays as shown. */
export type SendReceipt = { id: ChatId; timestamp: number };

export type ChatSendInput = { message: ChatMessage; chat: Chat };

/** `attempt` counts from 1; a host that sends a message in several calls can resume a retry where the last one stopped. */
export type DeliverInput = ChatSendInput & { attempt: number };

export type ChatSendContext = ChatSendInput & {
  attempt: number;
  /** The server's reason for the last refusal; null when it gave none a user can read (the widget says "not sent"). */
  reason: string | null;
};

export type ChatSendEvent = { type: 'send.retry' } | { type: 'send.discard' };

/** What a send reports to the conversation that spawned it. */
export type ChatSendReport =
  | { type: 'send.sent'; localId: ChatId; receipt: SendReceipt | null }
  | { type: 'send.discarded'; localId: ChatId };

/**
 * The reason a user reads: the worker's typed failures (`{ type, code, message }`) carry the server's text or the
 * error catalogue's, in the user's language. Anything else (a programming error) has no reason a user can act on.
 */
export function reasonOf(error: unknown): string | null {
  if (typeof error !== 'object' || error === null || !('type' in error) || !('code' in error) || !('message' in error)) return null;
  const text = error.message;
  return typeof text === 'string' && text.trim() ? text : null;
}

export const chatSendMachine = setup({
  types: {
    context: {} as ChatSendContext,
    input: {} as ChatSendInput,
    events: {} as ChatSendEvent,
  },
  actors: {
    deliver: fromPromise<SendReceipt | void, DeliverInput>(async () => {
      throw new Error('deliver not provided');
    }),
  },
  actions: {
    reportSent: sendParent(({ context }, params: { receipt: SendReceipt | null }): ChatSendReport => ({
      type: 'send.sent',
      localId: context.message.id,
      receipt: params.receipt,
    })),
    reportDiscarded: sendParent(({ context }): ChatSendReport => ({ type: 'send.discarded', localId: context.message.id })),
  },
}).createMachine({
  id: 'chatSend',
  context: ({ input }) => ({ ...input, attempt: 1, reason: null }),
  initial: 'sending',
  states: {
    sending: {
      invoke: {
        src: 'deliver',
        input: ({ context }) => ({ message: context.message, chat: context.chat, attempt: context.attempt }),
        onDone: {
          target: 'sent',
          actions: { type: 'reportSent', params: ({ event }) => ({ receipt: event.output ?? null }) },
        },
        onError: {
          target: 'failed',
          actions: assign({ reason: ({ event }) => reasonOf(event.error) }),
        },
      },
    },
    failed: {
      on: {
        'send.retry': { target: 'sending', actions: assign({ attempt: ({ context }) => context.attempt + 1, reason: null }) },
        'send.discard': 'discarded',
      },
    },
    sent: { type: 'final' },
    discarded: { type: 'final', entry: 'reportDiscarded' },
  },
});

export type ChatSendSnapshot = { value: unknown; context: ChatSendContext };

export type Delivery = { state: 'sending' } | { state: 'failed'; reason: string | null } | { state: 'done' };

/** What the message list shows beside an outgoing message. */
export const selectDelivery = (s: ChatSendSnapshot): Delivery =>
  s.value === 'sending' ? { state: 'sending' } : s.value === 'failed' ? { state: 'failed', reason: s.context.reason } : { state: 'done' };
