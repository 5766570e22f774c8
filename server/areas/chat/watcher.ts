import type { PushMessage } from '../../../contract/push';
import type { Database } from '../../db/database';
import { whileHolding, type LeaseHolding, type Leases } from '../../db/leases';
import { compareIds, toBuyerMessage, type BuyerChatService } from './service';

/**
 * New buyer messages reach the browser by polling: every `intervalMs` the server reads the chat list of each shop
 * whose owner has a page open (an open push socket), and for each chat whose last message moved on it reads the new
 * messages and pushes the buyer's ones. Polling, not the simulator's trigger, because a real Ozon shop only offers
 * polling or its push notifications to a public URL; one chat list call per shop per interval is far below Ozon's
 * 50 requests/s per Client-Id.
 *
 * With several server instances on one database, one of them polls (it holds the 'buyer-chat-poller' lease, renewed
 * as it goes) for the users online on any instance, and its pushes reach them wherever they are connected; the
 * others take over when its lease runs out. Where the poller got to in each shop is stored after each pass
 * (`buyer_chat_positions`, written only while the lease is held), and a poller that takes over, or starts again,
 * resumes from there: a message that arrived while the poller changed hands is pushed. A shop never polled before
 * is taken stock of without pushing, or starts from the chats a page of its owner listed on this instance
 * (`noteListed`), so a message arriving between the page's list and that pass is pushed, not taken as stock.
 */
export type BuyerChatWatcherOptions = {
  service: BuyerChatService;
  onlineUserIds: () => number[];
  push: (userId: number, message: PushMessage) => void;
  log: { error(object: unknown, message: string): void };
  /** 0 or less: no timer, `tick()` only (tests). */
  intervalMs: number;
  /** The lease that makes one instance the poller; without it this process always polls. */
  leases?: Leases;
  /** Where the positions are stored (with `leases`, under the lease); without it they live in memory only. */
  database?: Database;
};

type Positions = Map<string, string>;

export const BUYER_CHAT_POLLER_LEASE = 'buyer-chat-poller';

export function createBuyerChatWatcher(options: BuyerChatWatcherOptions) {
  /** shop id → chat id → last message id seen. */
  const seen = new Map<number, Map<string, string>>();
  /** Shops whose entry in `seen` is a page's list, not a pass: the page's latest list replaces it. */
  const listedOnly = new Set<number>();
  let running: Promise<void> | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;
  const leaseMs = Math.max(30_000, options.intervalMs * 10);
  let held: { holding: LeaseHolding; renewedAt: number } | null = null;
  /** Whether a page's chat list may stand for what was seen: not on an instance that found the lease taken. */
  let mayNote = true;

  /** Whether this process is the poller now. A lease lost or taken over again leaves what was seen stale. */
  async function holdLease(): Promise<boolean> {
    const leases = options.leases;
    if (!leases) return true;
    if (held && Date.now() - held.renewedAt < leaseMs / 3) return true;
    const holding = held && (await leases.renew(held.holding, leaseMs)) ? held.holding : await leases.acquire(BUYER_CHAT_POLLER_LEASE, leaseMs);
    // A takeover or a loss leaves what was seen stale; the first holding keeps what pages listed meanwhile.
    if (!holding || (held && holding.generation !== held.holding.generation)) {
      seen.clear();
      listedOnly.clear();
    }
    mayNote = holding !== null;
    held = holding ? { holding, renewedAt: Date.now() } : null;
    return held !== null;
  }

  /** What the last poller stored for the shop, with what a page listed here (the later of the two per chat). */
  async function storedPositions(shopId: number): Promise<Positions | undefined> {
    const listed = listedOnly.has(shopId) ? seen.get(shopId) : undefined;
    if (!options.database) return seen.get(shopId);
    const [row] = await options.database.query<{ seen: Record<string, string> }>(`select seen from buyer_chat_positions where shop_id = $1`, [shopId]);
    if (!row) return listed;
    const stored: Positions = new Map(Object.entries(row.seen));
    for (const [chatId, id] of listed ?? []) if (compareIds(id, stored.get(chatId) ?? '0') > 0) stored.set(chatId, id);
    return stored;
  }

  /** Stores where the pass got to, only while this process still holds the lease (a late pass writes nothing). */
  async function storePositions(shopId: number, positions: Positions): Promise<void> {
    if (!options.database) return;
    const fence = held && options.leases ? whileHolding(held.holding, 3) : { sql: 'true', params: [] };
    await options.database.query(
      `insert into buyer_chat_positions (shop_id, seen, updated_at) select $1, $2::jsonb, now() where ${fence.sql}
       on conflict (shop_id) do update set seen = excluded.seen, updated_at = excluded.updated_at`,
      [shopId, JSON.stringify(Object.fromEntries(positions)), ...fence.params],
    );
  }

  const samePositions = (a: Positions, b: Positions) => a.size === b.size && [...a].every(([chatId, id]) => b.get(chatId) === id);

  async function watchShop(userId: number, shop: Awaited<ReturnType<BuyerChatService['shopsOf']>>[number]) {
    const chats = await options.service.fetchChats(shop);
    // Polled by this process since it took the lease: its memory; else where the last poller got to.
    const known = seen.has(shop.id) && !listedOnly.has(shop.id) ? seen.get(shop.id) : await storedPositions(shop.id);
    const next = new Map(chats.map((c) => [c.chatId, c.lastMessageId]));
    const reached = async () => {
      seen.set(shop.id, next);
      listedOnly.delete(shop.id);
      // After the pushes: a poller that dies in between has its successor push them again rather than never.
      if (!known || !samePositions(known, next)) await storePositions(shop.id, next);
    };
    if (!known) return reached();
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
    await reached();
  }

  async function pass() {
    for (const userId of options.onlineUserIds()) {
      const shops = (await options.service.shopsOf(userId)).filter((s) => s.status === 'active');
      for (const shop of shops) {
        // Checked before each shop: a pass that outlived its lease stops before it pushes what its successor does.
        if (!(await holdLease())) return;
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
    /**
     * A page listed a shop's chats (fresh from the marketplace): for a shop not polled yet, that is what its owner has
     * seen, so a message arriving before the first pass is pushed rather than taken as stock.
     */
    noteListed(shopId: number, chats: readonly { chatId: string; lastMessageId: string }[]) {
      if (!mayNote || (seen.has(shopId) && !listedOnly.has(shopId))) return;
      seen.set(shopId, new Map(chats.map((c) => [c.chatId, c.lastMessageId])));
      listedOnly.add(shopId);
    },
    /**
     * One pass; overlapping calls share the pass under way. A pass that fails (the database away) is logged and
     * never rejects: it runs on a timer, and the next one tries again.
     */
    tick(): Promise<void> {
      running ??= pass()
        .catch((error: unknown) => options.log.error({ err: error }, 'buyer chat pass failed'))
        .finally(() => (running = null));
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
      // Another instance polls from its next tick on, not when the lease would have run out.
      if (held && options.leases) await options.leases.release(BUYER_CHAT_POLLER_LEASE).catch(() => undefined);
      held = null;
    },
  };
}

export type BuyerChatWatcher = ReturnType<typeof createBuyerChatWatcher>;
