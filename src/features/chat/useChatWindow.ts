import { App } from 'antd';
import { useCallback, useRef, useState } from 'react';
import type { ChatListData, ContactsOverview } from '@contract/chat';
import { chatKey, type Chat, type ChatMessage, type ReplyWindow } from '@contract/chatWidget';
import type { DataClient } from '@workers/client';
import { buyerMessage, buyerMessageId, parseBuyerChatId, teamMessage, uploadConversation, type ChatT } from './adapters';
import type { ChatWidgetHandle } from './widget/types';

const HISTORY_ROWS = 30;

type ChatWindowDeps = {
  client: DataClient;
  t: ChatT;
  /** The page's current contacts and buyer chats (read when a call needs them, not when the hook is made). */
  now: () => { overview: ContactsOverview | null; buyers: ChatListData | null };
  setBuyerUnread: (storeId: number, chatId: string, unread: number) => void;
  setContactsUnread: (key: string, unread: number) => void;
  /** A buyer chat was opened: its reply window is asked for. */
  onOpenBuyer: (chat: Chat) => void;
};

/**
 * The widget as the page drives it: the open conversations (by key) and the one in front, whether the window is
 * shown, opening a chat, marking it read, its history pages and uploads.
 */
export function useChatWindow({ client, t, now, setBuyerUnread, setContactsUnread, onOpenBuyer }: ChatWindowDeps) {
  const { message } = App.useApp();
  /** The mounted widget's chat window actor: the page sends it the channels and the incoming messages. */
  const widgetRef = useRef<ChatWidgetHandle>(null);
  // Closing the window unmounts the widget; opening a chat mounts a fresh one over the open conversations.
  const [widget, setWidget] = useState({ open: true, key: 0 });
  const open = useRef(new Map<string, Chat>());
  const active = useRef<string | null>(null);
  const latest = useRef({ now, t, onOpenBuyer });
  latest.current = { now, t, onOpenBuyer };

  /** The server's read mark for a conversation the user is looking at. */
  const markRead = useCallback(
    async (chat: Chat, lastId?: number) => {
      const buyer = parseBuyerChatId(chat.id);
      try {
        if (buyer) {
          const { unread } = await client.chat.buyerRead(buyer);
          setBuyerUnread(buyer.storeId, buyer.chatId, unread);
        } else if (chat.type !== 'sys_msg') {
          const kind = chat.type === 'group' ? 'group' : 'friend';
          let messageId = lastId;
          if (messageId === undefined) messageId = (await client.chat.history({ kind, id: Number(chat.id), rows: 1 })).messages.at(-1)?.id;
          if (messageId === undefined) return;
          const { unread } = await client.chat.read({ kind, id: Number(chat.id), messageId });
          setContactsUnread(`${kind}:${chat.id}`, unread);
        }
      } catch {
        // A read mark that fails is retried at the next look.
      }
    },
    [client, setBuyerUnread, setContactsUnread],
  );

  const openChat = useCallback(
    (chat: Chat) => {
      const key = chatKey(chat);
      // A chat open already keeps what the page learnt of it (a buyer chat's reply window).
      const shown = { ...open.current.get(key), ...chat };
      open.current.set(key, shown);
      active.current = key;
      setWidget((w) => (w.open ? w : { open: true, key: w.key + 1 }));
      widgetRef.current?.send({ type: 'channel.add', chat: shown, activate: true });
      void markRead(shown);
      if (parseBuyerChatId(chat.id)) latest.current.onOpenBuyer(shown);
    },
    [markRead],
  );

  /** Refreshes open conversations' chats in the widget (the overview changed, a reply window came). */
  const replaceChats = useCallback((chats: Chat[]) => {
    for (const chat of chats) open.current.set(chatKey(chat), chat);
    if (open.current.size > 0) widgetRef.current?.send({ type: 'channel.replace', channels: [...open.current.values()] });
  }, []);

  /** A buyer chat's reply window: kept with the chat and shown in its entry box. */
  const setReply = useCallback(
    (chatId: string, reply: ReplyWindow) => {
      const chat = [...open.current.values()].find((c) => c.id === chatId);
      if (chat) replaceChats([{ ...chat, reply }]);
    },
    [replaceChats],
  );

  const onLoadHistory = useCallback(
    async (chat: Chat, lastMessage: ChatMessage | null, callback: (older: ChatMessage[]) => void) => {
      const { overview, buyers } = latest.current.now();
      const buyer = parseBuyerChatId(chat.id);
      try {
        if (buyer) {
          const shopName = buyers?.shops.find((s) => s.storeId === buyer.storeId)?.name ?? '';
          const page = await client.chat.buyerHistory({ ...buyer, before: buyerMessageId(lastMessage), rows: HISTORY_ROWS });
          callback(page.messages.map((m) => buyerMessage(m, shopName, latest.current.t)));
        } else if (chat.type !== 'sys_msg' && overview) {
          const before = typeof lastMessage?.id === 'number' ? lastMessage.id : undefined;
          const page = await client.chat.history({ kind: chat.type === 'group' ? 'group' : 'friend', id: Number(chat.id), before, rows: HISTORY_ROWS });
          callback(page.messages.map((m) => teamMessage(m, overview.me.id)));
        } else {
          callback([]);
        }
        if (!lastMessage) void markRead(chat);
      } catch {
        callback([]);
      }
    },
    [client, markRead],
  );

  const onUpload = useCallback(
    async ({ type, file, callback, chat }: { type: 'image' | 'file'; file: File; callback: (url: string) => void; chat: Chat }) => {
      const conversation = uploadConversation(chat);
      if (!conversation) return;
      const hide = message.loading(latest.current.t('uploading'), 0);
      try {
        const uploaded = await client.chat.upload(type, conversation, file);
        callback(uploaded.url);
      } catch {
        // The worker showed the server's reason (type, size, not in the conversation).
      } finally {
        hide();
      }
    },
    [client, message],
  );

  return {
    widgetRef,
    widget,
    /** Shows the window again after it was closed (a fresh widget over the open conversations). */
    reopen: () => setWidget((w) => ({ open: true, key: w.key + 1 })),
    open,
    active,
    markRead,
    openChat,
    replaceChats,
    setReply,
    onLoadHistory,
    onUpload,
    onTalkClick: (chat: Chat) => {
      active.current = chatKey(chat);
      void markRead(chat);
    },
    onRemoveChat: (chat: Chat) => {
      open.current.delete(chatKey(chat));
      if (active.current === chatKey(chat)) active.current = null;
    },
    onClose: () => {
      open.current.clear();
      active.current = null;
      setWidget((w) => ({ open: false, key: w.key }));
    },
  };
}
