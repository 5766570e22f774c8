import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { ADMIN_USER_PATHS } from '../../contract/admin';
import { CHAT_UPLOAD_MESSAGES } from '../../contract/chatUpload';
import { api, registerByApi, screenshot, useBrowser } from './browser';

const e2e = useBrowser();
const { baseUrl, code } = e2e;

/** The chat page of a user logged in, in Chinese or, after a reload with the language cookie, in English. */
async function openChatPage(username: string, password: string, lang: 'zh' | 'en' = 'zh'): Promise<Page> {
  const context = await e2e.context();
  const page = await context.newPage();
  try {
    await e2e.signIn(page, { username, password }, '/chat-manager/chat-list');
    await page.getByRole('complementary', { name: '买家会话' }).waitFor();
    if (lang === 'en') {
      await context.addCookies([{ name: 'language', value: 'en', url: baseUrl }]);
      await page.reload();
      await page.getByRole('complementary', { name: 'Buyer chats' }).waitFor();
    }
  } catch (error) {
    await screenshot(page, `chat-open-failed-${username}`);
    throw error;
  }
  return page;
}

const chatWindow = (page: Page) => page.locator('section.ichat-window');

/** A 2x2 red PNG. */
const SAMPLE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==',
  'base64',
);

describe('chat in the browser', () => {
  it('two people befriend each other, a message arrives live in the other page, and history loads', { timeout: 180_000 }, async () => {
    const admin = await openChatPage('admin', 'admin123');
    const seller = await openChatPage('seller', 'seller123');
    await screenshot(seller, 'chat-page');

    // The admin finds the seller and applies with a verification message.
    await admin.getByRole('button', { name: '添加好友' }).first().click();
    await admin.getByRole('searchbox', { name: '输入用户名或群名搜索' }).fill('seller');
    await admin.getByRole('searchbox', { name: '输入用户名或群名搜索' }).press('Enter');
    await admin.getByRole('button', { name: '申请 seller' }).click();
    await admin.getByLabel('验证信息').fill('我是管理员，加个好友');
    await admin.getByRole('button', { name: '确定' }).click();
    await admin.getByText('申请已发送，等待对方处理').waitFor();

    // The seller's system tab shows the request live, and the seller agrees.
    await seller.getByText('1 条待处理').waitFor();
    await screenshot(seller, 'chat-friend-request');
    await seller.getByRole('button', { name: /系统消息/ }).click();
    await chatWindow(seller).getByText('我是管理员，加个好友', { exact: false }).waitFor();
    await chatWindow(seller).getByRole('button', { name: '同意' }).click();
    await seller.getByRole('dialog', { name: '同意好友申请' }).getByRole('button', { name: '确定' }).click();
    await chatWindow(seller).getByText('已同意').waitFor();

    // Both see each other as friends; the admin writes, the seller's page receives it without a reload.
    await admin.getByRole('complementary').getByRole('button', { name: 'seller', exact: true }).waitFor();
    await seller.getByRole('complementary').getByRole('button', { name: 'admin', exact: true }).waitFor();
    await admin.getByRole('complementary').getByRole('button', { name: 'seller', exact: true }).click();
    const input = chatWindow(admin).getByRole('textbox', { name: '输入消息' });
    await input.fill('你好，今天的订单发了吗？');
    await input.press('Enter');
    // It opens a tab with an unread badge beside the system tab the seller is looking at.
    const adminTab = chatWindow(seller).getByRole('tab', { name: /admin/ });
    await adminTab.getByText('1', { exact: true }).waitFor();
    await screenshot(seller, 'chat-live-message');
    await adminTab.click();
    await chatWindow(seller).getByText('你好，今天的订单发了吗？').waitFor();

    // A picture: the admin picks one, it goes as an image token, and the seller's page shows it (read with the session).
    // The upload goes through the data worker: on a busy machine it takes longer than expect.poll's 1 s default.
    await chatWindow(admin).getByTestId('chat-image-input').setInputFiles({ name: 'sample.png', mimeType: 'image/png', buffer: SAMPLE_PNG });
    // It waits in the entry box as a preview (not as img[...] markup) until sent.
    const preview = chatWindow(admin).getByRole('list', { name: '待发送的图片和文件' }).locator('img.ichat-img');
    await preview.waitFor({ timeout: 30_000 });
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth > 0)).toBe(true);
    expect(await input.inputValue()).toBe('');
    await input.press('Enter');
    const picture = chatWindow(seller).locator('img.ichat-img');
    await picture.waitFor();
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.src.startsWith('blob:') && img.naturalWidth > 0)).toBe(true);

    // Opening a conversation shows its recent history at once; earlier pages come through "view more messages",
    // and the message that was at the top stays in view.
    const sellerId = ((await api(seller, '/contacts/overview')) as { data: { me: { id: number } } }).data.me.id;
    for (let i = 1; i <= 35; i++) await api(admin, '/contacts/send', { kind: 'friend', id: sellerId, content: `历史消息 ${i}` });
    await seller.reload();
    await seller.getByRole('complementary').getByRole('button', { name: 'admin', exact: true }).click();
    await chatWindow(seller).getByText('历史消息 35', { exact: true }).waitFor();
    const log = chatWindow(seller).getByRole('log');
    await log.evaluate((el) => (el.scrollTop = 0));
    const top = chatWindow(seller).getByText('历史消息 6', { exact: true });
    await top.waitFor();
    const inView = () =>
      top.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const frame = el.closest('[role="log"]')!.getBoundingClientRect();
        return box.top >= frame.top && box.bottom <= frame.bottom;
      });
    expect(await inView()).toBe(true);
    await chatWindow(seller).getByRole('button', { name: '查看更多消息' }).click();
    await chatWindow(seller).getByText('历史消息 5', { exact: true }).waitFor({ state: 'attached' });
    await expect.poll(inView).toBe(true);
    await screenshot(seller, 'chat-history');
    await admin.context().close();
    await seller.context().close();
  });

  it('a buyer message from the simulator arrives in the chat list and the chat window', async () => {
    const seller = await openChatPage('seller', 'seller123');
    // The demo seller starts with the simulator's shops 1001 and 1002.
    const stores = (await api(seller, '/store/list')) as { data: { name: string; clientId: string }[] };
    const shopName = stores.data.find((s) => s.clientId === '1001')!.name;
    const escaped = shopName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const shopLabel = new RegExp(`^${escaped} \\d+$`);
    const shopHeader = seller.getByLabel(shopLabel);
    await shopHeader.waitFor();
    const unreadBefore = Number((await shopHeader.getAttribute('aria-label'))!.split(' ').at(-1));
    await screenshot(seller, 'chat-buyer-list');

    const trigger = await fetch(`${baseUrl}/sim/ozon/__sim/trigger/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: '1001', text: 'Здравствуйте! Где мой заказ?' }),
    });
    expect(trigger.ok).toBe(true);
    // The server polls the shop's chats every 3 s and pushes the new message over the WebSocket.
    // It opens the buyer's conversation as a tab beside the system tab; its shop's unread count goes up.
    const buyerTab = chatWindow(seller).getByRole('tab', { name: new RegExp(`买家 \\w+ · ${escaped}`) });
    await buyerTab.waitFor({ timeout: 15_000 });
    const unread = async () => Number((await shopHeader.getAttribute('aria-label'))!.split(' ').at(-1));
    await expect.poll(unread).toBeGreaterThan(unreadBefore);
    const raised = await unread();
    await screenshot(seller, 'chat-buyer-arrived');
    // Opening the conversation shows the message and marks the chat read on the marketplace.
    await buyerTab.click();
    await chatWindow(seller).getByText('Здравствуйте! Где мой заказ?').waitFor();
    await expect.poll(unread).toBeLessThan(raised);
    await screenshot(seller, 'chat-buyer-message');
    await seller.context().close();
  });

  it("a buyer's picture on another site shows as click-to-load, loads through the server, and a host not allowed says why", { timeout: 180_000 }, async () => {
    // The e2e server allows 127.0.0.1:<port> (CHAT_IMAGE_ALLOWED_HOSTS, global-setup.ts) and nothing else private:
    // the same picture of the simulator's CDN, named `localhost`, must be refused.
    const { port } = new URL(baseUrl);
    for (const lang of ['zh', 'en'] as const) {
      const page = await openChatPage('seller', 'seller123', lang);
      try {
        const proxied: { url: string; status: number; contentType: string }[] = [];
        const direct: string[] = [];
        page.context().on('request', (request) => {
          if (new URL(request.url()).pathname.startsWith('/sim/ozon/assets/')) direct.push(request.url());
        });
        page.context().on('response', (response) => {
          const url = new URL(response.url());
          if (url.pathname === '/api/image/external') proxied.push({ url: url.searchParams.get('url') ?? '', status: response.status(), contentType: response.headers()['content-type'] ?? '' });
        });
        const stores = (await api(page, '/store/list')) as { data: { name: string; clientId: string }[] };
        const shopName = stores.data.find((s) => s.clientId === '1001')!.name;
        const allowed = `http://127.0.0.1:${port}/sim/ozon/assets/img/buyer-photo-${lang}.png`;
        const refused = `http://localhost:${port}/sim/ozon/assets/img/buyer-photo-${lang}.png`;
        const trigger = async (body: object) => {
          const response = await fetch(`${baseUrl}/sim/ozon/__sim/trigger/message`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId: '1001', ...body }) });
          expect(response.ok).toBe(true);
          return (await response.json()) as { chatId: string };
        };
        const caption = lang === 'zh' ? '收到的包裹破了，看图' : 'Коробка пришла мятая, вот фото';
        const { chatId } = await trigger({ text: caption, imageUrl: allowed });
        await trigger({ chatId, imageUrl: refused });

        // The server's poller brings both; the buyer's conversation opens as a tab.
        const short = chatId.replace(/[^\w]/g, '').slice(-6);
        const escaped = `${short} · ${shopName}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        const tab = chatWindow(page).getByRole('tab', { name: new RegExp(`${lang === 'zh' ? '买家' : 'Buyer'} ${escaped}`) });
        await tab.waitFor({ timeout: 30_000 });
        await tab.click();
        await chatWindow(page).getByText(caption).waitFor();

        // Nothing is fetched from the other site until the seller asks: two placeholders, each naming its host (the
        // newest of each: the chat also holds the other language's round).
        const placeholder = (host: string) => chatWindow(page).locator('.ichat-external-img', { hasText: lang === 'zh' ? `来自 ${host}` : `from ${host}` }).last();
        const good = placeholder(`127.0.0.1:${port}`);
        const bad = placeholder(`localhost:${port}`);
        await good.waitFor();
        await bad.waitFor();
        const loadLabel = lang === 'zh' ? '加载图片' : 'Load picture';
        expect(await good.getByRole('button', { name: loadLabel }).getAttribute('title')).toBe(
          lang === 'zh' ? '其他网站的图片：点击后经本系统服务器加载，对方网站不会得知您的IP和阅读时间' : 'A picture on another site: when you click, our server fetches it, so that site learns neither your address nor when you read',
        );
        expect(await chatWindow(page).locator('img.ichat-img').count()).toBe(0);
        await screenshot(page, `chat-external-image-asking-${lang}`);

        // A click: the server fetches it (the allowed host), the page shows the picture from the bytes it got.
        await good.getByRole('button', { name: loadLabel }).click();
        const picture = chatWindow(page).locator('img.ichat-img');
        await picture.waitFor({ timeout: 30_000 });
        await expect.poll(() => picture.evaluate((img: HTMLImageElement) => ({ blob: img.src.startsWith('blob:'), width: img.naturalWidth, height: img.naturalHeight }))).toEqual({ blob: true, width: 800, height: 800 });
        await expect.poll(() => proxied).toEqual([{ url: allowed, status: 200, contentType: 'image/png' }]);

        // The host not allowed: refused by the server, with the reason under its placeholder and a retry.
        await bad.getByRole('button', { name: loadLabel }).click();
        await bad.getByRole('alert').getByText(CHAT_UPLOAD_MESSAGES.externalPrivate[lang]).waitFor({ timeout: 30_000 });
        await expect.poll(() => proxied.at(-1)).toMatchObject({ url: refused, status: 400 });
        expect(await picture.count()).toBe(1);
        // The seller's browser never asked either address itself.
        expect(direct).toEqual([]);
        await screenshot(page, `chat-external-image-${lang}`);
      } catch (error) {
        await screenshot(page, `chat-external-image-broken-${lang}`);
        throw error;
      } finally {
        await page.context().close();
      }
    }
  });

  it('a closed chat says why its box is disabled; a reply the marketplace refuses shows failed with its reason, and a retry sends it again', { timeout: 240_000 }, async () => {
    for (const lang of ['zh', 'en'] as const) {
      const page = await openChatPage('seller', 'seller123', lang);
      try {
        const sends: string[] = [];
        page.context().on('request', (request) => {
          if (new URL(request.url()).pathname === '/api/sendMessage') sends.push(request.postData() ?? '');
        });
        const closedReason = lang === 'zh' ? '该会话已关闭，不能再发送消息' : 'This chat is closed; no more messages can be sent';
        const input = () => chatWindow(page).getByRole('textbox', { name: lang === 'zh' ? '输入消息' : 'Type a message' });
        // What the page knew of the window was out of date (it was open when asked): the seller can type.
        const windowUrl = '**/api/chat/replyWindow?*';
        await page.route(windowUrl, (route) => route.fulfill({ json: { code: 200, msg: 'success', data: { canReply: true, until: null, reason: null } } }));
        const buyers = page.getByRole('region', { name: lang === 'zh' ? '买家会话' : 'Buyer chats' });
        await buyers.locator('.chat-entry', { hasText: lang === 'zh' ? '已关闭' : 'Closed' }).first().click();
        const window = chatWindow(page);
        await expect.poll(() => input().isEnabled()).toBe(true);
        // (Unrouted rather than continued: a route's continue does not reach the server for the data worker's fetch.)
        await page.unroute(windowUrl);
        const text = lang === 'zh' ? '您好，包裹今天发出' : 'Hello, the parcel ships today';
        await input().fill(text);
        await input().press('Enter');

        const bubble = window.getByTestId('chat-message').filter({ hasText: text });
        const failed = bubble.getByRole('alert');
        await failed.getByText(lang === 'zh' ? `发送失败：${closedReason}` : `Not sent: ${closedReason}`).waitFor();
        await expect.poll(() => sends.length).toBe(1);
        // Refused: the page asks the window again, and the box is disabled with Ozon's reason.
        await expect.poll(() => input().isDisabled()).toBe(true);
        await window.locator('.ichat-reply-closed', { hasText: closedReason }).waitFor();
        await screenshot(page, `chat-send-failed-${lang}`);

        // Sent again: the marketplace refuses it again, and the message stays failed, once.
        await failed.getByRole('button', { name: lang === 'zh' ? '重新发送' : 'Send again' }).click();
        await expect.poll(() => sends.length).toBe(2);
        expect(JSON.parse(sends[1]!)).toMatchObject({ text });
        // Ozon is asked who may write twice a refusal (the send, then the window): slow on a loaded machine.
        await failed.waitFor({ timeout: 60_000 });
        expect(await bubble.count()).toBe(1);

        // Deleted: gone from the conversation.
        await failed.getByRole('button', { name: lang === 'zh' ? '删除' : 'Delete' }).click();
        await bubble.waitFor({ state: 'detached' });
      } catch (error) {
        await screenshot(page, `chat-send-failed-broken-${lang}`);
        throw error;
      } finally {
        await page.context().close();
      }
    }
  });
});

/** Serves the widget-alone page (tests/e2e/chat-page) built on the spot. */
async function serveChatPage(): Promise<{ url: string; close: () => Promise<void> }> {
  const root = resolve(import.meta.dirname, 'chat-page');
  const build = spawnSync('npx', ['rsbuild', 'build', '-c', join(root, 'rsbuild.config.ts')], { cwd: resolve(import.meta.dirname, '../..'),
    encoding: 'utf8',
    // Under vitest NODE_ENV is "test", which leaves process.env unreplaced in the bundle.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) throw new Error(`chat page build failed:\n${build.stdout}\n${build.stderr}`);
  const dist = join(root, 'dist');
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png' };
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const file = join(dist, path === '/' ? 'index.html' : path);
    if (!file.startsWith(dist) || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    response.end(readFileSync(file));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((done) => server.close(() => done())) };
}

describe('a conversation of 100,000 messages', () => {
  it('scrolls from the newest to the oldest and back, keeping only a window of rows in the page', async () => {
    const served = await serveChatPage();
    const page = await (await e2e.browser.newContext({ viewport: { width: 1366, height: 800 } })).newPage();
    try {
      await page.goto(served.url);
      const log = page.getByRole('log');
      await log.waitFor();
      await page.evaluate(() => window.chatTest.loadGenerated(100_000));
      const rows = page.getByTestId('chat-message');
      const inView = (text: string | RegExp) =>
        page.getByText(text).evaluate((el) => {
          const box = el.getBoundingClientRect();
          const frame = el.closest('[role="log"]')!.getBoundingClientRect();
          return box.bottom > frame.top && box.top < frame.bottom;
        });
      // It opens on the newest message.
      await page.getByText('第 100000 条', { exact: true }).waitFor();
      await expect.poll(() => inView('第 100000 条')).toBe(true);
      expect(await rows.count()).toBeLessThan(200);

      // The mouse wheel moves through the middle of the conversation: other rows replace the ones on screen.
      await log.hover();
      for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -4000);
      await expect.poll(() => page.getByText('第 100000 条', { exact: true }).count()).toBe(0);
      expect(await rows.count()).toBeLessThan(200);
      await expect.poll(() => rows.first().textContent()).toMatch(/第 99\d{3} 条/);

      // To the very top: the first message shows; the page still holds only a window.
      await expect
        .poll(async () => {
          await log.evaluate((el) => (el.scrollTop = 0));
          return page.getByText(/^第 1 条：/).count();
        })
        .toBe(1);
      await expect.poll(() => inView(/^第 1 条：/)).toBe(true);
      expect(await rows.count()).toBeLessThan(200);
      await screenshot(page, 'chat-100k-top');

      // And back to the bottom with the wheel and scrollTop: the last message shows again.
      await page.mouse.wheel(0, 4000);
      await expect.poll(() => page.getByText(/^第 1 条：/).count()).toBe(0);
      await expect
        .poll(async () => {
          await log.evaluate((el) => (el.scrollTop = el.scrollHeight));
          return inView('第 100000 条').catch(() => false);
        })
        .toBe(true);
      expect(await rows.count()).toBeLessThan(200);
      expect(await rows.count()).toBeGreaterThan(0);
    } finally {
      await page.context().close();
      await served.close();
    }
  });
});

type NodeSession = { id: number; call: <T>(path: string, body?: unknown) => Promise<T> };

/** Logs in from the test itself, for the people whose pages the screenshots do not show. */
async function nodeSession(username: string, password: string): Promise<NodeSession> {
  const captcha = (await (await fetch(`${baseUrl}/api/captchaImage`)).json()) as { data: { uuid: string } };
  const response = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password, code, uuid: captcha.data.uuid }),
  });
  const { data } = (await response.json()) as { data: { token: string; id: number } };
  const call = async <T,>(path: string, body?: unknown): Promise<T> => {
    const answer = await fetch(`${baseUrl}/api${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', 'x-token': data.token, 'x-user-id': String(data.id) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await answer.json()) as { code: number; msg: string; data: T };
    if (json.code !== 200) throw new Error(`${path}: ${json.code} ${json.msg}`);
    return json.data;
  };
  return { id: data.id, call };
}

describe('chat screenshots in zh and en', () => {
  it('a buyer chat, the contacts manager with a friend, a group with its drawer, the system tab with both requests, the confirm dialog', async () => {
    const password = 'Shots2024pass';
    const [friendName, applicantName, joinerName] = ['shotfriend', 'shotapplicant', 'shotjoiner'];
    for (const name of [friendName, applicantName, joinerName]) await registerByApi(baseUrl, name, password, code);
    const seller = await nodeSession('seller', 'seller123');
    const admin = await nodeSession('admin', 'admin123');
    const people = await Promise.all([friendName, applicantName, joinerName].map((n) => nodeSession(n, password)));
    // New accounts have no chat: the administrator gives them the seller role, as a team lead would.
    const yearAhead = Date.now() + 365 * 24 * 3_600_000;
    for (const person of people) {
      await admin.call(ADMIN_USER_PATHS.update.replace(/^\/api/, ''), { id: person.id, roles: ['follow'], followValidTime: yearAhead, plugValidTime: yearAhead });
    }
    const [friend, applicant, joiner] = people as [NodeSession, NodeSession, NodeSession];
    const group = await seller.call<{ id: number }>('/contacts/group/create', { name: '义乌发货群', introduction: '每天下午四点前发货' });
    await seller.call('/contacts/group/notice', { groupId: group.id, type: '公告', title: '周五前发完所有订单' });
    const asked = await friend.call<{ id: number }>('/contacts/friend/apply', { toId: seller.id, message: '你好，我是仓库的' });
    await seller.call('/contacts/friend/accept', { requestId: asked.id });
    await friend.call('/contacts/send', { kind: 'friend', id: seller.id, content: '今天的包裹都打好了' });
    await applicant.call('/contacts/friend/apply', { toId: seller.id, message: '我是新来的运营，加个好友' });
    await joiner.call('/contacts/group/apply', { groupId: group.id, message: '请让我加入发货群' });

    for (const lang of ['zh', 'en'] as const) {
      const page = await openChatPage('seller', 'seller123', lang);
      try {
        const window = chatWindow(page);
        // The window opens on the system tab: the friend request and the group application wait there.
        await window.getByText('我是新来的运营，加个好友').waitFor();
        await window.getByText('请让我加入发货群').waitFor();
        await screenshot(page, `chat-system-${lang}`);

        // The confirm dialog of the newest request (the group application).
        await window.getByRole('button', { name: lang === 'zh' ? '同意' : 'Agree' }).first().click();
        const dialog = page.getByRole('dialog', { name: lang === 'zh' ? /^同意(好友|加群)申请$/ : /^Accept (friend request|group application)$/ });
        await dialog.waitFor();
        await screenshot(page, `chat-confirm-dialog-${lang}`);
        await dialog.getByRole('button', { name: lang === 'zh' ? '取消' : 'Cancel' }).click();
        await dialog.waitFor({ state: 'hidden' });

        // A buyer chat.
        const buyers = page.getByRole('region', { name: lang === 'zh' ? '买家会话' : 'Buyer chats' });
        await buyers.locator('.chat-entry', { hasText: lang === 'zh' ? /^买家/ : /^Buyer/ }).first().click();
        await window.getByTestId('chat-message').first().waitFor();
        await screenshot(page, `chat-buyer-${lang}`);

        // The group with its drawer.
        await page.getByRole('complementary').getByRole('button', { name: '义乌发货群', exact: true }).click();
        await window.getByText('周五前发完所有订单', { exact: false }).waitFor();
        await screenshot(page, `chat-group-${lang}`);

        // The contacts manager with the friend selected.
        await window.getByRole('button', { name: lang === 'zh' ? '联系人' : 'Contacts' }).click();
        // Sections start folded: open the friend section (its header counts online/total; earlier test files may
        // have added friends of their own, and any of them may still be online).
        await window.getByText(/\(\d+\/\d+\)$/).first().click();
        await window.getByRole('button', { name: new RegExp(friendName) }).first().click();
        await screenshot(page, `chat-contacts-${lang}`);
      } catch (error) {
        await screenshot(page, `chat-screens-failed-${lang}`);
        throw error;
      } finally {
        await page.context().close();
      }
    }
  });
});
