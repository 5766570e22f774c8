import { createActor, fromPromise } from 'xstate';
import { chatKey, type Chat, type ChatMessage } from '../contract/chatWidget';
import { chatWindowMachine, selectFrame, type ChatWindowEmitted } from './chatWindowMachine';
import { chatSendMachine, type DeliverInput, type SendReceipt } from './chatSendMachine';
import { conversationMachine, selectMessages, selectSends, selectUnreadCount } from './conversationMachine';

const friend: Chat = { id: 1, name: '韩梅梅', type: 'friend', online: true };
const group: Chat = { id: 1, name: '卖家群', type: 'group' };
const msg = (id: number): ChatMessage => ({ id, username: 'x', mine: false, content: 'hi', timestamp: id });

function start(channels: Chat[] = [friend], fixed = false) {
  const saved: Chat[][] = [];
  const machine = chatWindowMachine.provide({ actions: { persistChannels: ({ context }) => saved.push(context.channels) } });
  const actor = createActor(machine, { input: { channels, fixed } }).start();
  const emitted: ChatWindowEmitted[] = [];
  actor.on('*', (e) => emitted.push(e));
  return { actor, saved, emitted };
}

describe('chatWindowMachine', () => {
  it('adds a channel only when no channel has the same id and type, and saves the list', () => {
    const { actor, saved } = start();
    actor.send({ type: 'channel.add', chat: { ...friend } });
    expect(actor.getSnapshot().context.channels).toHaveLength(1);
    actor.send({ type: 'channel.add', chat: group });
    expect(actor.getSnapshot().context.channels.map(chatKey)).toEqual(['friend:1', 'group:1']);
    expect(saved.at(-1)).toHaveLength(2);
  });

  it('adds the channel of an incoming message it does not know and counts the message there', () => {
    const { actor } = start();
    actor.send({ type: 'message.incoming', message: { ...msg(5), chat: group } });
    const { channels, conversations } = actor.getSnapshot().context;
    expect(channels.map(chatKey)).toContain('group:1');
    expect(selectUnreadCount(conversations['group:1']!.getSnapshot())).toBe(1);
  });

  it('removing a channel emits removeChat and activates a neighbour', () => {
    const { actor, emitted, saved } = start([friend, group]);
    actor.send({ type: 'channel.remove', key: 'friend:1' });
    expect(emitted).toContainEqual({ type: 'removeChat', chat: { id: 1, name: '韩梅梅', type: 'friend' } });
    expect(actor.getSnapshot().context.activeKey).toBe('group:1');
    expect(saved.at(-1)).toEqual([group]);
  });

  it('switching tabs reads the conversation switched to', () => {
    const { actor } = start([friend, group]);
    actor.send({ type: 'message.incoming', message: { ...msg(1), chat: group } });
    const groupRef = actor.getSnapshot().context.conversations['group:1']!;
    expect(selectUnreadCount(groupRef.getSnapshot())).toBe(1);
    actor.send({ type: 'channel.activate', key: 'group:1' });
    expect(selectUnreadCount(groupRef.getSnapshot())).toBe(0);
  });

  it('drags unless fixed', () => {
    const free = start();
    free.actor.send({ type: 'window.drag', position: { x: 10, y: 20 } });
    expect(free.actor.getSnapshot().context.position).toEqual({ x: 10, y: 20 });
    const fixed = start([friend], true);
    fixed.actor.send({ type: 'window.drag', position: { x: 10, y: 20 } });
    expect(fixed.actor.getSnapshot().context.position).toBeNull();
  });

  it('tells the host about pin, minimise, maximise and close', () => {
    const { actor, emitted } = start();
    actor.send({ type: 'window.pin' });
    actor.send({ type: 'window.maximise' });
    expect(selectFrame(actor.getSnapshot())).toBe('maximised');
    actor.send({ type: 'window.minimise' });
    expect(selectFrame(actor.getSnapshot())).toBe('minimised');
    actor.send({ type: 'window.close' });
    expect(selectFrame(actor.getSnapshot())).toBe('closed');
    expect(emitted.map((e) => e.type)).toEqual(['chatTop', 'chatMax', 'chatMin', 'chatClose']);
  });

  it('loads many messages into a conversation at once, adding its channel when unknown', () => {
    const { actor } = start();
    const messages = Array.from({ length: 1000 }, (_, i) => msg(i + 1));
    actor.send({ type: 'message.bulk', chat: group, messages });
    const { channels, conversations } = actor.getSnapshot().context;
    expect(channels.map(chatKey)).toEqual(['friend:1', 'group:1']);
    const conversation = conversations['group:1']!.getSnapshot();
    expect(conversation.context.messages).toHaveLength(1000);
    expect(selectUnreadCount(conversation)).toBe(0);
  });

  it("hands a message the user sends to its conversation's send actor, in that conversation only", () => {
    const inputs: DeliverInput[] = [];
    const machine = chatWindowMachine.provide({
      actors: {
        conversation: conversationMachine.provide({
          actors: {
            chatSend: chatSendMachine.provide({
              actors: { deliver: fromPromise<SendReceipt | void, DeliverInput>(({ input }) => (inputs.push(input), new Promise(() => {}))) },
            }),
          },
        }),
      },
    });
    const actor = createActor(machine, { input: { channels: [friend, group] } }).start();
    const mine = { ...msg(9), id: 'local-9', mine: true };
    actor.send({ type: 'message.send', key: 'group:1', message: mine });
    const { conversations } = actor.getSnapshot().context;
    expect(selectMessages(conversations['group:1']!.getSnapshot())).toEqual([mine]);
    expect(Object.keys(selectSends(conversations['group:1']!.getSnapshot()))).toEqual(['local-9']);
    expect(selectMessages(conversations['friend:1']!.getSnapshot())).toEqual([]);
    expect(inputs).toEqual([{ message: mine, chat: group, attempt: 1 }]);
  });
});
