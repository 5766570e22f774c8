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
  private generateChats() {
    const r = randomFor(this.shop.seed, this.shop.clientId, 'chats');
    const count = Math.min(60, Math.max(3, Math.floor(this.shop.orderCount / 50)));
    const buyerLines = ['Здравствуйте! Когда отправите заказ?', '您好，请问什么时候发货？', 'Какой размер подойдёт на рост 170?', 'Товар пришёл с повреждением', 'Можно ли поменять цвет?', 'Спасибо, всё отлично!'];
    const sellerLines = ['Здравствуйте! Отправим в течение 2 дней.', '您好，已经发货了', 'Рекомендуем размер M.', 'Приносим извинения, оформите возврат.'];
    let t = this.shop.anchor - 30 * DAY_MS;
    for (let c = 0; c < count; c++) {
      t += r.int(1, 12) * 3_600_000;
      const index = Math.max(0, this.shop.orderCount - 1 - r.int(0, Math.min(this.shop.orderCount - 1, 2_000)));
      const postingNumber = `${orderNumberOf(this.shop.clientId, index)}-1`;
      const messages: ChatMessage[] = [];
      const n = r.int(1, 7);
      let mt = t;
      for (let m = 0; m < n; m++) {
        mt += r.int(5, 300) * 60_000;
        const fromBuyer = m % 2 === 0;
        const last = m === n - 1;
        messages.push({
          id: ++this.messageSeq,
          createdAt: Math.min(mt, this.shop.anchor),
          userType: fromBuyer ? 'customer' : 'seller',
          text: fromBuyer ? r.pick(buyerLines) : r.pick(sellerLines),
          isRead: !(fromBuyer && last && r.chance(0.6)),
          orderNumber: orderNumberOf(this.shop.clientId, index),
        });
      }
      this.chats.push({ chatId: `${this.shop.clientId}-chat-${hex(r.next())}-${c}`, type: 'Buyer_Seller', status: r.chance(0.9) ? 'Opened' : 'Closed', createdAt: t, postingNumber, messages });
    }
    this.chats.push({
      chatId: `${this.shop.clientId}-support`,
      type: 'Seller_Support',
      status: 'Opened',
      createdAt: this.shop.anchor - 60 * DAY_MS,
      messages: [{ id: ++this.messageSeq, createdAt: this.shop.anchor - 60 * DAY_MS, userType: 'support', text: 'Добро пожаловать в Ozon Seller!', isRead: true }],
    });
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
      if (this.chats.length >= SIM_BOUNDS.chats) this.chats.splice(this.chats.findIndex((c) => c.type === 'Buyer_Seller'), 1);
      this.chats.push(chat);
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

  /** The "new posting now" switch: an awaiting_packaging posting created at the current time. */
}
