import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { CONTACTS_MESSAGES, type ContactsOverview, type TeamGroup, type TeamMessage, type TeamRequest } from '../../contract/chat';
import { pushMessageSchema, type PushMessage } from '../../contract/push';
import { DATABASE_TARGETS, login, pushUrl, startTestApp, type Session, type TestApp } from './harness';

function collect(ws: WebSocket) {
  const frames: PushMessage[] = [];
  ws.on('message', (data) => frames.push(pushMessageSchema.parse(JSON.parse(String(data)))));
  return frames;
}

type Answer<T> = { status: number; body: { code: number; msg: string; data: T } };

describe.each(DATABASE_TARGETS)('team contacts on $kind', (target) => {
  let t: TestApp;
  let admin: Session;
  let seller: Session;
  let carol: Session;

  const get = <T>(session: Session, url: string): Promise<Answer<T>> =>
    t.app.inject({ method: 'GET', url, headers: session.headers }).then((r) => ({ status: r.statusCode, body: r.json() }));
  const post = <T>(session: Session, url: string, payload: object, lang = 'zh-CN'): Promise<Answer<T>> =>
    t.app.inject({ method: 'POST', url, headers: { ...session.headers, 'accept-language': lang }, payload }).then((r) => ({ status: r.statusCode, body: r.json() }));
  const overview = async (session: Session) => (await get<ContactsOverview>(session, '/api/contacts/overview')).body.data;
  const socket = async (session: Session) => {
    let frames: PushMessage[] = [];
    const ws = await t.app.injectWS(await pushUrl(t.app, session), {}, { onInit: (w) => (frames = collect(w)) });
    return { ws, frames: () => frames };
  };

  beforeAll(async () => {
    t = await startTestApp(target, { app: { chat: { pollMs: 0 } } });
    // A third person with the chat page's role.
    await t.database.query(
      `insert into users (username, password_hash, roles, follow_valid_time, password_stamp) select 'carol', password_hash, '{follow}', now() + interval '1 year', 'x' from users where username = 'seller'`,
    );
    admin = await login(t.app, 'admin', 'admin123');
    seller = await login(t.app, 'seller', 'seller123');
    carol = await login(t.app, 'carol', 'seller123');
  });
  afterAll(() => t?.close());

  it('finds people by name, not oneself', async () => {
    const found = await get<{ name: string; isFriend: boolean }[]>(admin, '/api/contacts/searchUsers?keyword=SELL');
    expect(found.body.data.map((u) => u.name)).toEqual(['seller']);
    const self = await get<{ name: string }[]>(admin, '/api/contacts/searchUsers?keyword=admin');
    expect(self.body.data).toEqual([]);
    const empty = await get(admin, '/api/contacts/searchUsers?keyword=');
    expect(empty.status).toBe(400);
  });

  it('a friend request reaches the other side live, accepting makes both friends in their sections', async () => {
    const sellerPage = await socket(seller);
    const adminPage = await socket(admin);
    const applied = await post<TeamRequest>(admin, '/api/contacts/friend/apply', { toId: seller.id, message: '我是管理员' });
    expect(applied.status).toBe(200);
    expect(applied.body.data).toMatchObject({ kind: 'friend', status: 'pending', message: '我是管理员', from: { id: admin.id, name: 'admin' }, to: { id: seller.id } });
    await expect.poll(() => sellerPage.frames().find((f) => f.type === 'chat.request')).toMatchObject({ request: { id: applied.body.data.id, status: 'pending' } });
    expect((await overview(seller)).requests.map((r) => r.id)).toContain(applied.body.data.id);

    const twice = await post(admin, '/api/contacts/friend/apply', { toId: seller.id, message: 'again' });
    expect(twice.status).toBe(400);
    expect(twice.body.msg).toBe(CONTACTS_MESSAGES.requestPending.zh);
    // Only the person asked can answer.
    expect((await post(carol, '/api/contacts/friend/accept', { requestId: applied.body.data.id })).status).toBe(404);

    const section = await post<{ id: number }>(seller, '/api/contacts/section/add', { name: '同事' });
    const accepted = await post<TeamRequest>(seller, '/api/contacts/friend/accept', { requestId: applied.body.data.id, sectionId: section.body.data.id });
    expect(accepted.body.data.status).toBe('accepted');
    await expect.poll(() => adminPage.frames().some((f) => f.type === 'chat.request' && f.request.status === 'accepted')).toBe(true);
    expect(adminPage.frames().some((f) => f.type === 'chat.contacts')).toBe(true);

    const sellerView = await overview(seller);
    expect(sellerView.sections.find((s) => s.name === '同事')!.friends.map((f) => f.name)).toEqual(['admin']);
    const adminView = await overview(admin);
    expect(adminView.sections.flatMap((s) => s.friends).map((f) => ({ name: f.name, online: f.online }))).toEqual([{ name: 'seller', online: true }]);
    expect(adminView.requests.find((r) => r.id === applied.body.data.id)?.status).toBe('accepted');
    expect((await post(admin, '/api/contacts/friend/apply', { toId: seller.id, message: '' })).body.msg).toBe(CONTACTS_MESSAGES.alreadyFriends.zh);
    expect((await post(admin, '/api/contacts/friend/apply', { toId: admin.id, message: '' }, 'en')).body.msg).toBe(CONTACTS_MESSAGES.notYourself.en);
    sellerPage.ws.terminate();
    adminPage.ws.terminate();
  });

  it('a rejected request makes no friends', async () => {
    const applied = await post<TeamRequest>(carol, '/api/contacts/friend/apply', { toId: admin.id, message: 'hi' });
    const rejected = await post<TeamRequest>(admin, '/api/contacts/friend/reject', { requestId: applied.body.data.id });
    expect(rejected.body.data.status).toBe('rejected');
    expect((await post(admin, '/api/contacts/friend/reject', { requestId: applied.body.data.id })).status).toBe(404);
    expect((await overview(carol)).sections.flatMap((s) => s.friends)).toEqual([]);
    expect((await post(carol, '/api/contacts/send', { kind: 'friend', id: admin.id, content: 'hello?' })).body.msg).toBe(CONTACTS_MESSAGES.notFriends.zh);
  });

  it('renames sections, refusing a duplicate name and other people\'s sections', async () => {
    const added = await post<{ id: number }>(admin, '/api/contacts/section/add', { name: '客户' });
    expect((await post(admin, '/api/contacts/section/add', { name: '客户' })).body.msg).toBe(CONTACTS_MESSAGES.sectionExists.zh);
    const renamed = await post<{ name: string }>(admin, '/api/contacts/section/rename', { id: added.body.data.id, name: '大客户' });
    expect(renamed.body.data.name).toBe('大客户');
    expect((await post(seller, '/api/contacts/section/rename', { id: added.body.data.id, name: 'mine' })).status).toBe(404);
  });

  it('delivers one-to-one messages live, pages history before a message id, and counts unread until read', async () => {
    const sellerPage = await socket(seller);
    const sent: TeamMessage[] = [];
    for (let i = 1; i <= 5; i++) sent.push((await post<TeamMessage>(admin, '/api/contacts/send', { kind: 'friend', id: seller.id, content: `消息 ${i}` })).body.data);
    await expect.poll(() => sellerPage.frames().filter((f) => f.type === 'chat.message').length).toBe(5);
    expect(sellerPage.frames().find((f) => f.type === 'chat.message')).toMatchObject({ message: { kind: 'friend', toId: seller.id, sender: { id: admin.id, name: 'admin' }, content: '消息 1' } });
    expect((await overview(seller)).unread[`friend:${admin.id}`]).toBe(5);
    expect((await overview(admin)).unread[`friend:${seller.id}`]).toBeUndefined();

    const page1 = await get<{ messages: TeamMessage[]; hasMore: boolean }>(seller, `/api/contacts/history?kind=friend&id=${admin.id}&rows=2`);
    expect(page1.body.data.messages.map((m) => m.content)).toEqual(['消息 4', '消息 5']);
    expect(page1.body.data.hasMore).toBe(true);
    const page2 = await get<{ messages: TeamMessage[]; hasMore: boolean }>(seller, `/api/contacts/history?kind=friend&id=${admin.id}&rows=10&before=${page1.body.data.messages[0]!.id}`);
    expect(page2.body.data.messages.map((m) => m.content)).toEqual(['消息 1', '消息 2', '消息 3']);
    expect(page2.body.data.hasMore).toBe(false);
    // A third person reading "the conversation with admin" reads their own, which is empty.
    expect((await get<{ messages: TeamMessage[] }>(carol, `/api/contacts/history?kind=friend&id=${admin.id}`)).body.data.messages).toEqual([]);

    const read = await post<{ unread: number }>(seller, '/api/contacts/read', { kind: 'friend', id: admin.id, messageId: sent[2]!.id });
    expect(read.body.data.unread).toBe(2);
    await post(seller, '/api/contacts/read', { kind: 'friend', id: admin.id, messageId: sent[4]!.id });
    expect((await overview(seller)).unread[`friend:${admin.id}`]).toBeUndefined();
    sellerPage.ws.terminate();
  });

  it('groups: create, apply to join, owner accepts, notices, group messages to members only, leave', async () => {
    const created = await post<TeamGroup>(admin, '/api/contacts/group/create', { name: '运营群', introduction: 'Ozon 运营' });
    expect(created.body.data).toMatchObject({ name: '运营群', ownerId: admin.id, members: [{ id: admin.id, role: 'owner' }] });
    const groupId = created.body.data.id;
    const found = await get<{ id: number; isMember: boolean }[]>(carol, '/api/contacts/searchGroups?keyword=运营');
    expect(found.body.data).toEqual([expect.objectContaining({ id: groupId, isMember: false })]);

    expect((await get(carol, `/api/contacts/history?kind=group&id=${groupId}`)).body.msg).toBe(CONTACTS_MESSAGES.notMember.zh);
    const applied = await post<TeamRequest>(carol, '/api/contacts/group/apply', { groupId, message: '请加我' });
    expect(applied.body.data).toMatchObject({ kind: 'group', to: { id: admin.id }, group: { id: groupId, name: '运营群' } });
    expect((await post(seller, '/api/contacts/group/decide', { requestId: applied.body.data.id, accept: true })).status).toBe(404);
    expect((await post<TeamRequest>(admin, '/api/contacts/group/decide', { requestId: applied.body.data.id, accept: true })).body.data.status).toBe('accepted');

    expect((await post(carol, '/api/contacts/group/notice', { groupId, title: 'x' })).body.msg).toBe(CONTACTS_MESSAGES.ownerOnly.zh);
    await post(admin, '/api/contacts/group/notice', { groupId, type: '公告', title: '周五盘点库存' });
    const carolGroup = (await overview(carol)).groups.find((g) => g.id === groupId)!;
    expect(carolGroup.notices.map((n) => n.title)).toEqual(['周五盘点库存']);
    expect(carolGroup.members.map((m) => m.name).sort()).toEqual(['admin', 'carol']);

    const carolPage = await socket(carol);
    const sellerPage = await socket(seller);
    await post(admin, '/api/contacts/send', { kind: 'group', id: groupId, content: '大家好' });
    await expect.poll(() => carolPage.frames().some((f) => f.type === 'chat.message' && f.message.kind === 'group' && f.message.toId === groupId)).toBe(true);
    expect(sellerPage.frames().some((f) => f.type === 'chat.message' && f.message.kind === 'group')).toBe(false);
    expect((await overview(carol)).unread[`group:${groupId}`]).toBe(1);
    expect((await post(seller, '/api/contacts/send', { kind: 'group', id: groupId, content: 'intruder' })).body.msg).toBe(CONTACTS_MESSAGES.notMember.zh);

    expect((await post(admin, '/api/contacts/group/leave', { groupId })).body.msg).toBe(CONTACTS_MESSAGES.ownerCannotLeave.zh);
    expect((await post(carol, '/api/contacts/group/leave', { groupId })).status).toBe(200);
    expect((await overview(carol)).groups).toEqual([]);
    carolPage.ws.terminate();
    sellerPage.ws.terminate();
  });

  it('tells friends when someone comes online and goes offline', async () => {
    const adminPage = await socket(admin);
    const sellerPage = await socket(seller);
    await expect.poll(() => adminPage.frames().some((f) => f.type === 'chat.presence' && f.userId === seller.id && f.online)).toBe(true);
    sellerPage.ws.terminate();
    await expect.poll(() => adminPage.frames().some((f) => f.type === 'chat.presence' && f.userId === seller.id && !f.online)).toBe(true);
    adminPage.ws.terminate();
  });

  it('answers 401 to roles without the chat page, for every call', async () => {
    const analyst = await login(t.app, 'analyst', 'analyst123');
    for (const url of ['/api/contacts/overview', '/api/contacts/searchUsers?keyword=a', '/api/contacts/searchGroups?keyword=a', `/api/contacts/history?kind=friend&id=${admin.id}`]) {
      expect((await get(analyst, url)).status).toBe(401);
    }
    const posts: [string, object][] = [
      ['/api/contacts/friend/apply', { toId: admin.id }],
      ['/api/contacts/friend/accept', { requestId: 1 }],
      ['/api/contacts/friend/reject', { requestId: 1 }],
      ['/api/contacts/section/add', { name: 'x' }],
      ['/api/contacts/section/rename', { id: 1, name: 'x' }],
      ['/api/contacts/group/create', { name: 'x' }],
      ['/api/contacts/group/apply', { groupId: 1 }],
      ['/api/contacts/group/decide', { requestId: 1, accept: true }],
      ['/api/contacts/group/leave', { groupId: 1 }],
      ['/api/contacts/group/notice', { groupId: 1, title: 'x' }],
      ['/api/contacts/send', { kind: 'friend', id: admin.id, content: 'x' }],
      ['/api/contacts/read', { kind: 'friend', id: admin.id, messageId: 1 }],
    ];
    for (const [url, payload] of posts) expect((await post(analyst, url, payload)).status, url).toBe(401);
  });
  it("echoes a sent message live to the sender's other pages, with the sending page's key, and never the key to others", async () => {
    const adminOtherPage = await socket(admin);
    const sellerPage = await socket(seller);
    const sent = await post<TeamMessage>(admin, '/api/contacts/send', { kind: 'friend', id: seller.id, content: '另一页也能看到', clientKey: 'page-1:42' });
    expect(sent.body.data).toMatchObject({ content: '另一页也能看到', clientKey: 'page-1:42' });
    await expect.poll(() => adminOtherPage.frames().find((f) => f.type === 'chat.message' && f.message.id === sent.body.data.id)).toMatchObject({
      message: { sender: { id: admin.id }, toId: seller.id, clientKey: 'page-1:42' },
    });
    await expect.poll(() => sellerPage.frames().find((f) => f.type === 'chat.message' && f.message.id === sent.body.data.id)).toBeDefined();
    const theirs = sellerPage.frames().find((f) => f.type === 'chat.message' && f.message.id === sent.body.data.id);
    expect(theirs && theirs.type === 'chat.message' && theirs.message.clientKey).toBeUndefined();
  });
});
