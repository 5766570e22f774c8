import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TeamRequest } from '../../contract/chat';
import { CHAT_UPLOAD_MESSAGES, EXTERNAL_IMAGE_MAX_BYTES } from '../../contract/chatUpload';
import type { Store } from '../../contract/store';
import { createOzonSimulator } from '../../server/marketplace/simulator/plugin';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from './harness';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/** Another site's pictures (issues 27 and 32): a local server stands in for it, allowed by CHAT_IMAGE_ALLOWED_HOSTS. */
function startFixtureSite(): Promise<{ server: Server; host: string; seen: { cookie?: string; referer?: string }[] }> {
  const seen: { cookie?: string; referer?: string }[] = [];
  const server = createServer((request, response) => {
    seen.push({ cookie: request.headers.cookie, referer: request.headers.referer });
    switch (request.url) {
      case '/photo.png':
        response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
        return;
      case '/huge.png':
        // No content-length: the size is found out while reading.
        response.writeHead(200, { 'content-type': 'image/png' });
        response.end(Buffer.concat([PNG, Buffer.alloc(EXTERNAL_IMAGE_MAX_BYTES)]));
        return;
      case '/page.html':
        response.writeHead(200, { 'content-type': 'text/html' }).end('<html><script>alert(1)</script></html>');
        return;
      case '/disguised.png':
        response.writeHead(200, { 'content-type': 'image/png' }).end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
        return;
      case '/to-private':
        response.writeHead(302, { location: 'http://10.1.2.3/inside.png' }).end();
        return;
      default:
        response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, host: `127.0.0.1:${(server.address() as AddressInfo).port}`, seen })));
}

describe.each(DATABASE_TARGETS)('the image proxy on $kind', (target) => {
  let t: TestApp;
  let site: Awaited<ReturnType<typeof startFixtureSite>>;
  let admin: Session;
  let seller: Session;
  let store: Store;

  const get = (session: Session, conversation: string, url: string, lang = 'en') =>
    t.app
      .inject({ method: 'GET', url: '/api/image/external', query: { conversation, url }, headers: { ...session.headers, cookie: 'session=secret', 'accept-language': lang } })
      .then((r) => ({ status: r.statusCode, headers: r.headers, raw: r.rawPayload, msg: r.headers['content-type']?.toString().includes('json') ? r.json<{ msg: string }>().msg : '' }));

  beforeAll(async () => {
    site = await startFixtureSite();
    const sim = createOzonSimulator({ ordersPerShop: 20, productsPerShop: 5, now: () => Date.parse('2025-06-10T08:00:00Z') });
    t = await startTestApp(target, { env: { CHAT_IMAGE_ALLOWED_HOSTS: site.host }, app: { marketplace: { simulator: sim }, chat: { pollMs: 0 } } });
    admin = await login(t.app, 'admin', 'admin123');
    seller = await login(t.app, 'seller', 'seller123');
    const post = <T>(session: Session, url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: session.headers, payload }).then((r) => r.json<{ data: T }>().data);
    const applied = await post<TeamRequest>(admin, '/api/contacts/friend/apply', { toId: seller.id, message: '' });
    await post(seller, '/api/contacts/friend/accept', { requestId: applied.id });
    store = await post<Store>(seller, '/api/store/add', { name: 'shop 1001', clientId: '1001', apiKey: 'sim-key-1001' });
  });
  afterAll(async () => {
    await t?.close();
    site?.server.close();
  });

  it("serves a buyer chat's picture through the server, without the seller's cookie or address", async () => {
    const answer = await get(seller, `buyer:${store.id}:chat-1`, `http://${site.host}/photo.png`);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('image/png');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.raw.equals(PNG)).toBe(true);
    expect(site.seen.at(-1)).toEqual({ cookie: undefined, referer: undefined });
    // A friend's conversation works the same.
    expect((await get(admin, `friend:${seller.id}`, `http://${site.host}/photo.png`)).status).toBe(200);
  });

  it('refuses a private or loopback address the configuration does not allow, also behind a redirect', async () => {
    for (const url of ['http://10.0.0.1/a.png', 'http://127.0.0.1:9/a.png', 'http://[::1]/a.png', 'http://localhost:1/a.png']) {
      const answer = await get(seller, `buyer:${store.id}:chat-1`, url);
      expect([url, answer.status, answer.msg]).toEqual([url, 400, CHAT_UPLOAD_MESSAGES.externalPrivate.en]);
    }
    const redirected = await get(seller, `buyer:${store.id}:chat-1`, `http://${site.host}/to-private`);
    expect([redirected.status, redirected.msg]).toEqual([400, CHAT_UPLOAD_MESSAGES.externalPrivate.en]);
  });

  it('refuses a picture over 5 MB', async () => {
    const answer = await get(seller, `buyer:${store.id}:chat-1`, `http://${site.host}/huge.png`, 'pt-BR');
    expect([answer.status, answer.msg]).toEqual([400, CHAT_UPLOAD_MESSAGES.externalTooLarge.pt]);
  });

  it('refuses what is not a picture, by its type and by its bytes', async () => {
    for (const path of ['/page.html', '/disguised.png']) {
      const answer = await get(seller, `buyer:${store.id}:chat-1`, `http://${site.host}${path}`, 'zh-CN');
      expect([path, answer.status, answer.msg]).toEqual([path, 400, CHAT_UPLOAD_MESSAGES.externalNotImage.zh]);
    }
    const notHttp = await get(seller, `buyer:${store.id}:chat-1`, 'file:///etc/passwd');
    expect([notHttp.status, notHttp.msg]).toEqual([400, CHAT_UPLOAD_MESSAGES.externalBadUrl.en]);
  });

  it("refuses a conversation that is not the user's, before fetching anything", async () => {
    const before = site.seen.length;
    // The admin has no shop 1001; the seller and the admin are friends, but the admin is in no group 1.
    expect((await get(admin, `buyer:${store.id}:chat-1`, `http://${site.host}/photo.png`)).status).toBe(401);
    expect((await get(admin, 'group:1', `http://${site.host}/photo.png`)).status).toBe(401);
    expect((await get(admin, 'nonsense', `http://${site.host}/photo.png`)).status).toBe(400);
    expect(site.seen.length).toBe(before);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/image/external', query: { conversation: `buyer:${store.id}:chat-1`, url: `http://${site.host}/photo.png` } });
    expect(anonymous.statusCode).toBe(402);
  });

  const product = (session: Session | null, url: string, lang = 'en') =>
    t.app
      .inject({ method: 'GET', url: '/api/image/external', query: { url }, headers: { ...(session?.headers ?? {}), 'accept-language': lang } })
      .then((r) => ({ status: r.statusCode, headers: r.headers, raw: r.rawPayload, msg: r.headers['content-type']?.toString().includes('json') ? r.json<{ msg: string }>().msg : '' }));

  it("serves 1688's and Ozon's product pictures without a conversation (here from the source sites' simulator)", async () => {
    for (const url of [
      'https://detail.1688.com/offer/712345678901_files/O1CN01tws01.jpg',
      'https://cbu01.alicdn.com/img/ibank/O1CN01abc.jpg',
      '//ir.ozone.ru/s3/multimedia-1-x/7012345678.jpg',
      'https://www.ozon.ru/product/besprovodnye-naushniki-1789012345_files/7012345678.jpg',
    ]) {
      const answer = await product(seller, url);
      expect([url, answer.status, answer.headers['content-type']]).toEqual([url, 200, 'image/png']);
      expect(answer.raw.subarray(0, 4).toString('hex')).toBe('89504e47');
      expect(answer.headers['content-security-policy']).toBe("default-src 'none'");
    }
  });

  it('refuses, without a conversation, any host but the source sites, and users outside the listing roles', async () => {
    const before = site.seen.length;
    const other = await product(seller, `http://${site.host}/photo.png`, 'zh-CN');
    expect([other.status, other.msg]).toEqual([400, CHAT_UPLOAD_MESSAGES.externalHostNotAllowed.zh]);
    // A look-alike host is not the site.
    expect((await product(seller, 'https://alicdn.com.example.org/a.jpg')).status).toBe(400);
    expect(site.seen.length).toBe(before);
    const newbie = await login(t.app, 'newbie', 'newbie123');
    expect((await product(newbie, 'https://cbu01.alicdn.com/img/ibank/O1CN01abc.jpg')).status).toBe(401);
    expect((await product(null, 'https://cbu01.alicdn.com/img/ibank/O1CN01abc.jpg')).status).toBe(402);
  });
});
