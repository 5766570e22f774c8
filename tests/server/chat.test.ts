import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { BUYER_CHAT_MESSAGES, type BuyerMessage, type BuyerReplyWindow, type ChatHistoryData, type ChatListData } from '../../contract/chat';
import { pushMessageSchema, type PushMessage } from '../../contract/push';
import type { Store } from '../../contract/store';
import type { BuyerChatWatcher } from '../../server/areas/chat/watcher';
import { createOzonSimulator, type OzonSimulator } from '../../server/marketplace/simulator/plugin';
import { DATABASE_TARGETS, login, pushUrl, startTestApp, type Session, type TestApp } from './harness';

const START = Date.parse('2025-06-10T08:00:00Z');
const HOUR = 3_600_000;

function collect(ws: WebSocket) {
  const frames: PushMessage[] = [];
  ws.on('message', (data) => frames.push(pushMessageSchema.parse(JSON.parse(String(data)))));
  return frames;
}

describe.each(DATABASE_TARGETS)('buyer chat on $kind', (target) => {
  let t: TestApp;
  let sim: OzonSimulator;
  let watcher!: BuyerChatWatcher;
  let seller: Session;
  let stores: Store[];
  /** The simulator's clock follows the server's, so Ozon's time windows are the test's to move. */
  let offset = 0;
  const advance = (ms: number) => {
    offset += ms;
    t.clock.advance(ms);
  };

  const get = <T>(url: string, session: Session = seller) =>
    t.app.inject({ method: 'GET', url, headers: session.headers }).then((r) => ({ status: r.statusCode, body: r.json<{ code: number; msg: string; data: T }>() }));
  const post = <T>(url: string, payload: unknown, session: Session = seller, lang = 'zh-CN') =>
    t.app
      .inject({ method: 'POST', url, headers: { ...session.headers, 'accept-language': lang }, payload: payload as object })
      .then((r) => ({ status: r.statusCode, body: r.json<{ code: number; msg: string; data: T }>() }));

  beforeAll(async () => {
    sim = createOzonSimulator({ ordersPerShop: 3_000, productsPerShop: 50, now: () => START + offset, control: { labelReadyDelayMs: 0, taskDelayMs: 0 } });
    t = await startTestApp(target, { app: { marketplace: { simulator: sim }, chat: { pollMs: 0, onWatcher: (w) => (watcher = w) } } });
    seller = await login(t.app, 'seller', 'seller123');
    stores = [];
    for (const clientId of ['1001', '1002']) {
      const added = await post<Store>('/api/store/add', { name: `shop ${clientId}`, clientId, apiKey: `sim-key-${clientId}` });
      expect(added.status).toBe(200);
      stores.push(added.body.data);
    }
  });
  afterAll(() => t?.close());

  const list = async () => {
    const answer = await get<ChatListData>('/api/chat/list');
    expect(answer.status).toBe(200);
    return answer.body.data;
  };

  it('lists the buyer chats of every shop of the seller with unread counts per shop', async () => {
    const data = await list();
    expect(data.shops.map((s) => s.storeId)).toEqual(stores.map((s) => s.id));
    for (const shop of data.shops) {
      expect(shop.error).toBeNull();
      expect(shop.chats.length).toBeGreaterThan(3);
      expect(shop.unread).toBe(shop.chats.reduce((sum, c) => sum + c.unread, 0));
      expect(shop.chats.every((c) => c.storeId === shop.storeId)).toBe(true);
    }
    expect(data.totalUnread).toBe(data.shops.reduce((sum, s) => sum + s.unread, 0));
    expect(data.totalUnread).toBeGreaterThan(0);
  });

  it('lists each chat with its last message and the posting and product it is about, read again when a message arrives', async () => {
    const first = (await list()).shops[0]!;
    const buyerChats = first.chats.filter((c) => c.chatType === 'Buyer_Seller');
    expect(buyerChats.every((c) => c.last !== null && c.last.text !== '' && c.last.createdAt > 0)).toBe(true);
    // The simulator's buyers write about an order of the shop (the message's context); its posting is Ozon's "-1".
    expect(buyerChats.every((c) => c.about !== null && c.about.orderNumber !== '')).toBe(true);
    const support = first.chats.find((c) => c.chatType === 'Seller_Support')!;
    expect(support.about).toBeNull();
    expect(support.last?.from).toBe('support');

    // Once the posting is among the shop's synced orders, the chat names it and its product.
    const chat = buyerChats[0]!;
    const order = chat.about!.orderNumber;
    await t.database.query(
      `insert into orders (id, user_id, shop_id, shop_name, posting_number, order_number, status, in_process_at, sku, offer_id, product_name, source)
       select $1, user_id, id, name, $2, $3, 'awaiting_packaging', now(), '777', 'SKU-777', 'Чехол Remax G813', 'ozon' from mp_shops where id = $4`,
      [`${stores[0]!.id}:${order}-1:777`, `${order}-1`, order, stores[0]!.id],
    );
    sim.shop('1001').addBuyerMessage(chat.chatId, 'Когда   отправите?\nСпасибо');
    const again = (await list()).shops[0]!.chats.find((c) => c.chatId === chat.chatId)!;
    expect(again.last).toMatchObject({ text: 'Когда отправите? Спасибо', from: 'customer' });
    expect(again.about).toMatchObject({ orderNumber: order, postingNumber: `${order}-1`, productName: 'Чехол Remax G813', offerId: 'SKU-777' });
    expect(again.unread).toBeGreaterThan(0);
  });

  it('pages history backwards from a message id, oldest first, and marks a chat read', async () => {
    const shop = (await list()).shops[0]!;
    const chatId = sim.shop('1001').addBuyerMessage(undefined, 'первый').chatId;
    for (const text of ['второй', 'третий']) sim.shop('1001').addBuyerMessage(chatId, text);
    const first = await get<ChatHistoryData>(`/api/chat/history?storeId=${shop.storeId}&chatId=${chatId}&rows=2`);
    expect(first.body.data.messages.map((m) => m.text)).toEqual(['второй', 'третий']);
    expect(first.body.data.hasMore).toBe(true);
    const before = first.body.data.messages[0]!.id;
    const older = await get<ChatHistoryData>(`/api/chat/history?storeId=${shop.storeId}&chatId=${chatId}&rows=2&before=${before}`);
    const olderTexts = older.body.data.messages.map((m) => m.text);
    expect(olderTexts[olderTexts.length - 1]).toBe('первый');
    expect(older.body.data.messages.every((m) => BigInt(m.id) < BigInt(before))).toBe(true);

    const unreadBefore = (await list()).shops[0]!.chats.find((c) => c.chatId === chatId)!.unread;
    expect(unreadBefore).toBeGreaterThanOrEqual(3);
    const read = await post<{ unread: number }>('/api/chat/read', { storeId: shop.storeId, chatId });
    expect(read.body.data.unread).toBe(0);
    expect((await list()).shops[0]!.chats.find((c) => c.chatId === chatId)!.unread).toBe(0);
  });

  it('sends a reply within 48 hours of the buyer\'s message and answers it with its id', async () => {
    const { chatId } = sim.shop('1002').addBuyerMessage(undefined, 'Когда доставка?');
    const sent = await post<{ message: BuyerMessage }>('/api/sendMessage', { storeId: stores[1]!.id, chatId, text: '您好，明天发货' });
    expect(sent.status).toBe(200);
    expect(sent.body.data.message).toMatchObject({ from: 'seller', text: '您好，明天发货', chatId, storeId: stores[1]!.id });
    const history = await get<ChatHistoryData>(`/api/chat/history?storeId=${stores[1]!.id}&chatId=${chatId}&rows=5`);
    expect(history.body.data.messages.at(-1)).toMatchObject({ id: sent.body.data.message.id, text: '您好，明天发货' });
  });

  it('refuses a closed chat, an empty or too long text, with clear messages', async () => {
    const closed = (await list()).shops.flatMap((s) => s.chats).find((c) => c.status === 'Closed' && c.storeId === stores[0]!.id);
    expect(closed).toBeDefined();
    const refused = await post('/api/sendMessage', { storeId: closed!.storeId, chatId: closed!.chatId, text: 'hello' });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe(BUYER_CHAT_MESSAGES.chatClosed.zh);
    const inEnglish = await post('/api/sendMessage', { storeId: closed!.storeId, chatId: closed!.chatId, text: 'hello' }, seller, 'en');
    expect(inEnglish.body.msg).toBe(BUYER_CHAT_MESSAGES.chatClosed.en);
    const window = await get<BuyerReplyWindow>(`/api/chat/replyWindow?storeId=${closed!.storeId}&chatId=${closed!.chatId}`);
    expect(window.body.data).toEqual({ canReply: false, until: null, reason: BUYER_CHAT_MESSAGES.chatClosed.zh });

    const empty = await post('/api/sendMessage', { storeId: stores[0]!.id, chatId: closed!.chatId, text: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toMatch(/^text/);
    const long = await post('/api/sendMessage', { storeId: stores[0]!.id, chatId: closed!.chatId, text: 'x'.repeat(1001) });
    expect(long.status).toBe(400);
  });

  it('refuses to write 72 hours after delivery unless the buyer wrote within 48 hours', async () => {
    // Ten days on, every generated buyer message is older than 48 h.
    advance(10 * 24 * HOUR);
    seller = await login(t.app, 'seller', 'seller123');
    const chats = (await list()).shops[0]!.chats.filter((c) => c.status === 'Opened' && c.chatType === 'Buyer_Seller');
    let delivered: string | undefined;
    for (const chat of chats) {
      const history = await t.app.inject({
        method: 'POST',
        url: '/sim/ozon/v3/chat/history',
        headers: { 'client-id': '1001', 'api-key': 'sim-key-1001' },
        payload: { chat_id: chat.chatId, limit: 1 },
      });
      const order = history.json<{ messages: { context?: { order_number?: string } }[] }>().messages[0]?.context?.order_number;
      if (!order) continue;
      const posting = await t.app.inject({
        method: 'POST',
        url: '/sim/ozon/v3/posting/fbs/get',
        headers: { 'client-id': '1001', 'api-key': 'sim-key-1001' },
        payload: { posting_number: `${order}-1` },
      });
      if (posting.json<{ result: { status: string } }>().result.status === 'delivered') {
        delivered = chat.chatId;
        break;
      }
    }
    expect(delivered).toBeDefined();
    // The page asks before the seller types: the window is over, and why.
    const windowUrl = `/api/chat/replyWindow?storeId=${stores[0]!.id}&chatId=${delivered}`;
    const over = await get<BuyerReplyWindow>(windowUrl);
    expect(over.body.data).toEqual({ canReply: false, until: null, reason: BUYER_CHAT_MESSAGES.replyWindowOver.zh });
    const refused = await post('/api/sendMessage', { storeId: stores[0]!.id, chatId: delivered, text: '还在吗？' });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe(BUYER_CHAT_MESSAGES.replyWindowOver.zh);

    sim.shop('1001').addBuyerMessage(delivered, 'Ответьте, пожалуйста');
    // The buyer wrote: open again for 48 hours from that message.
    const reopened = await get<BuyerReplyWindow>(windowUrl);
    expect(reopened.body.data).toEqual({ canReply: true, until: START + offset + 48 * HOUR, reason: null });
    const reply = await post('/api/sendMessage', { storeId: stores[0]!.id, chatId: delivered, text: '您好，请讲' });
    expect(reply.status).toBe(200);
  });

  // Before any other test ticks: the poller has not looked at the seller's shops yet.
  it('pushes a buyer message that arrives after the page listed the chats and before the first poll of the shop', async () => {
    let frames: PushMessage[] = [];
    const ws = await t.app.injectWS(await pushUrl(t.app, seller), {}, { onInit: (socket) => (frames = collect(socket)) });
    await list();
    const { chatId, messageId } = sim.shop('1001').addBuyerMessage(undefined, 'Заказ ещё не пришёл');
    await watcher.tick();
    await expect.poll(() => frames.filter((f) => f.type === 'chat.buyerMessage')).toHaveLength(1);
    expect(frames.find((f) => f.type === 'chat.buyerMessage')).toMatchObject({ message: { chatId, id: String(messageId), storeId: stores[0]!.id } });
    ws.terminate();
  });

  it('pushes a new buyer message to the seller\'s open page on the next poll, and only to the shop\'s owner', async () => {
    const admin = await login(t.app, 'admin', 'admin123');
    let sellerFrames: PushMessage[] = [];
    let adminFrames: PushMessage[] = [];
    const sellerWs = await t.app.injectWS(await pushUrl(t.app, seller), {}, { onInit: (ws) => (sellerFrames = collect(ws)) });
    const adminWs = await t.app.injectWS(await pushUrl(t.app, admin), {}, { onInit: (ws) => (adminFrames = collect(ws)) });
    await watcher.tick();
    const { chatId, messageId } = sim.shop('1002').addBuyerMessage(undefined, 'Есть в наличии?');
    await watcher.tick();
    await expect.poll(() => sellerFrames.filter((f) => f.type === 'chat.buyerMessage')).toHaveLength(1);
    const frame = sellerFrames.find((f) => f.type === 'chat.buyerMessage');
    expect(frame).toMatchObject({ message: { chatId, id: String(messageId), text: 'Есть в наличии?', from: 'customer', storeId: stores[1]!.id } });
    expect(adminFrames.some((f) => f.type === 'chat.buyerMessage')).toBe(false);
    // Nothing new: nothing pushed again.
    await watcher.tick();
    expect(sellerFrames.filter((f) => f.type === 'chat.buyerMessage')).toHaveLength(1);
    sellerWs.terminate();
    adminWs.terminate();
  });

  it("echoes the seller's reply live to the seller's other pages with the sending page's key, and to no one else", async () => {
    const admin = await login(t.app, 'admin', 'admin123');
    let otherPage: PushMessage[] = [];
    let adminFrames: PushMessage[] = [];
    const otherWs = await t.app.injectWS(await pushUrl(t.app, seller), {}, { onInit: (ws) => (otherPage = collect(ws)) });
    const adminWs = await t.app.injectWS(await pushUrl(t.app, admin), {}, { onInit: (ws) => (adminFrames = collect(ws)) });
    const { chatId } = sim.shop('1002').addBuyerMessage(undefined, 'Какой размер?');
    const sent = await post<{ message: BuyerMessage }>('/api/sendMessage', { storeId: stores[1]!.id, chatId, text: '尺码是M', clientKey: 'page-7:3' });
    expect(sent.status).toBe(200);
    expect(sent.body.data.message).toMatchObject({ text: '尺码是M', clientKey: 'page-7:3' });
    await expect.poll(() => otherPage.find((f) => f.type === 'chat.buyerMessage' && f.message.chatId === chatId)).toMatchObject({
      message: { id: sent.body.data.message.id, from: 'seller', text: '尺码是M', storeId: stores[1]!.id, clientKey: 'page-7:3' },
    });
    // The watcher's next pass does not push the seller's own reply a second time.
    await watcher.tick();
    await watcher.tick();
    expect(otherPage.filter((f) => f.type === 'chat.buyerMessage' && f.message.chatId === chatId && f.message.from === 'seller')).toHaveLength(1);
    expect(adminFrames.some((f) => f.type === 'chat.buyerMessage')).toBe(false);
    otherWs.terminate();
    adminWs.terminate();
  });

  it('keeps other sellers out: another user\'s shop is not found, and roles without chat get 401', async () => {
    const admin = await login(t.app, 'admin', 'admin123');
    const chatId = (await list()).shops[0]!.chats[0]!.chatId;
    const foreign = await get(`/api/chat/history?storeId=${stores[0]!.id}&chatId=${chatId}`, admin);
    expect(foreign.status).toBe(404);
    expect((await get<ChatListData>('/api/chat/list', admin)).body.data.shops).toEqual([]);
    const analyst = await login(t.app, 'analyst', 'analyst123');
    for (const url of ['/api/chat/list', `/api/chat/history?storeId=${stores[0]!.id}&chatId=${chatId}`]) {
      expect((await get(url, analyst)).status).toBe(401);
    }
    expect((await post('/api/chat/read', { storeId: stores[0]!.id, chatId }, analyst)).status).toBe(401);
    expect((await post('/api/sendMessage', { storeId: stores[0]!.id, chatId, text: 'x' }, analyst)).status).toBe(401);
  });

  it('shows the last synced chats with the reason when the shop\'s key has failed', async () => {
    await t.database.query(
      `insert into mp_records (shop_id, entity, external_id, data) values ($1, 'chats', 'c1', $2::jsonb)`,
      [stores[0]!.id, JSON.stringify({ chat: { chat_id: 'c1', chat_type: 'Buyer_Seller', chat_status: 'Opened', created_at: '2025-06-01T00:00:00Z' }, first_unread_message_id: '0', last_message_id: '9', unread_count: 2 })],
    );
    await t.database.query(`update mp_shops set status = 'keyFailed' where id = $1`, [stores[0]!.id]);
    const data = await list();
    await t.database.query(`update mp_shops set status = 'active' where id = $1`, [stores[0]!.id]);
    const shop = data.shops.find((s) => s.storeId === stores[0]!.id)!;
    expect(shop.error).toBeTruthy();
    expect(shop.chats.map((c) => c.chatId)).toContain('c1');
    expect(shop.unread).toBe(shop.chats.reduce((sum, c) => sum + c.unread, 0));
    expect(shop.unread).toBeGreaterThanOrEqual(2);
  });
});
