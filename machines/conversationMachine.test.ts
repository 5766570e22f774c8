import { createActor, fromPromise, waitFor } from 'xstate';
import type { Chat, ChatMessage } from '../contract/chatWidget';
import { conversationMachine, selectTabBadge, selectUnreadCount, type LoadHistoryInput } from './conversationMachine';

const chat: Chat = { id: 1, name: '韩梅梅', type: 'friend' };
const msg = (id: number, mine = false): ChatMessage => ({ id, username: mine ? 'me' : '韩梅梅', mine, content: `m${id}`, timestamp: id });

function start(input: { active?: boolean; pageVisible?: boolean; messages?: ChatMessage[] } = {}, older: ChatMessage[] = []) {
  const calls: LoadHistoryInput[] = [];
  const machine = conversationMachine.provide({
    actors: {
      loadHistory: fromPromise<ChatMessage[], LoadHistoryInput>(async ({ input }) => {
        calls.push(input);
        return older;
      }),
    },
  });
  return { actor: createActor(machine, { input: { chat, ...input } }).start(), calls };
}

describe('conversationMachine unread counting', () => {
  it("counts only other people's messages", () => {
    const { actor } = start({ active: false });
    actor.send({ type: 'conversation.received', message: msg(1) });
    actor.send({ type: 'conversation.received', message: msg(2, true) });
    actor.send({ type: 'conversation.received', message: msg(3) });
    expect(selectUnreadCount(actor.getSnapshot())).toBe(2);
    expect(actor.getSnapshot().context.messages).toHaveLength(3);
  });

  it('reads a message at once when its tab shows the bottom of the list on a visible page', () => {
    const { actor } = start({ active: true });
    actor.send({ type: 'conversation.received', message: msg(1) });
    expect(selectUnreadCount(actor.getSnapshot())).toBe(0);
  });

  it('keeps messages unread while the page is hidden, even when scrolled into view', () => {
    const { actor } = start({ active: true, pageVisible: false });
    actor.send({ type: 'conversation.received', message: msg(1) });
    actor.send({ type: 'conversation.seen', ids: [1] });
    expect(selectUnreadCount(actor.getSnapshot())).toBe(1);
    actor.send({ type: 'conversation.visibility', visible: true });
    expect(selectUnreadCount(actor.getSnapshot())).toBe(0);
  });

  it('shows a tab badge when scrolled up, and clears messages as they scroll into view', () => {
    const { actor } = start({ active: true });
    actor.send({ type: 'conversation.scrolled', atBottom: false });
    actor.send({ type: 'conversation.received', message: msg(1) });
    actor.send({ type: 'conversation.received', message: msg(2) });
    expect(selectTabBadge(actor.getSnapshot())).toBe(2);
    actor.send({ type: 'conversation.seen', ids: [1] });
    expect(selectTabBadge(actor.getSnapshot())).toBe(1);
  });

  it('reads everything on a tab switch', () => {
    const { actor } = start({ active: false });
    actor.send({ type: 'conversation.received', message: msg(1) });
    actor.send({ type: 'conversation.received', message: msg(2) });
    actor.send({ type: 'conversation.activated' });
    expect(selectUnreadCount(actor.getSnapshot())).toBe(0);
  });

  it('ignores a message it already has', () => {
    const { actor } = start({ active: false });
    actor.send({ type: 'conversation.received', message: msg(1) });
    actor.send({ type: 'conversation.received', message: msg(1) });
    expect(actor.getSnapshot().context.messages).toHaveLength(1);
    expect(selectUnreadCount(actor.getSnapshot())).toBe(1);
  });
});

describe('conversationMachine history', () => {
  it('asks with the oldest message shown and prepends older messages', async () => {
    const { actor, calls } = start({ messages: [msg(10), msg(11)] }, [msg(8), msg(9)]);
    const prepended: number[] = [];
    actor.on('historyPrepended', (e) => prepended.push(e.count));
    actor.send({ type: 'conversation.historyRequested' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(calls[0]?.lastMessage?.id).toBe(10);
    expect(actor.getSnapshot().context.messages.map((m) => m.id)).toEqual([8, 9, 10, 11]);
    expect(prepended).toEqual([2]);
  });

  it('stops asking once the host has nothing older', async () => {
    const { actor, calls } = start({ messages: [msg(10)] }, []);
    actor.send({ type: 'conversation.historyRequested' });
    await waitFor(actor, (s) => s.matches('idle') && s.context.historyExhausted);
    actor.send({ type: 'conversation.historyRequested' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(calls).toHaveLength(1);
  });
});

describe('conversationMachine recent history on opening', () => {
  it('loads the recent messages the first time the conversation is shown, as history: nothing unread, nothing announced', async () => {
    const { actor, calls } = start({ active: false }, [msg(1), msg(2), msg(3, true)]);
    const announced: unknown[] = [];
    actor.on('incoming', (e) => announced.push(e));
    // Not shown yet: nothing is loaded.
    expect(calls).toHaveLength(0);
    actor.send({ type: 'conversation.activated' });
    await waitFor(actor, (s) => s.context.recentLoaded);
    expect(calls).toEqual([{ chat, lastMessage: null }]);
    expect(actor.getSnapshot().context.messages.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(selectUnreadCount(actor.getSnapshot())).toBe(0);
    expect(announced).toHaveLength(0);
    // Shown again later: not loaded twice.
    actor.send({ type: 'conversation.deactivated' });
    actor.send({ type: 'conversation.activated' });
    expect(calls).toHaveLength(1);
  });

  it('loads what lies before a message that arrived live before the conversation was opened', async () => {
    const { actor, calls } = start({ active: false }, [msg(1)]);
    actor.send({ type: 'conversation.received', message: msg(5) });
    actor.send({ type: 'conversation.activated' });
    await waitFor(actor, (s) => s.context.recentLoaded);
    expect(calls[0]!.lastMessage?.id).toBe(5);
    expect(actor.getSnapshot().context.messages.map((m) => m.id)).toEqual([1, 5]);
  });

  it('never loads history for the system tab', () => {
    const { actor, calls } = (() => {
      const calls: LoadHistoryInput[] = [];
      const machine = conversationMachine.provide({
        actors: { loadHistory: fromPromise<ChatMessage[], LoadHistoryInput>(async ({ input }) => (calls.push(input), [])) },
      });
      return { actor: createActor(machine, { input: { chat: { id: -1, name: '系统消息', type: 'sys_msg' as const }, active: true } }).start(), calls };
    })();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(calls).toHaveLength(0);
  });
});

describe('conversationMachine messages loaded by the host at once', () => {
  it('merges them in time order without duplicates, counts none unread and asks for no recent history', async () => {
    const { actor, calls } = start({ active: false, messages: [] });
    actor.send({ type: 'conversation.received', message: msg(50) });
    const emitted: number[] = [];
    actor.on('incoming', () => emitted.push(1));
    actor.send({ type: 'conversation.loaded', messages: Array.from({ length: 100 }, (_, i) => msg(i + 1)) });
    const { messages } = actor.getSnapshot().context;
    expect(messages).toHaveLength(100);
    expect(messages.map((m) => m.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    // Only the live message before the load counts; the loaded ones arrive as history.
    expect(selectUnreadCount(actor.getSnapshot())).toBe(1);
    expect(emitted).toHaveLength(0);
    actor.send({ type: 'conversation.activated' });
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toHaveLength(0);
  });
});
