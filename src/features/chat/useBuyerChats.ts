import { useCallback, useEffect, useState } from 'react';
import type { BuyerChat, ChatListData } from '@contract/chat';
import type { DataClient } from '@workers/client';

/**
 * The seller's buyer chats of every shop, with unread counts: loaded on mount and on `reload`; `setUnread` keeps a
 * chat's count (and its shop's and the total) as the page reads chats and pushes arrive.
 */
export function useBuyerChats(client: DataClient) {
  const [buyers, setBuyers] = useState<ChatListData | null>(null);
  const reload = useCallback(async () => {
    try {
      setBuyers(await client.chat.buyerList());
    } catch {
      // The worker showed the reason.
    }
  }, [client]);
  useEffect(() => {
    void reload();
  }, [reload]);

  /**
   * A chat's new unread count; `toTop` moves it first in its shop, as the marketplace orders chats by their last
   * message, and `last` is that new message.
   */
  const setUnread = useCallback((storeId: number, chatId: string, unread: number, toTop = false, last?: BuyerChat['last']) => {
    setBuyers((current) => {
      if (!current) return current;
      const shops = current.shops.map((shop) => {
        if (shop.storeId !== storeId) return shop;
        let chats = shop.chats.map((c) => (c.chatId === chatId ? { ...c, unread, ...(last ? { last } : {}) } : c));
        if (toTop) chats = [...chats.filter((c) => c.chatId === chatId), ...chats.filter((c) => c.chatId !== chatId)];
        return { ...shop, chats, unread: chats.reduce((sum, c) => sum + c.unread, 0) };
      });
      return { ...current, shops, totalUnread: shops.reduce((sum, s) => sum + s.unread, 0) };
    });
  }, []);

  return { buyers, reload, setUnread };
}
