import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { MESSAGES } from '../../contract/errors';
import {
  FEATURE_UPDATE_PATHS,
  NOTICE_MESSAGES,
  NOTICE_PATHS,
  currentFeatureUpdateDataSchema,
  featureUpdatePageSchema,
  featureUpdateSchema,
  noticePageSchema,
  noticeRowSchema,
} from '../../contract/notice';
import { pushMessageSchema, type PushMessage } from '../../contract/push';
import { FEATURE_UPDATE_2025_06_05, seedDemoUsers, WELCOME_NOTICE } from '../../server/demo/seed';
import { DATABASE_TARGETS, login, pushUrl, startTestApp, type Session, type TestApp } from './harness';

/** Collects frames from the moment the socket is created, so the greeting is not missed. */
function collect(ws: WebSocket) {
  const frames: PushMessage[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (data) => {
    frames.push(pushMessageSchema.parse(JSON.parse(String(data))));
    waiters.splice(0).forEach((wake) => wake());
  });
  const next = async (count: number) => {
    while (frames.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    return frames.slice(0, count);
  };
  return { next, frames };
}

const SECOND_MS = 1000;

describe.each(DATABASE_TARGETS)('notices and feature updates on $kind', (target) => {
  let t: TestApp;
  let admin: Session;
  let seller: Session;
  beforeAll(async () => {
    t = await startTestApp(target);
    await t.app.ready();
    admin = await login(t.app, 'admin', 'admin123');
    seller = await login(t.app, 'seller', 'seller123');
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (url: string, payload: object, headers: Record<string, string> = admin.headers) => t.app.inject({ method: 'POST', url, payload, headers });
  const get = (url: string, headers: Record<string, string> = admin.headers) => t.app.inject({ method: 'GET', url, headers });
  const served = async () => (await get('/api/noticeCheck', seller.headers)).json().data;
  const addNotice = async (text: string) => {
    t.clock.advance(SECOND_MS);
    const response = await post(NOTICE_PATHS.add, { text });
    expect(response.statusCode, response.body).toBe(200);
    return noticeRowSchema.parse(response.json().data);
  };

  describe('only administrators manage them', () => {
    const calls: Array<[string, 'GET' | 'POST', object | undefined]> = [
      [NOTICE_PATHS.list, 'GET', undefined],
      [NOTICE_PATHS.add, 'POST', { text: '越权公告' }],
      [NOTICE_PATHS.update, 'POST', { id: 1, text: '越权公告' }],
      [NOTICE_PATHS.delete, 'POST', { ids: [1] }],
      [FEATURE_UPDATE_PATHS.list, 'GET', undefined],
      [FEATURE_UPDATE_PATHS.add, 'POST', { startDate: '2025-06-10', items: [{ zh: '越权', en: 'sneaky' }] }],
      [FEATURE_UPDATE_PATHS.update, 'POST', { id: 1, active: false }],
      [FEATURE_UPDATE_PATHS.delete, 'POST', { ids: [1] }],
    ];
    it.each(['seller', 'analyst', 'newbie'])('answers 401 to %s on every call, and changes nothing', async (username) => {
      const session = await login(t.app, username, `${username}123`);
      const before = await served();
      for (const [url, method, payload] of calls) {
        const response = await t.app.inject({ method, url, headers: session.headers, ...(payload ? { payload } : {}) });
        expect(response.statusCode, url).toBe(401);
        expect(response.json()).toEqual({ code: 401, msg: MESSAGES.unauthorized.zh, data: null });
      }
      expect(await served()).toEqual(before);
      expect(currentFeatureUpdateDataSchema.parse((await get(FEATURE_UPDATE_PATHS.current, session.headers)).json().data)?.startDate).toBe('2025-06-05');
    });
  });

  describe('notice manager', () => {
    it('lists the seeded welcome notice with its China-time date', async () => {
      const page = noticePageSchema.parse((await get(NOTICE_PATHS.list)).json().data);
      expect(page.total).toBe(1);
      expect(page.list[0]).toMatchObject({ text: WELCOME_NOTICE, updateTime: '2025-06-10 16:00:00', author: null });
    });

    it('serves the newest notice after add, update and delete', async () => {
      const first = await addNotice('六月维护通知');
      expect(first).toMatchObject({ text: '六月维护通知', updateTime: '2025-06-10 16:00:01', author: 'admin' });
      expect(await served()).toEqual({ text: '六月维护通知', updateTime: '2025-06-10 16:00:01' });

      const second = await addNotice('新功能上线');
      expect(await served()).toEqual({ text: '新功能上线', updateTime: second.updateTime });

      t.clock.advance(SECOND_MS);
      const updated = await post(NOTICE_PATHS.update, { id: first.id, text: '六月维护通知（已更新）' });
      expect(updated.json().data).toMatchObject({ id: first.id, text: '六月维护通知（已更新）', updateTime: '2025-06-10 16:00:03' });
      expect(await served()).toEqual({ text: '六月维护通知（已更新）', updateTime: '2025-06-10 16:00:03' });

      expect((await post(NOTICE_PATHS.delete, { ids: [first.id] })).json()).toEqual({ code: 200, msg: 'success', data: { deleted: 1 } });
      expect(await served()).toEqual({ text: '新功能上线', updateTime: second.updateTime });

      const page = noticePageSchema.parse((await get(NOTICE_PATHS.list)).json().data);
      expect(page.list.map((row) => row.text)).toEqual(['新功能上线', WELCOME_NOTICE]);
    });

    it('makes a notice published in the same instant as another the one served', async () => {
      const a = await addNotice('同一时刻 A');
      const b = await post(NOTICE_PATHS.update, { id: a.id, text: '同一时刻 A2' });
      expect(b.statusCode).toBe(200);
      const c = await post(NOTICE_PATHS.add, { text: '同一时刻 B' });
      expect(c.statusCode).toBe(200);
      expect((await served()).text).toBe('同一时刻 B');
      await post(NOTICE_PATHS.update, { id: a.id, text: '同一时刻 A3' });
      expect((await served()).text).toBe('同一时刻 A3');
    });

    it('pages newest first', async () => {
      const all = noticePageSchema.parse((await get(`${NOTICE_PATHS.list}?rows=100`)).json().data);
      const second = noticePageSchema.parse((await get(`${NOTICE_PATHS.list}?page=2&rows=1`)).json().data);
      expect(second.total).toBe(all.total);
      expect(second.list).toEqual(all.list.slice(1, 2));
    });

    it('answers null once every notice is deleted', async () => {
      const all = noticePageSchema.parse((await get(`${NOTICE_PATHS.list}?rows=100`)).json().data);
      await post(NOTICE_PATHS.delete, { ids: all.list.map((row) => row.id) });
      expect(await served()).toBeNull();
      expect(noticePageSchema.parse((await get(NOTICE_PATHS.list)).json().data)).toEqual({ list: [], total: 0 });
    });

    it('answers 400 naming the field for empty or too long text, and 404 for unknown ids', async () => {
      expect((await post(NOTICE_PATHS.add, { text: '   ' })).json()).toMatchObject({ code: 400, data: { field: 'text' } });
      expect((await post(NOTICE_PATHS.add, { text: '长'.repeat(2001) })).json()).toMatchObject({ code: 400, data: { field: 'text' } });
      expect((await post(NOTICE_PATHS.update, { text: '无编号' })).json()).toMatchObject({ code: 400, data: { field: 'id' } });
      const update = await post(NOTICE_PATHS.update, { id: 999999, text: '不存在' });
      expect(update.statusCode).toBe(404);
      expect(update.json()).toEqual({ code: 404, msg: NOTICE_MESSAGES.noticeNotFound.zh, data: { field: 'id' } });

      const kept = await addNotice('保留的公告');
      const remove = await post(NOTICE_PATHS.delete, { ids: [kept.id, 999999] });
      expect(remove.statusCode).toBe(404);
      expect((await served()).text).toBe('保留的公告');
    });

    it('pushes a published or changed notice to every open socket', async () => {
      const analyst = await login(t.app, 'analyst', 'analyst123');
      const sockets: WebSocket[] = [];
      const open = async (session: Session) => {
        let frames!: ReturnType<typeof collect>;
        sockets.push(await t.app.injectWS(await pushUrl(t.app, session), {}, { onInit: (ws) => (frames = collect(ws)) }));
        await frames.next(1);
        return frames;
      };
      const sellerFrames = await open(seller);
      const analystFrames = await open(analyst);

      const row = await addNotice('推送公告');
      const expected = { type: 'notice', notice: { text: '推送公告', updateTime: row.updateTime } };
      expect((await sellerFrames.next(2))[1]).toEqual(expected);
      expect((await analystFrames.next(2))[1]).toEqual(expected);
      expect(await served()).toEqual(expected.notice);

      t.clock.advance(SECOND_MS);
      const changed = noticeRowSchema.parse((await post(NOTICE_PATHS.update, { id: row.id, text: '推送公告（改）' })).json().data);
      expect((await sellerFrames.next(3))[2]).toEqual({ type: 'notice', notice: { text: '推送公告（改）', updateTime: changed.updateTime } });

      // Deleting the served notice pushes the one served now.
      await post(NOTICE_PATHS.delete, { ids: [row.id] });
      expect((await analystFrames.next(4))[3]).toEqual({ type: 'notice', notice: await served() });
      sockets.forEach((ws) => ws.terminate());
    });
  });

  describe('feature-update announcements', () => {
    it('answers the seeded announcement of 2025-06-05 to any logged-in user', async () => {
      const newbie = await login(t.app, 'newbie', 'newbie123');
      const current = currentFeatureUpdateDataSchema.parse((await get(FEATURE_UPDATE_PATHS.current, newbie.headers)).json().data);
      expect(current).toMatchObject({ startDate: '2025-06-05', title: { zh: '更新Tips：' }, items: FEATURE_UPDATE_2025_06_05.items });
      expect(current?.items).toHaveLength(6);
      for (const item of current?.items ?? []) {
        // Each line names its page: the dialog shows it only once that page works.
        expect(item.path).toMatch(/^\/[a-z-]+\/[a-z-]+$/);
        expect(item.zh).toMatch(/[\u4e00-\u9fa5]/);
        expect(item.en).toMatch(/^[\x20-\x7e]+$/);
      }
      expect((await get(FEATURE_UPDATE_PATHS.current, {})).statusCode).toBe(402);
    });

    it('is seeded once however often the demo seed runs', async () => {
      await seedDemoUsers(t.database.db, t.clock.now());
      const page = featureUpdatePageSchema.parse((await get(FEATURE_UPDATE_PATHS.list)).json().data);
      expect(page.list.map((row) => row.startDate)).toEqual(['2025-06-05']);
    });

    it('serves the newest active one whose start date has come', async () => {
      const items = [{ zh: '订单列表支持批量发货', en: 'Ship orders in bulk from the order list' }];
      const future = await post(FEATURE_UPDATE_PATHS.add, { startDate: '2025-06-11', items });
      expect(future.statusCode, future.body).toBe(200);
      expect((await get(FEATURE_UPDATE_PATHS.current, seller.headers)).json().data.startDate).toBe('2025-06-05');

      const today = featureUpdateSchema.parse((await post(FEATURE_UPDATE_PATHS.add, { startDate: '2025-06-10', items })).json().data);
      expect(today).toMatchObject({ startDate: '2025-06-10', title: { zh: '更新Tips：' }, items, active: true });
      expect((await get(FEATURE_UPDATE_PATHS.current, seller.headers)).json().data).toEqual({ id: today.id, startDate: '2025-06-10', title: today.title, items });

      // 2025-06-10T16:00Z is already 2025-06-11 in China. The access tokens have expired by then.
      t.clock.advance(8 * 3600 * SECOND_MS);
      admin = await login(t.app, 'admin', 'admin123');
      seller = await login(t.app, 'seller', 'seller123');
      expect((await get(FEATURE_UPDATE_PATHS.current, seller.headers)).json().data.startDate).toBe('2025-06-11');
      await post(FEATURE_UPDATE_PATHS.delete, { ids: [future.json().data.id] });

      const off = await post(FEATURE_UPDATE_PATHS.update, { id: today.id, active: false });
      expect(off.json().data).toMatchObject({ id: today.id, active: false, items });
      expect((await get(FEATURE_UPDATE_PATHS.current, seller.headers)).json().data.startDate).toBe('2025-06-05');

      const page = featureUpdatePageSchema.parse((await get(FEATURE_UPDATE_PATHS.list)).json().data);
      expect(page.list.map((row) => [row.startDate, row.active])).toEqual([
        ['2025-06-10', false],
        ['2025-06-05', true],
      ]);
      expect(page.total).toBe(2);
    });

    it('answers null when none is active', async () => {
      const page = featureUpdatePageSchema.parse((await get(FEATURE_UPDATE_PATHS.list)).json().data);
      expect((await post(FEATURE_UPDATE_PATHS.delete, { ids: page.list.map((row) => row.id) })).json().data).toEqual({ deleted: page.total });
      expect((await get(FEATURE_UPDATE_PATHS.current, seller.headers)).json()).toEqual({ code: 200, msg: 'success', data: null });
    });

    it.each([
      [{ startDate: '2025-02-30', items: [{ zh: '一', en: 'one' }] }, 'startDate'],
      [{ startDate: '2025/06/05', items: [{ zh: '一', en: 'one' }] }, 'startDate'],
      [{ startDate: '2025-06-05', items: [] }, 'items'],
      [{ startDate: '2025-06-05', items: [{ zh: '只有中文' }] }, 'items.0.en'],
      [{ items: [{ zh: '一', en: 'one' }] }, 'startDate'],
    ])('answers 400 naming the field for %j', async (payload, field) => {
      const response = await post(FEATURE_UPDATE_PATHS.add, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 400, data: { field } });
    });

    it('answers 404 for unknown ids on update and delete', async () => {
      const update = await post(FEATURE_UPDATE_PATHS.update, { id: 999999, active: true });
      expect(update.json()).toEqual({ code: 404, msg: NOTICE_MESSAGES.featureUpdateNotFound.zh, data: { field: 'id' } });
      expect((await post(FEATURE_UPDATE_PATHS.delete, { ids: [999999] })).statusCode).toBe(404);
    });
  });
});
