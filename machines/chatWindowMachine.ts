import { assertEvent, assign, emit, enqueueActions, setup, type ActorRefFrom } from 'xstate';
import { chatKey, type Chat, type ChatMessage, type IncomingMessage } from '../contract/chatWidget';
import { conversationMachine } from './conversationMachine';

/**
 * The floating chat window (chat-widget spec §2 and §4): its frame (drag, pin, minimise, maximise, close), its pages
 * and modes, and the channel list with one conversation actor per channel. The channel list is saved through the
 * `persistChannels` action, which the widget provides (browser storage under the IChat_ prefix).
 */

export const CHAT_WINDOW_DEFAULT_SIZE = { width: 550, height: 500 } as const;
export const CHAT_WINDOW_Z_INDEX = 1002;

export type ChatPage = 'chat' | 'manage';
export type ChatMode = 'normal' | 'mini';
export type Point = { x: number; y: number };

export type ChatWindowContext = {
  /** null until first dragged: the window is centred at start. */
  position: Point | null;
  size: { width: number; height: number };
  fixed: boolean;
  pinned: boolean;
  page: ChatPage;
  mode: ChatMode;
  rightBoxCollapsed: boolean;
  drawerOpen: boolean;
  channels: Chat[];
  activeKey: string | null;
  pageVisible: boolean;
  conversations: Record<string, ActorRefFrom<typeof conversationMachine>>;
};

export type ChatWindowInput = {
  channels?: Chat[];
  fixed?: boolean;
  size?: { width: number; height: number };
  mode?: ChatMode;
  pageVisible?: boolean;
};

export type ChatWindowEvent =
  | { type: 'window.drag'; position: Point }
  | { type: 'window.pin' }
  | { type: 'window.minimise' }
  | { type: 'window.maximise' }
  | { type: 'window.restore' }
  | { type: 'window.close' }
  | { type: 'window.open' }
  | { type: 'page.show'; page: ChatPage }
  | { type: 'mode.set'; mode: ChatMode }
  | { type: 'rightBox.toggle' }
  | { type: 'drawer.toggle' }
  | { type: 'channel.add'; chat: Chat; activate?: boolean }
  | { type: 'channel.replace'; channels: Chat[] }
  | { type: 'channel.remove'; key: string }
  | { type: 'channel.activate'; key: string }
  | { type: 'message.incoming'; message: IncomingMessage }
  /** Delivers a received message to its conversation (after message.incoming has made sure the channel exists). */
  | { type: 'message.sent'; key: string; message: ChatMessage }
  /** The user sends a message in a conversation: its send actor runs in that conversation. */
  | { type: 'message.send'; key: string; message: ChatMessage }
  /** Many messages at once (an export, a test page): they become the conversation's history in one step. */
  | { type: 'message.bulk'; chat: Chat; messages: ChatMessage[] }
  | { type: 'message.bulkDeliver'; key: string; messages: ChatMessage[] }
  | { type: 'page.visibility'; visible: boolean };

export type ChatWindowEmitted =
  | { type: 'chatTop'; pinned: boolean }
  | { type: 'chatMin' }
  | { type: 'chatMax' }
  | { type: 'chatClose' }
  | { type: 'removeChat'; chat: Pick<Chat, 'id' | 'name' | 'type'> }
  | { type: 'channelAdded'; chat: Chat };

const hasChannel = (channels: Chat[], chat: Chat) => channels.some((c) => c.id === chat.id && c.type === chat.type);

export const chatWindowMachine = setup({
  types: {
    context: {} as ChatWindowContext,
    input: {} as ChatWindowInput,
    events: {} as ChatWindowEvent,
    emitted: {} as ChatWindowEmitted,
  },
  actors: { conversation: conversationMachine },
  actions: {
    /** Provided by the widget: saves context.channels (key_channels). Runs after the channel list's assign. */
    persistChannels: () => {},
    setPosition: assign({
      position: ({ event }) => {
        assertEvent(event, 'window.drag');
        return event.position;
      },
    }),
    togglePin: assign({ pinned: ({ context }) => !context.pinned }),
    showPage: assign({
      page: ({ event }) => {
        assertEvent(event, 'page.show');
        return event.page;
      },
    }),
    setMode: assign({
      mode: ({ event }) => {
        assertEvent(event, 'mode.set');
        return event.mode;
      },
    }),
    toggleRightBox: assign({ rightBoxCollapsed: ({ context }) => !context.rightBoxCollapsed }),
    toggleDrawer: assign({ drawerOpen: ({ context }) => !context.drawerOpen }),
    addChannel: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'channel.add');
      const key = chatKey(event.chat);
      if (!hasChannel(context.channels, event.chat)) {
        const channels = [...context.channels, event.chat];
        enqueue.assign({
          channels,
          conversations: ({ spawn }) => ({
            ...context.conversations,
            [key]: spawn('conversation', {
              id: `conversation:${key}`,
              input: { chat: event.chat, pageVisible: context.pageVisible },
            }),
          }),
        });
        enqueue('persistChannels');
        enqueue.emit({ type: 'channelAdded', chat: event.chat });
      }
      if (event.activate || context.activeKey === null) enqueue.raise({ type: 'channel.activate', key });
    }),
    replaceChannels: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'channel.replace');
      const keep = new Set(event.channels.map(chatKey));
      const conversations: ChatWindowContext['conversations'] = {};
      for (const [key, ref] of Object.entries(context.conversations)) {
        if (keep.has(key)) conversations[key] = ref;
        else enqueue.stopChild(ref);
      }
      const unique: Chat[] = [];
      for (const chat of event.channels) if (!hasChannel(unique, chat)) unique.push(chat);
      enqueue.assign({
        channels: unique,
        conversations: ({ spawn }) => {
          const next = { ...conversations };
          for (const chat of unique) {
            const key = chatKey(chat);
            if (next[key]) next[key].send({ type: 'conversation.chatUpdated', chat });
            else next[key] = spawn('conversation', { id: `conversation:${key}`, input: { chat, pageVisible: context.pageVisible } });
          }
          return next;
        },
        activeKey: context.activeKey && keep.has(context.activeKey) ? context.activeKey : (unique[0] ? chatKey(unique[0]) : null),
      });
      enqueue('persistChannels');
    }),
    removeChannel: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'channel.remove');
      const index = context.channels.findIndex((c) => chatKey(c) === event.key);
      const chat = context.channels[index];
      if (!chat) return;
      const channels = context.channels.filter((_, i) => i !== index);
      const ref = context.conversations[event.key];
      if (ref) enqueue.stopChild(ref);
      const { [event.key]: _removed, ...conversations } = context.conversations;
      const neighbour = channels[Math.min(index, channels.length - 1)];
      enqueue.assign({
        channels,
        conversations,
        activeKey: context.activeKey === event.key ? (neighbour ? chatKey(neighbour) : null) : context.activeKey,
      });
      enqueue('persistChannels');
      enqueue.emit({ type: 'removeChat', chat: { id: chat.id, name: chat.name, type: chat.type } });
      if (context.activeKey === event.key && neighbour) {
        context.conversations[chatKey(neighbour)]?.send({ type: 'conversation.activated' });
      }
    }),
    activateChannel: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'channel.activate');
      if (!context.conversations[event.key]) return;
      if (context.activeKey && context.activeKey !== event.key) {
        enqueue.sendTo(context.conversations[context.activeKey]!, { type: 'conversation.deactivated' });
      }
      enqueue.sendTo(context.conversations[event.key]!, { type: 'conversation.activated' });
      enqueue.assign({ activeKey: event.key });
    }),
    routeIncoming: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'message.incoming');
      const { chat, ...message } = event.message;
      const key = chatKey(chat);
      // An incoming message for an unknown channel adds that group or friend to the list (spec §4).
      if (!context.conversations[key]) enqueue.raise({ type: 'channel.add', chat });
      enqueue.raise({ type: 'message.sent', key, message });
    }),
    routeBulk: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'message.bulk');
      const key = chatKey(event.chat);
      if (!context.conversations[key]) enqueue.raise({ type: 'channel.add', chat: event.chat });
      enqueue.raise({ type: 'message.bulkDeliver', key, messages: event.messages });
    }),
    deliverBulk: ({ context, event }) => {
      assertEvent(event, 'message.bulkDeliver');
      context.conversations[event.key]?.send({ type: 'conversation.loaded', messages: event.messages });
    },
    deliver: ({ context, event }) => {
      assertEvent(event, 'message.sent');
      context.conversations[event.key]?.send({ type: 'conversation.received', message: event.message });
    },
    startSend: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'message.send');
      const ref = context.conversations[event.key];
      if (ref) enqueue.sendTo(ref, { type: 'conversation.send', message: event.message });
    }),
    broadcastVisibility: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'page.visibility');
      enqueue.assign({ pageVisible: event.visible });
      for (const ref of Object.values(context.conversations)) {
        enqueue.sendTo(ref, { type: 'conversation.visibility', visible: event.visible });
      }
    }),
  },
  guards: {
    isDraggable: ({ context }) => !context.fixed,
  },
}).createMachine({
  id: 'chatWindow',
  context: ({ input, spawn }) => {
    const channels: Chat[] = [];
    for (const chat of input.channels ?? []) if (!hasChannel(channels, chat)) channels.push(chat);
    const conversations: ChatWindowContext['conversations'] = {};
    channels.forEach((chat, i) => {
      const key = chatKey(chat);
      conversations[key] = spawn('conversation', {
        id: `conversation:${key}`,
        input: { chat, active: i === 0, pageVisible: input.pageVisible ?? true },
      });
    });
    return {
      position: null,
      size: input.size ?? { ...CHAT_WINDOW_DEFAULT_SIZE },
      fixed: input.fixed ?? false,
      pinned: false,
      page: 'chat',
      mode: input.mode ?? 'normal',
      rightBoxCollapsed: false,
      drawerOpen: false,
      channels,
      activeKey: channels[0] ? chatKey(channels[0]) : null,
      pageVisible: input.pageVisible ?? true,
      conversations,
    };
  },
  on: {
    'page.show': { actions: 'showPage' },
    'mode.set': { actions: 'setMode' },
    'rightBox.toggle': { actions: 'toggleRightBox' },
    'drawer.toggle': { actions: 'toggleDrawer' },
    'channel.add': { actions: 'addChannel' },
    'channel.replace': { actions: 'replaceChannels' },
    'channel.remove': { actions: 'removeChannel' },
    'channel.activate': { actions: 'activateChannel' },
    'message.incoming': { actions: 'routeIncoming' },
    'message.sent': { actions: 'deliver' },
    'message.send': { actions: 'startSend' },
    'message.bulk': { actions: 'routeBulk' },
    'message.bulkDeliver': { actions: 'deliverBulk' },
    'page.visibility': { actions: 'broadcastVisibility' },
  },
  initial: 'open',
  states: {
    open: {
      initial: 'normal',
      on: {
        'window.pin': { actions: ['togglePin', emit(({ context }) => ({ type: 'chatTop' as const, pinned: context.pinned }))] },
        'window.close': { target: 'closed', actions: emit({ type: 'chatClose' as const }) },
      },
      states: {
        normal: {
          on: {
            'window.drag': { guard: 'isDraggable', actions: 'setPosition' },
            'window.minimise': { target: 'minimised', actions: emit({ type: 'chatMin' as const }) },
            'window.maximise': { target: 'maximised', actions: emit({ type: 'chatMax' as const }) },
          },
        },
        minimised: {
          on: {
            'window.restore': 'normal',
            'window.maximise': { target: 'maximised', actions: emit({ type: 'chatMax' as const }) },
          },
        },
        maximised: {
          on: {
            'window.restore': 'normal',
            'window.maximise': 'normal',
            'window.minimise': { target: 'minimised', actions: emit({ type: 'chatMin' as const }) },
          },
        },
      },
    },
    closed: {
      on: { 'window.open': 'open' },
    },
  },
});

type WindowSnapshot = { context: ChatWindowContext; matches: (value: never) => boolean; value: unknown };

export const selectChannels = (s: WindowSnapshot) => s.context.channels;
export const selectActiveKey = (s: WindowSnapshot) => s.context.activeKey;
export const selectConversations = (s: WindowSnapshot) => s.context.conversations;
export const selectFrame = (s: WindowSnapshot) => {
  const value = s.value as 'closed' | { open: 'normal' | 'minimised' | 'maximised' };
  return value === 'closed' ? 'closed' : value.open;
};
