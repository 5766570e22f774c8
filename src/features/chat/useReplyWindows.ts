import { useCallback, useEffect, useRef } from 'react';
import type { ReplyWindow } from '@contract/chatWidget';
import type { DataClient } from '@workers/client';
import { parseBuyerChatId } from './adapters';

/** A window that ends while the chat is open is asked about again this long after its end (the server's clock decides). */
const AFTER_END_MS = 1_000;
/** setTimeout's longest wait; a window ending later is looked at again when the chat is next opened. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Ozon's reply windows of the open buyer chats (whether and until when the seller may write, and else why not):
 * `refresh(chatId)` asks the server for one (opening the chat, the buyer writing, a send refused) and hands the
 * answer to `onWindow`; a window that ends while its chat is open is asked about again then. `refused`: the person's
 * role does not answer buyers, and why: every buyer chat's box is closed with it, and Ozon is not asked.
 */
export function useReplyWindows(client: DataClient, onWindow: (chatId: string, reply: ReplyWindow) => void, refused: string | null = null) {
  const latest = useRef(onWindow);
  latest.current = onWindow;
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  const refresh = useCallback(
    async (chatId: string) => {
      const buyer = parseBuyerChatId(chatId);
      if (!buyer) return;
      if (refused !== null) {
        latest.current(chatId, { canReply: false, until: null, reason: refused });
        return;
      }
      try {
        const reply = await client.chat.buyerReplyWindow(buyer);
        latest.current(chatId, reply);
        clearTimeout(timers.current.get(chatId));
        timers.current.delete(chatId);
        const wait = reply.canReply && reply.until !== null ? reply.until - Date.now() + AFTER_END_MS : null;
        if (wait !== null && wait < MAX_TIMER_MS) timers.current.set(chatId, setTimeout(() => void refresh(chatId), Math.max(0, wait)));
      } catch {
        // Not known: the box stays as it was, and a send the server refuses says why.
      }
    },
    [client, refused],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  return refresh;
}
