import { proxy } from 'comlink';
import { useEffect, useRef, type RefObject } from 'react';
import type { BuyerChat, ChatListData, ContactsOverview } from '@contract/chat';
import { chatKey, type Chat } from '@contract/chatWidget';
import type { DataClient } from '@workers/client';
import { buyerChat, buyerMessage, friendChat, groupChat, teamMessage, type ChatT } from './adapters';
import type { ChatSender } from './send';
import type { ChatWidgetHandle } from './widget/types';

export type ChatPushTargets = {
  overview: ContactsOverview | null;
  buyers: ChatListData | null;
  t: ChatT;
  widget: RefObject<ChatWidgetHandle | null>;
  /** The conversations the widget shows, by key, and the one in front. */
  open: Map<string, Chat>;
  active: string | null;
  markRead: (chat: Chat, lastId?: number) => void;
  setBuyerUnread: (storeId: number, chatId: string, unread: number, toTop?: boolean, last?: BuyerChat['last']) => void;
  addContactsUnread: (key: string) => void;
  setOnline: (userId: number, online: boolean) => void;
  reloadOverview: () => void;
  reloadBuyers: () => void;
  /** A buyer wrote in a chat: its reply window may have opened again. */
  onBuyerWrote: (chat: Chat) => void;
};

/**
 * The server's chat pushes ('chat.*') become widget messages and count updates. Subscribed once per client and
 * sender; each push reads the page's current state from `targets()`.
 */
export function useChatPushes(client: DataClient, sender: ChatSender, targets: () => ChatPushTargets) {
  const read = useRef(targets);
  read.current = targets;
  useEffect(() => {
    const subscriptions = [
      client.subscribe(
        'chat.message',
        proxy(({ message: incoming }) => {
          const now = read.current();
          const me = now.overview;
          if (!me) return;
          const own = incoming.sender.id === me.me.id;
          if (own && sender.isOwnEcho(incoming.clientKey)) return;
          let chat: Chat;
          if (incoming.kind === 'group') {
            const group = me.groups.find((g) => g.id === incoming.toId);
            chat = group ? groupChat(group) : { id: incoming.toId, type: 'group', name: String(incoming.toId) };
          } else {
            // My own message from another page belongs to the conversation with its addressee.
            const otherId = own ? incoming.toId : incoming.sender.id;
            const friend = me.sections.flatMap((s) => s.friends).find((f) => f.id === otherId);
            chat = friend ? friendChat(friend) : { id: otherId, type: 'friend', name: own ? String(otherId) : incoming.sender.name };
          }
          const key = chatKey(chat);
          if (!now.open.has(key)) now.open.set(key, chat);
          now.widget.current?.send({ type: 'message.incoming', message: { ...teamMessage(incoming, me.me.id), chat } });
          if (own) return;
          if (now.active === key && document.visibilityState === 'visible') now.markRead(chat, incoming.id);
          else now.addContactsUnread(`${incoming.kind}:${chat.id}`);
        }),
      ),
      client.subscribe(
        'chat.buyerMessage',
        proxy(({ message: incoming, unread }) => {
          // This page's own reply, echoed to the seller's pages: shown here already.
          if (incoming.from === 'seller' && sender.isOwnEcho(incoming.clientKey)) return;
          const now = read.current();
          const shop = now.buyers?.shops.find((s) => s.storeId === incoming.storeId);
          const shopName = shop?.name ?? '';
          const known = shop?.chats.find((c) => c.chatId === incoming.chatId);
          const fresh = buyerChat({ storeId: incoming.storeId, chatId: incoming.chatId, chatType: known?.chatType ?? 'Buyer_Seller' }, shopName, now.t);
          const key = chatKey(fresh);
          const chat = now.open.get(key) ?? fresh;
          if (!now.open.has(key)) now.open.set(key, chat);
          if (!known) now.reloadBuyers();
          now.setBuyerUnread(incoming.storeId, incoming.chatId, unread, true, { text: incoming.text, createdAt: incoming.createdAt, from: incoming.from, isImage: false });
          now.widget.current?.send({ type: 'message.incoming', message: { ...buyerMessage(incoming, shopName, now.t), chat } });
          if (incoming.from === 'seller') return;
          now.onBuyerWrote(chat);
          if (now.active === key && document.visibilityState === 'visible') now.markRead(chat);
        }),
      ),
      client.subscribe('chat.request', proxy(() => read.current().reloadOverview())),
      client.subscribe('chat.contacts', proxy(() => read.current().reloadOverview())),
      client.subscribe('chat.presence', proxy(({ userId, online }) => read.current().setOnline(userId, online))),
    ];
    return () => subscriptions.forEach((s) => void s.then((off) => off()));
  }, [client, sender]);
}
