import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TeamRequest } from '../../contract/chat';
import { CHAT_UPLOAD_MESSAGES, UPLOAD_MAX_BYTES, type UploadData } from '../../contract/chatUpload';
import type { Store } from '../../contract/store';
import { createOzonSimulator, type OzonSimulator } from '../../server/marketplace/simulator/plugin';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from './harness';
import { multipart } from '../support/multipart';

const START = Date.parse('2025-06-10T08:00:00Z');
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

describe.each(DATABASE_TARGETS)('chat uploads on $kind', (target) => {
  let t: TestApp;
  let sim: OzonSimulator;
  let admin: Session;
  let seller: Session;
  let carol: Session;
  let store: Store;

  type Answer<T> = { status: number; body: { code: number; msg: string; data: T }; headers: Record<string, unknown>; raw: Buffer };
  const upload = async (session: Session | null, fields: Record<string, string>, file: { name: string; bytes: Buffer } | null, lang = 'zh-CN'): Promise<Answer<UploadData>> => {
    const { payload, contentType } = multipart(fields, file);
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/chat/upload',
      headers: { ...(session?.headers ?? {}), 'content-type': contentType, 'accept-language': lang },
      payload,
    });
    return { status: r.statusCode, body: r.json(), headers: r.headers, raw: r.rawPayload };
  };
  const fetchFile = async (session: Session, url: string) => {
    const r = await t.app.inject({ method: 'GET', url, headers: session.headers });
    return { status: r.statusCode, headers: r.headers, raw: r.rawPayload };
  };
  const post = <T>(session: Session, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: { ...session.headers, 'accept-language': 'zh-CN' }, payload }).then((r) => ({ status: r.statusCode, body: r.json<{ code: number; msg: string; data: T }>() }));

  beforeAll(async () => {
    sim = createOzonSimulator({ ordersPerShop: 500, productsPerShop: 20, now: () => START, control: { labelReadyDelayMs: 0, taskDelayMs: 0 } });
    t = await startTestApp(target, { app: { marketplace: { simulator: sim }, chat: { pollMs: 0 } } });
    // A third person with the chat page's role.
    await t.database.query(
      `insert into users (username, password_hash, roles, follow_valid_time, password_stamp) select 'carol', password_hash, '{follow}', now() + interval '1 year', 'x' from users where username = 'seller'`,
    );
    admin = await login(t.app, 'admin', 'admin123');
    seller = await login(t.app, 'seller', 'seller123');
    carol = await login(t.app, 'carol', 'seller123');
    const applied = await post<TeamRequest>(admin, '/api/contacts/friend/apply', { toId: seller.id, message: '' });
    expect((await post(seller, '/api/contacts/friend/accept', { requestId: applied.body.data.id })).status).toBe(200);
    const added = await post<Store>(seller, '/api/store/add', { name: 'shop 1001', clientId: '1001', apiKey: 'sim-key-1001' });
    store = added.body.data;
  });
  afterAll(() => t?.close());

  it('stores an image sent to a friend and serves it back inline to the two of them only', async () => {
    const sent = await upload(admin, { kind: 'image', conversation: `friend:${seller.id}` }, { name: 'Photo.PNG', bytes: PNG });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ kind: 'image', name: 'Photo.PNG', size: PNG.length, contentType: 'image/png' });
    // A random stored name: nothing of the original name or the user reaches the path.
    expect(sent.body.data.url).toMatch(/^\/api\/chat\/file\/[0-9a-f]{32}\.png$/);

    for (const reader of [admin, seller]) {
      const back = await fetchFile(reader, sent.body.data.url);
      expect(back.status).toBe(200);
      expect(back.headers['content-type']).toBe('image/png');
      expect(back.headers['content-disposition']).toMatch(/^inline;/);
      expect(back.headers['x-content-type-options']).toBe('nosniff');
      expect(back.raw.equals(PNG)).toBe(true);
    }
    const outsider = await fetchFile(carol, sent.body.data.url);
    expect(outsider.status).toBe(401);
    const anonymous = await t.app.inject({ method: 'GET', url: sent.body.data.url });
    expect(anonymous.statusCode).toBe(402);
  });

  it('serves a file as a download under its original (Chinese) name', async () => {
    const bytes = Buffer.from('%PDF-1.4\n%test\n');
    const sent = await upload(seller, { kind: 'file', conversation: `friend:${admin.id}` }, { name: '发货单 6月.pdf', bytes });
    expect(sent.status).toBe(200);
    const back = await fetchFile(admin, sent.body.data.url);
    expect(back.headers['content-type']).toBe('application/pdf');
    expect(back.headers['content-disposition']).toBe(`attachment; filename="___ 6_.pdf"; filename*=UTF-8''${encodeURIComponent('发货单 6月.pdf')}`);
    expect(back.raw.equals(bytes)).toBe(true);
  });

  it('refuses what the pickers would refuse, oversized files and strangers, with clear zh and en messages', async () => {
    const notImage = await upload(admin, { kind: 'image', conversation: `friend:${seller.id}` }, { name: 'scan.pdf', bytes: PNG });
    expect(notImage.status).toBe(400);
    expect(notImage.body.msg).toContain(CHAT_UPLOAD_MESSAGES.badImage.zh);
    // An image is checked by its content: HTML named .png is no picture, as an image or as a file.
    const disguised = Buffer.from('<html><script>alert(document.cookie)</script></html>');
    const htmlPng = await upload(admin, { kind: 'image', conversation: `friend:${seller.id}` }, { name: 'cat.png', bytes: disguised });
    expect(htmlPng.status).toBe(400);
    expect(htmlPng.body.msg).toContain(CHAT_UPLOAD_MESSAGES.badImage.zh);
    expect((await upload(admin, { kind: 'file', conversation: `friend:${seller.id}` }, { name: 'cat.jpg', bytes: disguised })).status).toBe(400);
    expect((await upload(admin, { kind: 'image', conversation: `friend:${seller.id}` }, { name: 'cat.gif', bytes: PNG })).status).toBe(400);
    const script = await upload(admin, { kind: 'file', conversation: `friend:${seller.id}` }, { name: 'run.html', bytes: Buffer.from('<script>') }, 'en');
    expect(script.status).toBe(400);
    expect(script.body.msg).toContain(CHAT_UPLOAD_MESSAGES.badFile.en);

    const big = await upload(admin, { kind: 'file', conversation: `friend:${seller.id}` }, { name: 'big.zip', bytes: Buffer.alloc(UPLOAD_MAX_BYTES + 1) });
    expect(big.status).toBe(400);
    expect(big.body.msg).toContain(CHAT_UPLOAD_MESSAGES.tooLarge.zh);

    const none = await upload(admin, { kind: 'file', conversation: `friend:${seller.id}` }, null);
    expect(none.status).toBe(400);
    expect(none.body.msg).toContain(CHAT_UPLOAD_MESSAGES.noFile.zh);

    // Carol is nobody's friend here, and no member of a group that does not exist.
    const stranger = await upload(carol, { kind: 'image', conversation: `friend:${seller.id}` }, { name: 'a.png', bytes: PNG });
    expect(stranger.status).toBe(401);
    expect(stranger.body.msg).toBe(CHAT_UPLOAD_MESSAGES.notInConversation.zh);
    expect((await upload(carol, { kind: 'image', conversation: 'group:999' }, { name: 'a.png', bytes: PNG })).status).toBe(401);
    expect((await upload(carol, { kind: 'image', conversation: 'nowhere' }, { name: 'a.png', bytes: PNG })).status).toBe(400);
    expect((await upload(null, { kind: 'image', conversation: `friend:${seller.id}` }, { name: 'a.png', bytes: PNG })).status).toBe(402);

    expect((await fetchFile(seller, '/api/chat/file/..%2F..%2Fsecret.key')).status).toBe(404);
    expect((await fetchFile(seller, `/api/chat/file/${'0'.repeat(32)}.png`)).status).toBe(404);
  });

  it('passes an uploaded image on to a buyer chat through Ozon\'s send-file call', async () => {
    const { chatId } = sim.shop('1001').addBuyerMessage(undefined, 'Пришлите фото, пожалуйста');
    const conversation = `buyer:${store.id}:${chatId}`;
    const sent = await upload(seller, { kind: 'image', conversation }, { name: 'label.png', bytes: PNG });
    expect(sent.status).toBe(200);
    const passed = await post<{ message: { from: string; text: string } }>(seller, '/api/chat/sendFile', { storeId: store.id, chatId, fileId: sent.body.data.id });
    expect(passed.status).toBe(200);
    expect(passed.body.data.message).toMatchObject({ from: 'seller', text: 'label.png' });
    const history = sim.shop('1001').areas.chat.chatHistory({ chat_id: chatId, direction: 'Backward', limit: 1 });
    expect(history.messages[0]).toMatchObject({ is_image: true, data: ['label.png'], user: { type: 'seller' } });
    // Someone else's upload cannot be sent on.
    const others = await upload(admin, { kind: 'image', conversation: `friend:${seller.id}` }, { name: 'x.png', bytes: PNG });
    expect((await post(seller, '/api/chat/sendFile', { storeId: store.id, chatId, fileId: others.body.data.id })).status).toBe(401);
  });
});
