import { assertEvent, assign, emit, enqueueActions, fromPromise, not, setup, type ActorRefFrom } from 'xstate';
import type { Chat, ChatId, ChatMessage } from '../contract/chatWidget';
import { chatSendMachine, type ChatSendReport } from './chatSendMachine';

/**
 * One conversation: its messages, history loading and unread counting (chat-widget spec §4). Only other people's
 * messages count; a message is read once it is scrolled into view while the page is visible, or when the user switches
 * to its tab. A message that arrives while its tab is showing, scrolled to the bottom, on a visible page, is read at once.
 *
 * Each message the user sends is shown at once and handed to its own `chatSend` actor (sending → sent | failed →
 * retry | discard); the list renders that actor's state beside the message. Once the server accepts it, the local
 * copy takes the server's id and time, so its echo and a later history page are not shown twice.
 */

export type ChatSendRef = ActorRefFrom<typeof chatSendMachine>;

export type ConversationContext = {
  chat: Chat;
  messages: ChatMessage[];
  unreadIds: ChatId[];
  active: boolean;
  atBottom: boolean;
  pageVisible: boolean;
  historyExhausted: boolean;
  /** Bumped on every prepend so the list can keep the reader's position (the anchor is the previous first message). */
  prependedCount: number;
  /**
   * The recent history is loaded once, the first time the conversation is shown. It arrives as history: no sound, no
   * notification, nothing counted unread.
   */
  recentLoaded: boolean;
  /** The send actor of each outgoing message not yet accepted by the server, by the message's local id. */
  sends: Record<string, ChatSendRef>;
};

export type ConversationInput = {
  chat: Chat;
  messages?: ChatMessage[];
  active?: boolean;
  pageVisible?: boolean;
};

export type LoadHistoryInput = { chat: Chat; lastMessage: ChatMessage | null };

export type ConversationEvent =
  | { type: 'conversation.received'; message: ChatMessage }
  | { type: 'conversation.seen'; ids: ChatId[] }
  | { type: 'conversation.activated' }
  | { type: 'conversation.deactivated' }
  | { type: 'conversation.scrolled'; atBottom: boolean }
  | { type: 'conversation.visibility'; visible: boolean }
  | { type: 'conversation.historyRequested' }
  /** The host's messages at once, as history: merged by id in time order, nothing counted unread, no sound. */
  | { type: 'conversation.loaded'; messages: ChatMessage[] }
  | { type: 'conversation.chatUpdated'; chat: Chat }
  /** The user sent this message (mine, with a local id): shown at once, delivered by a `chatSend` actor. */
  | { type: 'conversation.send'; message: ChatMessage }
  | { type: 'conversation.retry'; id: ChatId }
  | { type: 'conversation.discard'; id: ChatId }
  | ChatSendReport;

export type ConversationEmitted =
  | { type: 'incoming'; message: ChatMessage; chat: Chat }
  | { type: 'historyPrepended'; count: number }
  /** The recent history arrived on opening: the list shows its end. */
  | { type: 'recentLoaded'; count: number };

/** A history page without the messages already held (a live one may have arrived while it loaded). */
const olderThanHeld = (context: ConversationContext, page: readonly ChatMessage[]) => {
  const known = new Set(context.messages.map((m) => m.id));
  return page.filter((m) => !known.has(m.id));
};

const isReadOnArrival = (context: ConversationContext) => context.active && context.atBottom && context.pageVisible;

export const conversationMachine = setup({
  types: {
    context: {} as ConversationContext,
    input: {} as ConversationInput,
    events: {} as ConversationEvent,
    emitted: {} as ConversationEmitted,
  },
  actors: {
    loadHistory: fromPromise<ChatMessage[], LoadHistoryInput>(async () => {
      throw new Error('loadHistory not provided');
    }),
    chatSend: chatSendMachine,
  },
  actions: {
    startSend: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'conversation.send');
      const { message } = event;
      const key = String(message.id);
      if (context.sends[key] || context.messages.some((m) => m.id === message.id)) return;
      enqueue.assign({
        messages: [...context.messages, message],
        sends: ({ spawn }) => ({ ...context.sends, [key]: spawn('chatSend', { id: `send:${key}`, input: { message, chat: context.chat } }) }),
      });
    }),
    forwardToSend: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, ['conversation.retry', 'conversation.discard']);
      const ref = context.sends[String(event.id)];
      if (ref) enqueue.sendTo(ref, { type: event.type === 'conversation.retry' ? 'send.retry' : 'send.discard' });
    }),
    settleSend: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, ['send.sent', 'send.discarded']);
      const key = String(event.localId);
      const { [key]: ref, ...sends } = context.sends;
      if (ref) enqueue.stopChild(ref);
      let messages = context.messages.filter((m) => m.id !== event.localId);
      if (event.type === 'send.sent') {
        const { receipt } = event;
        // The server's copy may have arrived first (an echo, a history page): then it stands in for the local one.
        const arrived = receipt !== null && context.messages.some((m) => m.id === receipt.id);
        messages = arrived
          ? messages
          : context.messages.map((m) => (m.id === event.localId && receipt ? { ...m, id: receipt.id, timestamp: receipt.timestamp } : m));
      }
      enqueue.assign({ sends, messages });
    }),
    appendMessage: assign(({ context, event }) => {
      assertEvent(event, 'conversation.received');
      const { message } = event;
      if (context.messages.some((m) => m.id === message.id)) return {};
      const countsAsUnread = !message.mine && !isReadOnArrival(context);
      return {
        messages: [...context.messages, message],
        unreadIds: countsAsUnread ? [...context.unreadIds, message.id] : context.unreadIds,
      };
    }),
    announceIncoming: emit(({ context, event }) => {
      assertEvent(event, 'conversation.received');
      return { type: 'incoming' as const, message: event.message, chat: context.chat };
    }),
    markSeen: assign({
      unreadIds: ({ context, event }) => {
        assertEvent(event, 'conversation.seen');
        if (!context.pageVisible) return context.unreadIds;
        const seen = new Set(event.ids);
        return context.unreadIds.filter((id) => !seen.has(id));
      },
    }),
    markAllRead: assign({ unreadIds: () => [] }),
    activate: assign({ active: true }),
    deactivate: assign({ active: false }),
    setAtBottom: assign({
      atBottom: ({ event }) => {
        assertEvent(event, 'conversation.scrolled');
        return event.atBottom;
      },
    }),
    setVisibility: assign({
      pageVisible: ({ event }) => {
        assertEvent(event, 'conversation.visibility');
        return event.visible;
      },
    }),
    markReadIfInView: assign({
      unreadIds: ({ context }) => (isReadOnArrival(context) ? [] : context.unreadIds),
    }),
    mergeLoaded: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'conversation.loaded');
      const known = new Set(context.messages.map((m) => m.id));
      const added = event.messages.filter((m) => !known.has(m.id));
      // A stable sort keeps the host's order among messages of the same second.
      const messages = [...context.messages, ...added].sort((a, b) => a.timestamp - b.timestamp);
      enqueue.assign({ messages, recentLoaded: true });
      enqueue.emit({ type: 'recentLoaded', count: added.length });
    }),
    updateChat: assign({
      chat: ({ event }) => {
        assertEvent(event, 'conversation.chatUpdated');
        return event.chat;
      },
    }),
  },
  guards: {
    isFromOthers: ({ event }) => event.type === 'conversation.received' && !event.message.mine,
    isHistoryExhausted: ({ context }) => context.historyExhausted,
    isFirstShown: ({ context }) => context.active && !context.recentLoaded && context.chat.type !== 'sys_msg',
  },
}).createMachine({
  id: 'conversation',
  context: ({ input }) => ({
    chat: input.chat,
    messages: input.messages ?? [],
    unreadIds: [],
    active: input.active ?? false,
    atBottom: true,
    pageVisible: input.pageVisible ?? true,
    historyExhausted: false,
    prependedCount: 0,
    recentLoaded: (input.messages?.length ?? 0) > 0 || input.chat.type === 'sys_msg',
    sends: {},
  }),
  on: {
    'conversation.received': [
      { guard: 'isFromOthers', actions: ['appendMessage', 'announceIncoming'] },
      { actions: 'appendMessage' },
    ],
    'conversation.seen': { actions: 'markSeen' },
    'conversation.activated': { actions: ['activate', 'markAllRead'] },
    'conversation.deactivated': { actions: 'deactivate' },
    'conversation.scrolled': { actions: ['setAtBottom', 'markReadIfInView'] },
    'conversation.visibility': { actions: ['setVisibility', 'markReadIfInView'] },
    'conversation.chatUpdated': { actions: 'updateChat' },
    'conversation.loaded': { actions: 'mergeLoaded' },
    'conversation.send': { actions: 'startSend' },
    'conversation.retry': { actions: 'forwardToSend' },
    'conversation.discard': { actions: 'forwardToSend' },
    'send.sent': { actions: 'settleSend' },
    'send.discarded': { actions: 'settleSend' },
  },
  initial: 'idle',
  states: {
    idle: {
      always: { guard: 'isFirstShown', target: 'loadingRecent' },
      on: {
        'conversation.historyRequested': { guard: not('isHistoryExhausted'), target: 'loadingHistory' },
      },
    },
    loadingRecent: {
      invoke: {
        src: 'loadHistory',
        // Anything that arrived live before the history did is newer than it: load what lies before.
        input: ({ context }) => ({ chat: context.chat, lastMessage: context.messages[0] ?? null }),
        onDone: {
          target: 'idle',
          actions: enqueueActions(({ context, event, enqueue }) => {
            const older = olderThanHeld(context, event.output);
            enqueue.assign({
              messages: [...older, ...context.messages],
              historyExhausted: older.length === 0,
              recentLoaded: true,
            });
            enqueue.emit({ type: 'recentLoaded', count: older.length });
          }),
        },
        onError: { target: 'idle', actions: assign({ recentLoaded: true }) },
      },
    },
    loadingHistory: {
      invoke: {
        src: 'loadHistory',
        input: ({ context }) => ({ chat: context.chat, lastMessage: context.messages[0] ?? null }),
        onDone: {
          target: 'idle',
          actions: enqueueActions(({ context, event, enqueue }) => {
            const older = olderThanHeld(context, event.output);
            enqueue.assign({
              messages: [...older, ...context.messages],
              historyExhausted: older.length === 0,
              prependedCount: context.prependedCount + older.length,
            });
            if (older.length > 0) enqueue.emit({ type: 'historyPrepended', count: older.length });
          }),
        },
        onError: { target: 'idle' },
      },
    },
  },
});

export type ConversationSnapshot = { context: ConversationContext; value: unknown };

export const selectMessages = (s: ConversationSnapshot) => s.context.messages;
export const selectChat = (s: ConversationSnapshot) => s.context.chat;
export const selectSends = (s: ConversationSnapshot) => s.context.sends;
export const selectUnreadCount = (s: ConversationSnapshot) => s.context.unreadIds.length;
export const selectIsLoadingHistory = (s: ConversationSnapshot) => s.value === 'loadingHistory' || s.value === 'loadingRecent';
export const selectHistoryExhausted = (s: ConversationSnapshot) => s.context.historyExhausted;
/** The tab badge shows while there is something unread the reader cannot be looking at. */
export const selectTabBadge = (s: ConversationSnapshot) =>
  s.context.unreadIds.length > 0 && (!s.context.active || !s.context.atBottom) ? s.context.unreadIds.length : 0;
