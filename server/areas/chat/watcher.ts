import type { PushMessage } from '../../../contract/push';
import { compareIds, toBuyerMessage, type BuyerChatService } from './service';

/**
 * New buyer messages reach the browser by polling: every `intervalMs` the server reads the chat list of each shop
 * whose owner has a page open (an open push socket), and for each chat whose last message moved on it reads the new
 * messages and pushes the buyer's ones. Polling, not the simulator's trigger, because a real Ozon shop only offers
 * polling or its push notifications to a public URL; one chat list call per shop per interval is far below Ozon's
 * 50 requests/s per Client-Id.
 *
 * What was seen is kept in this process's memory: after a restart the first pass takes stock without pushing. With
 * several server instances, each watches the users whose sockets it holds.
 */
export type BuyerChatWatcherOptions = {
  service: BuyerChatService;
  onlineUserIds: () => number[];
  push: (userId: number, message: PushMessage) => void;
  log: { error(object: unknown, message: string): void };
  /** 0 or less: no timer, `tick()` only (tests). */
  intervalMs: number;
};

export function createBuyerChatWatcher(options: BuyerChatWatcherOptions) {
  /** shop id → chat id → last message id seen. */
  const seen = new Map<number, Map<string, string>>();
  let running: Promise<void> | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;

  async function watchShop(userId: number, shop: Awaited<ReturnType<BuyerChatService['shopsOf']>>[number]) {
    const chats = await options.service.fetchChats(shop);
    const known = seen.get(shop.id);
    const next = new Map(chats.map((c) => [c.chatId, c.lastMessageId]));
    seen.set(shop.id, next);
    if (!known) return;
    const client = options.service.clientOf(shop);
    for (const chat of chats) {
      const before = known.get(chat.chatId) ?? '0';
      if (compareIds(chat.lastMessageId, before) <= 0) continue;
      const answer = await client.chatHistory({ chat_id: chat.chatId, direction: 'Backward', limit: 20 });
      const fresh = answer.messages
        .map((m) => toBuyerMessage(shop.id, chat.chatId, m))
        .filter((m) => compareIds(m.id, before) > 0 && m.from !== 'seller')
        .sort((a, b) => compareIds(a.id, b.id));
      for (const message of fresh) options.push(userId, { type: 'chat.buyerMessage', message, unread: chat.unread });
    }
  }

  async function pass() {
    for (const userId of options.onlineUserIds()) {
      const shops = (await options.service.shopsOf(userId)).filter((s) => s.status === 'active');
      for (const shop of shops) {
        try {
          await watchShop(userId, shop);
        } catch (error) {
          // One shop's marketplace trouble must not stop the others; the next pass tries again.
          options.log.error({ err: error, shopId: shop.id }, 'buyer chat poll failed');
        }
      }
    }
  }

  return {
    /** One pass; overlapping calls share the pass under way. */
    tick(): Promise<void> {
      running ??= pass().finally(() => (running = null));
      return running;
    },
    start() {
      if (options.intervalMs > 0 && !timer) {
        timer = setInterval(() => void this.tick(), options.intervalMs);
        timer.unref?.();
      }
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}

export type BuyerChatWatcher = ReturnType<typeof createBuyerChatWatcher>;
