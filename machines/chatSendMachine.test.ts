import { assign, createActor, fromPromise, setup, type AnyActorRef } from 'xstate';
import { createTestModel } from 'xstate/graph';
import type { Chat, ChatMessage } from '../contract/chatWidget';
import { chatSendMachine, reasonOf, selectDelivery, type ChatSendReport, type DeliverInput, type SendReceipt } from './chatSendMachine';
import { conversationMachine, selectMessages, selectSends, type LoadHistoryInput } from './conversationMachine';

const chat: Chat = { id: 'buyer:1:c-9', name: '买家 c9 · 店铺', type: 'friend' };
const local: ChatMessage = { id: 'local-1', username: '店铺', mine: true, content: '您好，已发货', timestamp: 1_000 };
const receipt: SendReceipt = { id: 'buyer:m-77', timestamp: 2_000 };
const replyWindowOver = { type: 'BadRequest', code: 400, message: '已超出可回复时间：订单送达72小时后，只能在买家最后一条消息后48小时内回复', silent: false };
const timeout = { type: 'Timeout', code: 504, message: 'ozon接口请求超时', silent: false };

/** The deliver actor's calls, each answered by the test. */
function deliveries() {
  const pending: { input: DeliverInput; resolve: (r: SendReceipt) => void; reject: (e: unknown) => void }[] = [];
  const deliver = fromPromise<SendReceipt | void, DeliverInput>(
    ({ input }) => new Promise<SendReceipt>((resolve, reject) => pending.push({ input, resolve, reject })),
  );
  const settle = async (answer: (call: (typeof pending)[number]) => void) => {
    const call = pending.at(-1);
    if (!call) throw new Error('no send is waiting for the server');
    answer(call);
    // The promise actor reports on a later microtask.
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { pending, deliver, settle };
}

// ---------------------------------------------------------------------------------------------------------------
// The model: the send's graph with the server's answers made events. A resend has states of its own so that each
// simple path (no state twice) can still walk failure → retry → success and failure → retry → failure → discard.

type ModelEvent =
  | { type: 'server.accepts' }
  | { type: 'server.refuses' }
  | { type: 'server.timesOut' }
  | { type: 'server.breaks' }
  | { type: 'user.retries' }
  | { type: 'user.discards' };

type ModelContext = { reason: string | null };

const refused = (reason: string | null) => ({ type: 'refuse' as const, params: { reason } });
/** The server's answers to a send in flight; a refusal goes to `failed`. */
const answers = (failed: string) => ({
  'server.accepts': 'sent',
  'server.refuses': { target: failed, actions: refused(replyWindowOver.message) },
  'server.timesOut': { target: failed, actions: refused(timeout.message) },
  'server.breaks': { target: failed, actions: refused(null) },
});

const model = setup({
  types: { context: {} as ModelContext, events: {} as ModelEvent },
  actions: {
    refuse: assign((_, params: { reason: string | null }) => ({ reason: params.reason })),
  },
}).createMachine({
  id: 'sendModel',
  context: { reason: null },
  initial: 'sending',
  states: {
    sending: { on: answers('failed') },
    failed: { on: { 'user.retries': 'resending', 'user.discards': 'discarded' } },
    resending: { on: answers('failedAgain') },
    failedAgain: { on: { 'user.discards': 'discarded' } },
    sent: { type: 'final' },
    discarded: { type: 'final' },
  },
});

const paths = createTestModel(model).getSimplePaths();

/** What the user sees for each model state, and how many times the message has gone to the server. */
const expected = {
  sending: { delivery: { state: 'sending' }, attempts: 1 },
  failed: { attempts: 1 },
  resending: { delivery: { state: 'sending' }, attempts: 2 },
  failedAgain: { attempts: 2 },
} as const;

describe('chat send actor: every simple path of its graph', () => {
  it('reaches every state, failure and retry included', () => {
    const reached = new Set(paths.flatMap((p) => [p.state, ...p.steps.map((s) => s.state)]).map((s) => String(s.value)));
    expect([...reached].sort()).toEqual(['discarded', 'failed', 'failedAgain', 'resending', 'sending', 'sent']);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const server = deliveries();
      const reports: ChatSendReport[] = [];
      const actor = createActor(
        chatSendMachine.provide({
          actors: { deliver: server.deliver },
          actions: {
            reportSent: (_, params) => reports.push({ type: 'send.sent', localId: local.id, receipt: params.receipt }),
            reportDiscarded: () => reports.push({ type: 'send.discarded', localId: local.id }),
          },
        }),
        { input: { message: local, chat } },
      ).start();

      const inFlight = (state: keyof typeof expected) => () => {
        expect(selectDelivery(actor.getSnapshot())).toEqual({ state: 'sending' });
        expect(server.pending.map((c) => c.input.attempt)).toEqual(Array.from({ length: expected[state].attempts }, (_, i) => i + 1));
        expect(server.pending.at(-1)!.input).toMatchObject({ message: local, chat });
      };
      const refusedWith = (state: keyof typeof expected) => (modelState: { context: ModelContext }) => {
        // A refusal shows as failed with the server's reason, never as sent.
        expect(selectDelivery(actor.getSnapshot())).toEqual({ state: 'failed', reason: modelState.context.reason });
        expect(server.pending).toHaveLength(expected[state].attempts);
        expect(reports).toEqual([]);
      };
      await path.test({
        states: {
          sending: inFlight('sending'),
          resending: inFlight('resending'),
          failed: refusedWith('failed'),
          failedAgain: refusedWith('failedAgain'),
          sent: () => {
            expect(actor.getSnapshot().status).toBe('done');
            expect(selectDelivery(actor.getSnapshot())).toEqual({ state: 'done' });
            expect(reports).toEqual([{ type: 'send.sent', localId: 'local-1', receipt }]);
          },
          discarded: () => {
            expect(actor.getSnapshot().status).toBe('done');
            expect(reports).toEqual([{ type: 'send.discarded', localId: 'local-1' }]);
          },
        },
        events: {
          'server.accepts': () => server.settle((c) => c.resolve(receipt)),
          'server.refuses': () => server.settle((c) => c.reject(replyWindowOver)),
          'server.timesOut': () => server.settle((c) => c.reject(timeout)),
          'server.breaks': () => server.settle((c) => c.reject(new TypeError('x is undefined'))),
          'user.retries': () => actor.send({ type: 'send.retry' }),
          'user.discards': () => actor.send({ type: 'send.discard' }),
        },
      });
      actor.stop();
    });
  }
});

// ---------------------------------------------------------------------------------------------------------------
// The same paths through the conversation that spawns the send: what its message list holds at each step.

describe("conversation machine's send handling: every simple path of the send's graph", () => {
  for (const path of paths) {
    it(path.description, async () => {
      const server = deliveries();
      const actor = createActor(
        conversationMachine.provide({
          actors: {
            loadHistory: fromPromise<ChatMessage[], LoadHistoryInput>(async () => []),
            chatSend: chatSendMachine.provide({ actors: { deliver: server.deliver } }),
          },
        }),
        { input: { chat, messages: [{ id: 'buyer:m-1', username: '买家', mine: false, content: '什么时候发货？', timestamp: 500 }] } },
      ).start();
      actor.send({ type: 'conversation.send', message: local });

      const sendOf = (): AnyActorRef | undefined => selectSends(actor.getSnapshot())['local-1'];
      const shownLocally = (modelState: { value: unknown; context: ModelContext }) => {
        // The message shows at once, in its place, under its local id, with its send running or failed.
        expect(selectMessages(actor.getSnapshot()).map((m) => m.id)).toEqual(['buyer:m-1', 'local-1']);
        const delivery = selectDelivery(sendOf()!.getSnapshot());
        if (String(modelState.value).startsWith('failed')) expect(delivery).toEqual({ state: 'failed', reason: modelState.context.reason });
        else expect(delivery).toEqual({ state: 'sending' });
      };
      await path.test({
        states: {
          sending: shownLocally,
          resending: shownLocally,
          failed: shownLocally,
          failedAgain: shownLocally,
          sent: () => {
            // Accepted: the server's id and time, and no send left to show.
            expect(selectMessages(actor.getSnapshot()).map((m) => [m.id, m.timestamp, m.content])).toEqual([
              ['buyer:m-1', 500, '什么时候发货？'],
              ['buyer:m-77', 2_000, '您好，已发货'],
            ]);
            expect(sendOf()).toBeUndefined();
          },
          discarded: () => {
            expect(selectMessages(actor.getSnapshot()).map((m) => m.id)).toEqual(['buyer:m-1']);
            expect(sendOf()).toBeUndefined();
          },
        },
        events: {
          'server.accepts': () => server.settle((c) => c.resolve(receipt)),
          'server.refuses': () => server.settle((c) => c.reject(replyWindowOver)),
          'server.timesOut': () => server.settle((c) => c.reject(timeout)),
          'server.breaks': () => server.settle((c) => c.reject(new TypeError('x is undefined'))),
          'user.retries': () => actor.send({ type: 'conversation.retry', id: 'local-1' }),
          'user.discards': () => actor.send({ type: 'conversation.discard', id: 'local-1' }),
        },
      });
      actor.stop();
    });
  }

  it('keeps one copy when the echo of the message arrives before the server answers the send', async () => {
    const server = deliveries();
    const actor = createActor(
      conversationMachine.provide({ actors: { chatSend: chatSendMachine.provide({ actors: { deliver: server.deliver } }) } }),
      { input: { chat, messages: [] } },
    ).start();
    actor.send({ type: 'conversation.send', message: local });
    actor.send({ type: 'conversation.received', message: { ...local, id: receipt.id, timestamp: receipt.timestamp } });
    expect(selectMessages(actor.getSnapshot())).toHaveLength(2);
    await server.settle((c) => c.resolve(receipt));
    expect(selectMessages(actor.getSnapshot()).map((m) => m.id)).toEqual(['buyer:m-77']);
  });

  it('keeps the local copy as sent when the host answers without a receipt', async () => {
    const actor = createActor(
      conversationMachine.provide({ actors: { chatSend: chatSendMachine.provide({ actors: { deliver: fromPromise<SendReceipt | void, DeliverInput>(async () => undefined) } }) } }),
      { input: { chat, messages: [] } },
    ).start();
    actor.send({ type: 'conversation.send', message: local });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(selectMessages(actor.getSnapshot())).toEqual([local]);
    expect(selectSends(actor.getSnapshot())).toEqual({});
  });
});

describe('reasonOf', () => {
  it("takes the worker's failure text and nothing from a programming error", () => {
    expect(reasonOf(replyWindowOver)).toBe(replyWindowOver.message);
    expect(reasonOf(new TypeError('x is undefined'))).toBeNull();
    expect(reasonOf({ type: 'Server', code: 500, message: ' ' })).toBeNull();
    expect(reasonOf('boom')).toBeNull();
  });
});
