import type { chatHistoryResponseSchema, chatListResponseSchema, chatReadResponseSchema, chatSendResponseSchema, chatStartResponseSchema } from '../../ozon/schemas';
import { badRequest, notFound } from '../errors';
import { DAY_MS, orderNumberOf } from '../postings';
import { randomFor } from '../random';
import type { OzonRequest } from '../../ozon/versions';
import type { SimShop } from '../shop';
import type { Answer } from '../wire';
import { asNumbers, checkLimit, decodeCursor, encodeCursor, iso, pushBounded, SIM_BOUNDS } from '../wire';

type ChatMessage = { id: number; createdAt: number; userType: 'customer' | 'seller' | 'support'; text: string; isRead: boolean; orderNumber?: string; isImage?: boolean };
type SimChat = { chatId: string; type: string; status: 'Opened' | 'Closed'; createdAt: number; postingNumber?: string; messages: ChatMessage[] };

/** An address a buyer's picture may have: absolute http(s), no brackets that would end the `img[...]` token. */
function isImageUrl(url: string): boolean {
  if (url.length > 2048 || /[\s[\]]/.test(url)) return false;
  try {
    return ['http:', 'https:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

const HOUR = 3_600_000;
/** How far back the generated chats reach. */
const CHAT_HISTORY_MS = 14 * DAY_MS;
const BUYER_LINES = [
  'Здравствуйте! Когда отправите заказ?',
  '您好，请问什么时候发货？',
  'Какой размер подойдёт на рост 170?',
  'Товар пришёл с повреждением',
  'Можно ли поменять цвет?',
  'Спасибо, всё отлично!',
  'Подскажите, пожалуйста, срок доставки в Новосибирск?',
  'Добрый день! Заказ ещё не отправлен?',
  'Есть ли гарантия на этот товар?',
  'Можно добавить в посылку ещё одну штуку?',
];

const hex = (n: number) => Math.floor(n * 0xffffffff).toString(16).padStart(8, '0');

/**
 * Ozon area "buyer chat": /v3/chat/list, /v3/chat/history, /v1/chat/send/message and send/file, /v2/chat/read,
 * /v1/chat/start. Bounded (SIM_BOUNDS): a chat keeps its newest messages, a shop its newest chats.
 */
export class ChatArea {
  private readonly shop: SimShop;
  readonly chats: SimChat[] = [];
  messageSeq: number;

  constructor(shop: SimShop) {
    this.shop = shop;
    this.messageSeq = Number(shop.clientId) * 1_000_000_000;
    this.generateChats();
  }

  // ---- chats
  /**
   * Chats over the 14 days before the anchor, closer together towards it (a third in its last 36 hours, inside
   * Ozon's 48-hour reply window), each about a posting bought up to five days before it began.
   */
  private generateChats() {
    const r = randomFor(this.shop.seed, this.shop.clientId, 'chats');
    const count = Math.min(60, Math.max(3, Math.floor(this.shop.orderCount / 50)));
    const sellerLines = ['Здравствуйте! Отправим в течение 2 дней.', '您好，已经发货了', 'Рекомендуем размер M.', 'Приносим извинения, оформите возврат.'];
    for (let c = 0; c < count; c++) {
      const share = (count - c) / count;
      const last = this.shop.anchor - Math.floor(share * share * CHAT_HISTORY_MS) - r.int(0, 59) * 60_000;
      const n = r.int(1, 7);
      const gaps = Array.from({ length: n }, () => r.int(5, 300) * 60_000);
      const createdAt = last - gaps.reduce((sum, gap) => sum + gap, 0);
      const index = this.postingAt(createdAt - r.int(0, 5 * 24) * HOUR);
      const orderNumber = orderNumberOf(this.shop.clientId, index);
      const messages: ChatMessage[] = [];
      let mt = createdAt;
      for (let m = 0; m < n; m++) {
        mt += gaps[m]!;
        const fromBuyer = m % 2 === 0;
        messages.push({
          id: ++this.messageSeq,
          createdAt: mt,
          userType: fromBuyer ? 'customer' : 'seller',
          text: fromBuyer ? r.pick(BUYER_LINES) : r.pick(sellerLines),
          isRead: !(fromBuyer && m === n - 1 && r.chance(0.6)),
          orderNumber,
        });
      }
      this.chats.push({
        chatId: `${this.shop.clientId}-chat-${hex(r.next())}-${c}`,
        type: 'Buyer_Seller',
        status: r.chance(0.9) ? 'Opened' : 'Closed',
        createdAt,
        postingNumber: `${orderNumber}-1`,
        messages,
      });
    }
    this.chats.push({
      chatId: `${this.shop.clientId}-support`,
      type: 'Seller_Support',
      status: 'Opened',
      createdAt: this.shop.anchor - 60 * DAY_MS,
      messages: [{ id: ++this.messageSeq, createdAt: this.shop.anchor - 60 * DAY_MS, userType: 'support', text: 'Добро пожаловать в Ozon Seller!', isRead: true }],
    });
  }

  /** The generated posting bought closest to `time`. */
  private postingAt(time: number): number {
    const index = Math.floor((time - this.shop.start) / this.shop.step - 0.5);
    return Math.min(this.shop.orderCount - 1, Math.max(0, index));
  }

  /** Adds a chat, dropping the oldest buyer chat past the bound. */
  private addChat(chat: SimChat) {
    if (this.chats.length >= SIM_BOUNDS.chats) this.chats.splice(this.chats.findIndex((c) => c.type === 'Buyer_Seller'), 1);
    this.chats.push(chat);
  }

  /**
   * The demo's own buyers (./live.ts): the buyer of `postingNumber` asks about it in a new chat, or, without one, a
   * buyer of a recent open chat writes again. The message is unread, at `at`.
   */
  addLiveMessage(at: number, slot: number, postingNumber?: string) {
    const r = randomFor(this.shop.seed, this.shop.clientId, 'live-message', slot);
    let chat = postingNumber ? this.chats.find((c) => c.postingNumber === postingNumber) : undefined;
    if (postingNumber && !chat) {
      chat = { chatId: `${this.shop.clientId}-chat-${postingNumber}`, type: 'Buyer_Seller', status: 'Opened', createdAt: at, postingNumber, messages: [] };
      this.addChat(chat);
    }
    if (!chat) {
      const recent = this.chats
        .filter((c) => c.type === 'Buyer_Seller' && c.status === 'Opened')
        .sort((a, b) => (b.messages.at(-1)?.createdAt ?? b.createdAt) - (a.messages.at(-1)?.createdAt ?? a.createdAt))
        .slice(0, 10);
      if (recent.length === 0) return undefined;
      chat = r.pick(recent);
    }
    const orderNumber = chat.postingNumber?.replace(/-\d+$/, '');
    const message: ChatMessage = { id: ++this.messageSeq, createdAt: at, userType: 'customer', text: r.pick(BUYER_LINES), isRead: false, ...(orderNumber ? { orderNumber } : {}) };
    pushBounded(chat.messages, message, SIM_BOUNDS.messagesPerChat);
    return { chatId: chat.chatId, messageId: message.id };
  }

  private chatView(chat: SimChat) {
    const unread = chat.messages.filter((m) => !m.isRead && m.userType !== 'seller');
    return {
      chat: { chat_id: chat.chatId, chat_type: chat.type, chat_status: chat.status, created_at: iso(chat.createdAt) },
      first_unread_message_id: unread[0]?.id ?? 0,
      last_message_id: chat.messages[chat.messages.length - 1]?.id ?? 0,
      unread_count: unread.length,
    };
  }

  chatList(body: OzonRequest<'chatList'>): Answer<typeof chatListResponseSchema> {
    const limit = checkLimit(body.limit ?? 30, 1000);
    const filter = body.filter ?? {};
    const status = typeof filter.chat_status === 'string' ? filter.chat_status : 'All';
    const sorted = [...this.chats]
      .filter((c) => status === 'All' || c.status === status)
      .filter((c) => !filter.unread_only || this.chatView(c).unread_count > 0)
      .sort((a, b) => (b.messages[b.messages.length - 1]?.id ?? 0) - (a.messages[a.messages.length - 1]?.id ?? 0));
    const from = decodeCursor<{ o: number }>(body.cursor)?.o ?? 0;
    const page = sorted.slice(from, from + limit);
    return {
      chats: page.map((c) => this.chatView(c)),
      total_unread_count: this.chats.reduce((sum, c) => sum + this.chatView(c).unread_count, 0),
      cursor: from + limit < sorted.length ? encodeCursor({ o: from + limit }) : '',
      has_next: from + limit < sorted.length,
    };
  }

  private requireChat(id: unknown): SimChat {
    const chat = this.chats.find((c) => c.chatId === id);
    if (!chat) throw notFound('chat not found');
    return chat;
  }

  chatHistory(body: OzonRequest<'chatHistory'>): Answer<typeof chatHistoryResponseSchema> {
    const chat = this.requireChat(body.chat_id);
    const limit = checkLimit(body.limit ?? 50, 1000);
    const forward = body.direction === 'Forward';
    const from = body.from_message_id !== undefined && body.from_message_id !== '' ? Number(body.from_message_id) : undefined;
    const ids = new Set(asNumbers(body.filter?.message_ids));
    let list = chat.messages.filter((m) => ids.size === 0 || ids.has(m.id));
    list = forward ? list.filter((m) => from === undefined || m.id >= from) : list.filter((m) => from === undefined || m.id <= from).reverse();
    return {
      messages: list.slice(0, limit).map((m) => ({
        message_id: m.id,
        user: { id: m.userType === 'seller' ? this.shop.clientId : m.userType === 'support' ? 'ozon-support' : `buyer-${chat.chatId}`, type: m.userType },
        created_at: iso(m.createdAt),
        is_read: m.isRead,
        is_image: m.isImage ?? false,
        moderate_image_status: 'SUCCESS',
        data: [m.text],
        context: m.orderNumber ? { order_number: m.orderNumber, sku: '' } : null,
      })),
      has_next: list.length > limit,
    };
  }

  chatSend(body: OzonRequest<'chatSendMessage'>): Answer<typeof chatSendResponseSchema> {
    const chat = this.requireChat(body.chat_id);
    const text = typeof body.text === 'string' ? body.text : '';
    if (text.length < 1 || text.length > 1000) throw badRequest('text must be 1 to 1000 characters');
    if (chat.status === 'Closed') throw badRequest('chat is closed');
    pushBounded(chat.messages, { id: ++this.messageSeq, createdAt: this.shop.env.now(), userType: 'seller', text, isRead: true }, SIM_BOUNDS.messagesPerChat);
    return { result: 'success' };
  }

  /** The file itself is not kept: the history shows its name, as a stand-in for Ozon's CDN link. */
  chatSendFile(body: OzonRequest<'chatSendFile'>): Answer<typeof chatSendResponseSchema> {
    const chat = this.requireChat(body.chat_id);
    const name = typeof body.name === 'string' ? body.name.trim() : '';
    const content = typeof body.base64_content === 'string' ? body.base64_content : '';
    if (!name) throw badRequest('name is required');
    if (name.length > SIM_BOUNDS.fileNameChars) throw badRequest(`name must be at most ${SIM_BOUNDS.fileNameChars} characters`);
    if (!content || !/^[A-Za-z0-9+/]+={0,2}$/.test(content)) throw badRequest('base64_content must be base64');
    if (chat.status === 'Closed') throw badRequest('chat is closed');
    const isImage = /\.(jpe?g|png|gif|bmp)$/i.test(name);
    pushBounded(chat.messages, { id: ++this.messageSeq, createdAt: this.shop.env.now(), userType: 'seller', text: name, isRead: true, isImage }, SIM_BOUNDS.messagesPerChat);
    return { result: 'success' };
  }

  chatRead(body: OzonRequest<'chatRead'>): Answer<typeof chatReadResponseSchema> {
    const chat = this.requireChat(body.chat_id);
    const upTo = body.from_message_id !== undefined ? Number(body.from_message_id) : Infinity;
    for (const m of chat.messages) if (m.id <= upTo) m.isRead = true;
    return { unread_count: this.chatView(chat).unread_count };
  }

  chatStart(body: OzonRequest<'chatStart'>): Answer<typeof chatStartResponseSchema> {
    const postingNumber = String(body.posting_number ?? '');
    this.shop.areas.postings.requirePosting(postingNumber);
    let chat = this.chats.find((c) => c.postingNumber === postingNumber);
    if (!chat) {
      chat = { chatId: `${this.shop.clientId}-chat-${postingNumber}`, type: 'Buyer_Seller', status: 'Opened', createdAt: this.shop.env.now(), postingNumber, messages: [] };
      this.addChat(chat);
    }
    return { result: { chat_id: chat.chatId } };
  }

  /**
   * The "new buyer message now" switch. With `imageUrl` the buyer sends a picture hosted elsewhere: the message
   * carries it as `img[<url>]` (after the text, when there is one) and is marked `is_image`, as Ozon marks a photo.
   */
  addBuyerMessage(chatId?: string, text?: string, imageUrl?: string) {
    const chat = chatId ? this.requireChat(chatId) : this.chats.find((c) => c.type === 'Buyer_Seller' && c.status === 'Opened');
    if (!chat) throw notFound('chat not found');
    if (imageUrl !== undefined && !isImageUrl(imageUrl)) throw badRequest('imageUrl must be an http(s) address of at most 2048 characters');
    const content = imageUrl === undefined ? (text ?? 'Здравствуйте! Есть вопрос по заказу.') : [text, `img[${imageUrl}]`].filter(Boolean).join('\n');
    const message: ChatMessage = { id: ++this.messageSeq, createdAt: this.shop.env.now(), userType: 'customer', text: content, isRead: false, ...(imageUrl === undefined ? {} : { isImage: true }) };
    pushBounded(chat.messages, message, SIM_BOUNDS.messagesPerChat);
    return { chatId: chat.chatId, messageId: message.id };
  }

}
