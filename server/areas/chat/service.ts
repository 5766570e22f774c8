import { BUYER_CHAT_MESSAGES, type BuyerChat, type BuyerMessage, type BuyerReplyWindow, type BuyerShopChats, type ChatListData } from '../../../contract/chat';
import { shopScopeSql } from '../team/shopScope';
import { message, type Lang, type Localized } from '../../../contract/errors';
import type { OzonChat, OzonChatMessage } from '../../marketplace/ozon/schemas';
import type { PushMessage } from '../../../contract/push';
import type { Database } from '../../db/database';
import { ApiError } from '../../http/errors';
import { decryptSecret } from '../../marketplace/crypto';
import type { OzonClient } from '../../marketplace/ozon/client';
import { isOzonError } from '../../marketplace/ozon/errors';
import type { ClientFactory } from '../../marketplace/plugin';

/**
 * Buyer chats across all of a seller's shops, read from and written to the marketplace through each shop's Ozon
 * client (/v3/chat/list, /v3/chat/history, /v1/chat/send/message, /v2/chat/read). Before sending, Ozon's rules on who
 * may write when are checked here so the seller reads a clear reason instead of a marketplace refusal:
 * - a closed chat takes no new messages;
 * - within 48 h of the buyer's last message the seller may always reply;
 * - otherwise (FBS/rFBS) the seller may write after payment and until 72 h after delivery;
 * - with no buyer message and no posting of ours behind the chat (FBO), only the buyer can start.
 */
export type BuyerChatDeps = {
  database: Database;
  secretKey: Buffer;
  /** The shared marketplace client factory (app.marketplace.clientFor). */
  clientFor: ClientFactory;
  now: () => Date;
  /** Live delivery to a user's open pages; a sent message reaches the sender's other pages through it. */
  push?: (userId: number, message: PushMessage) => void;
};

type ShopRow = { id: number; user_id: number; name: string; client_id: string; api_key_enc: string; base_url: string | null; status: string };

const HOUR = 3_600_000;
export const REPLY_WINDOW_MS = 48 * HOUR;
export const AFTER_DELIVERY_MS = 72 * HOUR;
/** Posting statuses before the buyer has paid: the seller may not write first. */
const UNPAID = new Set(['awaiting_registration', 'acceptance_in_progress', 'awaiting_approve']);
const CHAT_PAGE = 1000;
/** Enough for thousands of chats per shop; more would be read through the synced records. */
const MAX_CHAT_PAGES = 5;

const fail = (code: number, text: Localized, field: string | null = null) => new ApiError(code, text, field);

function marketplaceFailure(error: unknown): never {
  if (isOzonError(error)) throw new ApiError(error.code, error.texts);
  throw error;
}

export function toBuyerChat(storeId: number, c: OzonChat): BuyerChat {
  return {
    storeId,
    chatId: c.chat.chat_id,
    chatType: c.chat.chat_type,
    status: c.chat.chat_status,
    createdAt: Date.parse(c.chat.created_at) || 0,
    unread: c.unread_count,
    lastMessageId: c.last_message_id,
    last: null,
    about: null,
  };
}

/** The list shows this much of a last message. */
export const PREVIEW_CHARS = 80;
/** Chats whose last message is read at once when the list is built (Ozon allows 50 requests/s per Client-Id). */
const PREVIEW_CONCURRENCY = 6;
/** Previews kept in memory (a chat's is read again only when its last message moved on). */
const PREVIEW_CACHE = 20_000;

type CachedPreview = { lastMessageId: string; last: BuyerChat['last']; orderNumber: string; sku: string };

/** A message's text for the list: one line, cut at PREVIEW_CHARS. */
export function previewText(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS - 1)}…` : line;
}

/** A message as the list's preview holds it. */
function pick(message: BuyerMessage): { text: string; createdAt: number; from: BuyerMessage['from'] } {
  return { text: previewText(message.text), createdAt: message.createdAt, from: message.from };
}

/** Runs `work` over `items`, `limit` at a time. */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

export function toBuyerMessage(storeId: number, chatId: string, m: OzonChatMessage): BuyerMessage {
  const type = m.user.type.toLowerCase();
  return {
    id: m.message_id,
    storeId,
    chatId,
    from: type === 'customer' || type === 'seller' || type === 'support' ? type : 'other',
    text: m.data.join('\n'),
    createdAt: Date.parse(m.created_at) || 0,
    isRead: m.is_read,
    orderNumber: m.context?.order_number || null,
  };
}

/** Message ids are int64 as text: compare them as numbers without losing digits. */
export function compareIds(a: string, b: string): number {
  const x = BigInt(a || '0');
  const y = BigInt(b || '0');
  return x < y ? -1 : x > y ? 1 : 0;
}

export function createBuyerChatService(deps: BuyerChatDeps) {
  const q = deps.database.query.bind(deps.database);
  /** `<shop id>|<chat id>` → the chat's last message and its context, as of `lastMessageId`. */
  const previews = new Map<string, CachedPreview>();

  /**
   * Each chat's last message and what it is about. Ozon's chat list names only the last message's id: a chat whose
   * last message moved on since it was read is read again (the newest few messages: the last one's context may be
   * empty while an earlier one names the order), the rest come from memory. The posting and its product come from
   * the shop's synced orders (the posting is Ozon's "<order number>-1"), or from the product of the context's SKU.
   */
  async function withPreviews(shop: ShopRow, chats: BuyerChat[]): Promise<BuyerChat[]> {
    const client = clientOf(shop);
    const stale = chats.filter((c) => c.lastMessageId !== '0' && previews.get(`${shop.id}|${c.chatId}`)?.lastMessageId !== c.lastMessageId);
    await inParallel(stale, PREVIEW_CONCURRENCY, async (chat) => {
      const key = `${shop.id}|${chat.chatId}`;
      try {
        const answer = await client.chatHistory({ chat_id: chat.chatId, direction: 'Backward', limit: 5 });
        const newest = [...answer.messages].sort((a, b) => compareIds(b.message_id, a.message_id));
        const latest = newest[0];
        const context = newest.find((m) => m.context?.order_number || m.context?.sku)?.context;
        const held = previews.get(key);
        previews.delete(key);
        previews.set(key, {
          lastMessageId: chat.lastMessageId,
          last: latest ? { ...pick(toBuyerMessage(shop.id, chat.chatId, latest)), isImage: latest.is_image } : null,
          orderNumber: context?.order_number || held?.orderNumber || '',
          sku: context?.sku || held?.sku || '',
        });
        if (previews.size > PREVIEW_CACHE) previews.delete(previews.keys().next().value!);
      } catch {
        // Not readable now: the chat is listed without its last message, and read again next time.
      }
    });
    const cached = chats.map((c) => previews.get(`${shop.id}|${c.chatId}`));
    const postings = [...new Set(cached.flatMap((p) => (p?.orderNumber ? [`${p.orderNumber}-1`] : [])))];
    const skus = [...new Set(cached.flatMap((p) => (p?.sku && !p.orderNumber ? [p.sku] : [])))];
    const lines = postings.length
      ? await q<{ posting_number: string; order_number: string; product_name: string; offer_id: string; sku: string; image: string | null }>(
          `select distinct on (o.posting_number) o.posting_number, o.order_number, o.product_name, o.offer_id, o.sku, p.image
           from orders o left join products p on p.shop_id = o.shop_id and p.offer_id = o.offer_id
           where o.shop_id = $1 and o.posting_number = any($2::text[]) and not o.deleted order by o.posting_number, o.id`,
          [shop.id, postings],
        )
      : [];
    const bySku = skus.length
      ? await q<{ sku: string; name: string; offer_id: string; image: string }>(`select sku, name, offer_id, image from products where shop_id = $1 and sku = any($2::text[])`, [shop.id, skus])
      : [];
    const postingOf = new Map(lines.map((l) => [l.posting_number, l]));
    const productOf = new Map(bySku.map((p) => [p.sku, p]));
    return chats.map((chat, i) => {
      const preview = cached[i];
      if (!preview) return chat;
      const line = preview.orderNumber ? postingOf.get(`${preview.orderNumber}-1`) : undefined;
      const product = preview.sku ? productOf.get(preview.sku) : undefined;
      const about = line
        ? { orderNumber: line.order_number, postingNumber: line.posting_number, productName: line.product_name, offerId: line.offer_id, sku: line.sku, image: line.image ?? '' }
        : preview.orderNumber
          ? { orderNumber: preview.orderNumber, postingNumber: '', productName: product?.name ?? '', offerId: product?.offer_id ?? '', sku: preview.sku, image: product?.image ?? '' }
          : product
            ? { orderNumber: '', postingNumber: '', productName: product.name, offerId: product.offer_id, sku: preview.sku, image: product.image }
            : null;
      return { ...chat, last: preview.last, about };
    });
  }

  async function shopsOf(userId: number): Promise<ShopRow[]> {
    return q<ShopRow>(`select id, user_id, name, client_id, api_key_enc, base_url, status from mp_shops where user_id = $1${shopScopeSql('id')} order by id`, [userId]);
  }

  async function ownShop(userId: number, storeId: number): Promise<ShopRow> {
    const [row] = await q<ShopRow>(`select id, user_id, name, client_id, api_key_enc, base_url, status from mp_shops where id = $1 and user_id = $2`, [storeId, userId]);
    if (!row) throw fail(404, BUYER_CHAT_MESSAGES.storeNotFound, 'storeId');
    return row;
  }

  const clientOf = (shop: ShopRow) =>
    deps.clientFor({ clientId: shop.client_id, apiKey: decryptSecret(deps.secretKey, shop.api_key_enc), baseUrl: shop.base_url });

  async function fetchChats(shop: ShopRow): Promise<BuyerChat[]> {
    const client = clientOf(shop);
    const chats: BuyerChat[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_CHAT_PAGES; page++) {
      const answer = await client.chatList({ filter: { chat_status: 'All' }, limit: CHAT_PAGE, cursor });
      chats.push(...answer.chats.map((c) => toBuyerChat(shop.id, c)));
      if (!answer.has_next || !answer.cursor) break;
      cursor = answer.cursor;
    }
    return chats;
  }

  /** The chats the sync stored last (mp_records, entity 'chats'): shown when the marketplace does not answer now. */
  async function syncedChats(shopId: number): Promise<BuyerChat[]> {
    const rows = await q<{ data: OzonChat }>(`select data from mp_records where shop_id = $1 and entity = 'chats'`, [shopId]);
    return rows.map((r) => toBuyerChat(shopId, r.data)).sort((a, b) => compareIds(b.lastMessageId, a.lastMessageId));
  }

  async function findChat(shop: ShopRow, chatId: string): Promise<BuyerChat> {
    const chat = (await fetchChats(shop).catch(marketplaceFailure)).find((c) => c.chatId === chatId);
    if (!chat) throw fail(404, BUYER_CHAT_MESSAGES.chatNotFound, 'chatId');
    return chat;
  }

  async function postingOf(shop: ShopRow, client: OzonClient, orderNumber: string): Promise<Record<string, unknown> | null> {
    const [synced] = await q<{ data: Record<string, unknown> }>(
      `select data from mp_records where shop_id = $1 and entity = 'postings' and data->>'order_number' = $2 limit 1`,
      [shop.id, orderNumber],
    );
    if (synced) return synced.data;
    try {
      // Not synced yet: Ozon names an order's first posting "<order number>-1".
      return (await client.postingFbsGet(`${orderNumber}-1`)) as Record<string, unknown>;
    } catch {
      return null;
    }
  }

  /**
   * Ozon's who-may-write-when rules (reference "Buyer chat": limits) for one chat now: whether the seller may write,
   * until when when Ozon's rules name a moment (null: no end known yet, e.g. before delivery), and else why not.
   */
  async function windowOf(shop: ShopRow, client: OzonClient, chat: BuyerChat): Promise<{ canReply: boolean; until: number | null; reason: Localized | null }> {
    const closed = (reason: Localized) => ({ canReply: false, until: null, reason });
    if (chat.status.toLowerCase() === 'closed') return closed(BUYER_CHAT_MESSAGES.chatClosed);
    if (chat.chatType !== 'Buyer_Seller') return { canReply: true, until: null, reason: null };
    const recent = (await client.chatHistory({ chat_id: chat.chatId, direction: 'Backward', limit: 50 }).catch(marketplaceFailure)).messages.map((m) =>
      toBuyerMessage(shop.id, chat.chatId, m),
    );
    const now = deps.now().getTime();
    const lastBuyer = Math.max(0, ...recent.filter((m) => m.from === 'customer').map((m) => m.createdAt));
    const afterBuyer = lastBuyer > 0 ? lastBuyer + REPLY_WINDOW_MS : 0;
    const byBuyer = afterBuyer > now ? { canReply: true, until: afterBuyer, reason: null } : null;
    const orderNumber = recent.find((m) => m.orderNumber)?.orderNumber ?? null;
    const posting = orderNumber ? await postingOf(shop, client, orderNumber) : null;
    if (!posting) return byBuyer ?? closed(lastBuyer > 0 ? BUYER_CHAT_MESSAGES.replyWindowOver : BUYER_CHAT_MESSAGES.fboBuyerStarts);
    const status = String(posting.status ?? '');
    if (UNPAID.has(status)) return byBuyer ?? closed(BUYER_CHAT_MESSAGES.notPaid);
    if (status === 'cancelled' || status === 'not_accepted') return byBuyer ?? closed(BUYER_CHAT_MESSAGES.replyWindowOver);
    if (status !== 'delivered') return { canReply: true, until: null, reason: null };
    const deliveredAt = Date.parse(String(posting.delivered_at ?? posting.delivering_date ?? posting.shipment_date ?? ''));
    const afterDelivery = Number.isFinite(deliveredAt) ? deliveredAt + AFTER_DELIVERY_MS : 0;
    const until = Math.max(afterDelivery, afterBuyer);
    return until > now ? { canReply: true, until, reason: null } : closed(BUYER_CHAT_MESSAGES.replyWindowOver);
  }

  /** Ozon's who-may-write-when rules; throws the reason the seller reads. */
  async function checkMayWrite(shop: ShopRow, client: OzonClient, chat: BuyerChat): Promise<void> {
    const window = await windowOf(shop, client, chat);
    if (!window.canReply) throw fail(400, window.reason ?? BUYER_CHAT_MESSAGES.replyWindowOver, 'chatId');
  }

  /**
   * The seller's other open pages show the reply at once, as team chats do; the sending page knows its copy by the key.
   * The watcher skips the seller's own messages, so this is their only live path.
   */
  function echoToSender(userId: number, sent: BuyerMessage, unread: number, clientKey: string | undefined): BuyerMessage {
    const own = clientKey ? { ...sent, clientKey } : sent;
    deps.push?.(userId, { type: 'chat.buyerMessage', message: own, unread });
    return own;
  }

  return {
    shopsOf,
    clientOf,
    fetchChats,
    ownShop,

    async list(userId: number, lang: Lang): Promise<ChatListData> {
      const shops = await shopsOf(userId);
      const answers = await Promise.all(
        shops.map(async (shop): Promise<BuyerShopChats> => {
          let chats: BuyerChat[];
          let error: string | null = null;
          if (shop.status !== 'active') {
            chats = await syncedChats(shop.id);
            error = message('shopKeyInvalid', lang);
          } else {
            try {
              chats = await fetchChats(shop);
            } catch (failure) {
              if (!isOzonError(failure)) throw failure;
              chats = await syncedChats(shop.id);
              error = failure.texts[lang];
            }
          }
          if (error === null) chats = await withPreviews(shop, chats);
          return { storeId: shop.id, name: shop.name, chats, unread: chats.reduce((sum, c) => sum + c.unread, 0), error };
        }),
      );
      return { shops: answers, totalUnread: answers.reduce((sum, s) => sum + s.unread, 0) };
    },

    async history(userId: number, query: { storeId: number; chatId: string; before?: string | undefined; rows: number }) {
      const shop = await ownShop(userId, query.storeId);
      const answer = await clientOf(shop)
        // One more than asked, plus the `before` message itself should the marketplace include it.
        .chatHistory({ chat_id: query.chatId, direction: 'Backward', from_message_id: query.before, limit: query.rows + 2 })
        .catch(marketplaceFailure);
      const older = answer.messages
        .map((m) => toBuyerMessage(shop.id, query.chatId, m))
        .filter((m) => query.before === undefined || compareIds(m.id, query.before) < 0)
        .sort((a, b) => compareIds(b.id, a.id));
      const page = older.slice(0, query.rows).reverse();
      return { messages: page, hasMore: older.length > query.rows || (answer.has_next && page.length === query.rows) };
    },

    async read(userId: number, body: { storeId: number; chatId: string; messageId?: string | undefined }) {
      const shop = await ownShop(userId, body.storeId);
      const unread = await clientOf(shop).chatRead(body.chatId, body.messageId).catch(marketplaceFailure);
      return { unread };
    },

    async send(userId: number, body: { storeId: number; chatId: string; text: string; clientKey?: string | undefined }): Promise<{ message: BuyerMessage }> {
      const shop = await ownShop(userId, body.storeId);
      const client = clientOf(shop);
      const chat = await findChat(shop, body.chatId);
      await checkMayWrite(shop, client, chat);
      const sentAt = deps.now().getTime();
      await client.chatSendMessage(body.chatId, body.text).catch(marketplaceFailure);
      // Ozon answers only "success": the stored message (with its id) is the newest of ours with this text.
      const latest = await client.chatHistory({ chat_id: body.chatId, direction: 'Backward', limit: 10 }).catch(() => ({ messages: [] }));
      const stored = latest.messages.map((m) => toBuyerMessage(shop.id, body.chatId, m)).find((m) => m.from === 'seller' && m.text === body.text);
      const message = stored ?? { id: `sent-${sentAt}`, storeId: shop.id, chatId: body.chatId, from: 'seller' as const, text: body.text, createdAt: sentAt, isRead: true, orderNumber: null };
      return { message: echoToSender(userId, message, chat.unread, body.clientKey) };
    },

    /** Whether and until when the seller may write in a buyer chat now, and else why not (in the user's language). */
    async replyWindow(userId: number, query: { storeId: number; chatId: string }, lang: Lang): Promise<BuyerReplyWindow> {
      const shop = await ownShop(userId, query.storeId);
      const window = await windowOf(shop, clientOf(shop), await findChat(shop, query.chatId));
      return { canReply: window.canReply, until: window.until, reason: window.reason ? window.reason[lang] : null };
    },

    /** A stored upload into a buyer chat through Ozon's /v1/chat/send/file, under the same who-may-write rules. */
    async sendFile(userId: number, body: { storeId: number; chatId: string; name: string; content: Buffer; clientKey?: string | undefined }): Promise<{ message: BuyerMessage }> {
      const shop = await ownShop(userId, body.storeId);
      const client = clientOf(shop);
      const chat = await findChat(shop, body.chatId);
      await checkMayWrite(shop, client, chat);
      const sentAt = deps.now().getTime();
      await client.chatSendFile(body.chatId, body.name, body.content.toString('base64')).catch(marketplaceFailure);
      const latest = await client.chatHistory({ chat_id: body.chatId, direction: 'Backward', limit: 10 }).catch(() => ({ messages: [] }));
      const stored = latest.messages.map((m) => toBuyerMessage(shop.id, body.chatId, m)).find((m) => m.from === 'seller');
      const message = stored ?? { id: `sent-${sentAt}`, storeId: shop.id, chatId: body.chatId, from: 'seller' as const, text: body.name, createdAt: sentAt, isRead: true, orderNumber: null };
      return { message: echoToSender(userId, message, chat.unread, body.clientKey) };
    },
  };
}

export type BuyerChatService = ReturnType<typeof createBuyerChatService>;
