import { eq } from 'drizzle-orm';
import type { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeListFrame, rowsOfChunk } from '../../contract/listFrame';
import { PRODUCT_LIST } from '../../contract/products';
import type { PushMessage } from '../../contract/push';
import { RETURN_LIST } from '../../contract/returns';
import { MESSAGES } from '../../contract/errors';
import type { Store } from '../../contract/store';
import { TEAM_MESSAGES } from '../../contract/team';
import { orgMembers, orgRoles, users } from '../../server/db/schema';
import { hashPassword } from '../../server/areas/session/passwords';
import { newPasswordStamp } from '../../server/areas/session/service';
import { seedDemoTeam } from '../../server/demo/team';
import { DATABASE_TARGETS, login, pushUrl, startTestApp, type Session, type TestApp } from './harness';

describe.each(DATABASE_TARGETS)('an organisation member on $kind', (target) => {
  let t: TestApp;
  let seller: Session;
  let roleId: number;
  let memberId: number;
  let shop1001: number;
  let shop1002: number;

  beforeAll(async () => {
    t = await startTestApp(target, { app: { marketplace: { simulatorOptions: { ordersPerShop: 600, productsPerShop: 30 } } } });
    await t.app.ready();
    seller = await login(t.app, 'seller', 'seller123');
    const added = await post<Store>('/api/store/add', { name: '义乌小百货', clientId: '1001', apiKey: 'sim-key-1001' });
    expect(added.status).toBe(200);
    shop1001 = added.body.data.id;
    shop1002 = (await post<Store>('/api/store/add', { name: '莫斯科仓', clientId: '1002', apiKey: 'sim-key-1002' })).body.data.id;
    await t.app.sync.runShop(shop1001, ['warehouses', 'postings', 'products', 'returns']);
    await t.app.sync.runShop(shop1002, ['warehouses', 'postings', 'products', 'returns']);
    const db = t.database.db;
    const [role] = await db.insert(orgRoles).values({ orgId: seller.id, name: 'packing', permissions: ['orders:view'], dataScope: 'all' }).returning();
    roleId = role!.id;
    const [member] = await db
      .insert(users)
      .values({ username: 'packer', passwordHash: await hashPassword('packer123'), passwordStamp: newPasswordStamp(), isAp: true, relativeId: seller.id })
      .returning();
    memberId = member!.id;
    await db.insert(orgMembers).values({ userId: memberId, orgId: seller.id, roleId });
  }, 300_000);
  afterAll(() => t?.close());

  const get = <T>(url: string, session: Session = seller) =>
    t.app.inject({ method: 'GET', url, headers: session.headers }).then((r) => ({ status: r.statusCode, body: r.json<{ code: number; data: T; msg: string }>() }));
  const post = <T>(url: string, payload: unknown, session: Session = seller) =>
    t.app.inject({ method: 'POST', url, headers: session.headers, payload: payload as object }).then((r) => ({ status: r.statusCode, body: r.json<{ code: number; data: T; msg: string }>() }));

  it("works on the owner's data within the owner's paid roles, with only what the role grants", async () => {
    const packer = await login(t.app, 'packer', 'packer123');
    const info = await get<{ roles: string[]; rolePermissions: string[]; permissions: string[] | null }>('/api/getInfo', packer);
    expect(info.body.data.roles).toEqual(['follow']);
    // What the menus and buttons follow: the role's grants, read now; an owner has no list (everything).
    expect(info.body.data.permissions).toEqual(['orders:view']);
    expect((await get<{ permissions: string[] | null }>('/api/getInfo')).body.data.permissions).toBeNull();
    const orders = await get<{ total: number }>('/api/order/list?rows=1', packer);
    expect(orders.status).toBe(200);
    expect(orders.body.data.total).toBe((await get<{ total: number }>('/api/order/list?rows=1')).body.data.total);
    const ship = await post('/api/shipOrder', { ids: ['x'] }, packer);
    expect(ship.status).toBe(401);
    expect(ship.body.msg).toBe(MESSAGES.unauthorized.zh);
    expect((await get('/api/store/list', packer)).status).toBe(401);
    // The owner holds every permission.
    expect((await get('/api/store/list')).status).toBe(200);
  });

  it('loses a permission on the next call, and is signed out when disabled', async () => {
    const packer = await login(t.app, 'packer', 'packer123');
    expect((await get('/api/order/list?rows=1', packer)).status).toBe(200);
    await t.database.db.update(orgRoles).set({ permissions: [] }).where(eq(orgRoles.id, roleId));
    expect((await get('/api/order/list?rows=1', packer)).status).toBe(401);
    expect((await get<{ permissions: string[] | null }>('/api/getInfo', packer)).body.data.permissions).toEqual([]);
    await t.database.db.update(orgMembers).set({ status: 'disabled' }).where(eq(orgMembers.userId, memberId));
    expect((await get('/api/getInfo', packer)).status).toBe(402);
    await expect(login(t.app, 'packer', 'packer123')).rejects.toThrow(TEAM_MESSAGES.memberDisabled.zh);
    await t.database.db.update(orgMembers).set({ status: 'enabled' }).where(eq(orgMembers.userId, memberId));
    await t.database.db.update(orgRoles).set({ permissions: ['orders:view'] }).where(eq(orgRoles.id, roleId));
  });

  describe('scoped to one shop', () => {
    let packer: Session;
    beforeAll(async () => {
      await t.database.db
        .update(orgRoles)
        .set({ permissions: ['orders:view', 'orders:ship', 'store:view', 'products:view', 'returns:view', 'products:price'], dataScope: 'shops', shopIds: [shop1001] })
        .where(eq(orgRoles.id, roleId));
      packer = await login(t.app, 'packer', 'packer123');
    });
    afterAll(async () => {
      await t.database.db.update(orgRoles).set({ permissions: ['orders:view'], dataScope: 'all', shopIds: [] }).where(eq(orgRoles.id, roleId));
    });

    const syncedShops = async (path: string, session: Session) => {
      const shops = new Set<number>();
      let cursor: string | undefined;
      for (;;) {
        const response = await t.app.inject({ method: 'GET', url: `${path}?limit=5000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, headers: session.headers });
        expect(response.statusCode, response.body).toBe(200);
        const data = response.json<{ data: { rows: { shopId: number }[]; cursor: string; hasMore: boolean } }>().data;
        for (const row of data.rows) shops.add(row.shopId);
        cursor = data.cursor;
        if (!data.hasMore) return shops;
      }
    };

    const framedShops = async (path: string, schema: typeof PRODUCT_LIST | typeof RETURN_LIST, session: Session) => {
      const shops = new Set<number>();
      let cursor: string | undefined;
      for (;;) {
        const response = await t.app.inject({ method: 'GET', url: `${path}?limit=5000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, headers: session.headers });
        expect(response.statusCode, response.body).toBe(200);
        const bytes = response.rawPayload;
        const frame = decodeListFrame(schema, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
        for (const row of rowsOfChunk<{ shopId: number; deleted: boolean }>(schema, frame.chunk)) shops.add(row.shopId);
        cursor = frame.cursor;
        if (!frame.hasMore) return shops;
      }
    };

    it('lists, syncs and reads only that shop\'s rows', async () => {
      expect((await get<Store[]>('/api/store/list', packer)).body.data.map((shop) => shop.id)).toEqual([shop1001]);
      expect((await get<Store[]>('/api/store/list')).body.data.map((shop) => shop.id)).toEqual([shop1001, shop1002]);
      const mine = await get<{ total: number; list: { shopId: number }[] }>('/api/order/list?rows=500', packer);
      const all = await get<{ total: number; list: { shopId: number; id: string }[] }>('/api/order/list?rows=500');
      expect(mine.body.data.total).toBeGreaterThan(0);
      expect(mine.body.data.total).toBeLessThan(all.body.data.total);
      expect(new Set(mine.body.data.list.map((row) => row.shopId))).toEqual(new Set([shop1001]));
      expect(await syncedShops('/api/order/sync', packer)).toEqual(new Set([shop1001]));
      expect(await syncedShops('/api/order/sync', seller)).toEqual(new Set([shop1001, shop1002]));
      const foreign = all.body.data.list.find((row) => row.shopId === shop1002)!;
      expect((await get(`/api/order/get?id=${encodeURIComponent(foreign.id)}`, packer)).status).toBe(404);
      // Naming the other shop is refused outright.
      expect((await get(`/api/order/list?shopIds=${shop1002}`, packer)).status).toBe(401);
      expect((await post('/api/warehouse/list', { storeId: shop1002 }, packer)).status).toBe(401);
      const products = await get<{ list: { shopId: number }[] }>(`/api/ozonProduct/list?rows=100&storeId=${shop1001}`, packer);
      expect(products.status, JSON.stringify(products.body)).toBe(200);
      expect(products.body.data.list.every((row) => row.shopId === shop1001)).toBe(true);
      expect((await get(`/api/ozonProduct/list?rows=100&storeId=${shop1002}`, packer)).status).toBe(401);
      expect(await framedShops('/api/product/sync', PRODUCT_LIST, packer)).toEqual(new Set([shop1001]));
      expect(await framedShops('/api/return/sync', RETURN_LIST, packer)).toEqual(new Set([shop1001]));
      expect(await framedShops('/api/product/sync', PRODUCT_LIST, seller)).toEqual(new Set([shop1001, shop1002]));
      const returns = await get<{ list: { shopId: number }[] }>('/api/ozonReturnNew/list?rows=100', packer);
      expect(returns.body.data.list.every((row) => row.shopId === shop1001)).toBe(true);
    });

    it('never ships the other shop\'s order', async () => {
      const all = await get<{ list: { shopId: number; id: string; status: string }[] }>('/api/order/list?rows=500&statuses=awaiting_packaging');
      const foreign = all.body.data.list.find((row) => row.shopId === shop1002);
      expect(foreign).toBeDefined();
      const shipped = await post<{ done: number; failures: unknown[] }>('/api/shipOrder', { ids: [foreign!.id] }, packer);
      expect(shipped.body.data?.done ?? 0).toBe(0);
      expect((await get<{ list: { id: string; status: string }[] }>(`/api/order/get?id=${encodeURIComponent(foreign!.id)}`)).body.data).toMatchObject({ status: 'awaiting_packaging' });
    });

    it("pushes the other shop's news only to those who may see it, and a narrower scope at once", async () => {
      const frames = { seller: [] as PushMessage[], packer: [] as PushMessage[] };
      const listen = (into: PushMessage[]) => (ws: WebSocket) => ws.on('message', (data: Buffer) => into.push(JSON.parse(String(data)) as PushMessage));
      const sellerWs = await t.app.injectWS(await pushUrl(t.app, seller), {}, { onInit: listen(frames.seller) });
      const packerWs = await t.app.injectWS(await pushUrl(t.app, packer), {}, { onInit: listen(frames.packer) });
      await vi.waitFor(() => expect(frames.packer.length + frames.seller.length).toBe(2));
      expect(t.app.push.toAccount(seller.id, { type: 'returns.changed', shopId: shop1002 })).toBe(1);
      expect(t.app.push.toAccount(seller.id, { type: 'returns.changed', shopId: shop1001 })).toBe(2);
      await vi.waitFor(() => expect(frames.seller.filter((m) => m.type === 'returns.changed')).toHaveLength(2));
      expect(frames.packer.filter((m) => m.type === 'returns.changed')).toEqual([{ type: 'returns.changed', shopId: shop1001 }]);
      // The shop taken away: the open page is told, and hears no more of that shop.
      await t.database.db.update(orgRoles).set({ shopIds: [] }).where(eq(orgRoles.id, roleId));
      t.app.push.rescope(seller.id);
      await vi.waitFor(() => expect(frames.packer.map((m) => m.type)).toContain('scope.changed'));
      expect(t.app.push.toAccount(seller.id, { type: 'returns.changed', shopId: shop1001 })).toBe(1);
      // Disabled: the socket closes.
      const closed = new Promise((resolve) => packerWs.once('close', resolve));
      await t.database.db.update(orgMembers).set({ status: 'disabled' }).where(eq(orgMembers.userId, memberId));
      t.app.push.rescope(seller.id);
      await closed;
      await t.database.db.update(orgMembers).set({ status: 'enabled' }).where(eq(orgMembers.userId, memberId));
      await t.database.db.update(orgRoles).set({ shopIds: [shop1001] }).where(eq(orgRoles.id, roleId));
      sellerWs.terminate();
    });
  });

  it('seeds the demo organisation: a shipper of shop 1001 and an operator of both shops', async () => {
    await seedDemoTeam(t.database, [shop1001, shop1002]);
    await seedDemoTeam(t.database, [shop1001, shop1002]);
    const shipper = await login(t.app, 'shipper', 'shipper123');
    expect((await get<Store[]>('/api/store/list', shipper)).body.data.map((shop) => shop.id)).toEqual([shop1001]);
    const orders = await get<{ list: { shopId: number }[] }>('/api/order/list?rows=200', shipper);
    expect(new Set(orders.body.data.list.map((row) => row.shopId))).toEqual(new Set([shop1001]));
    expect((await get(`/api/ozonProduct/list?storeId=${shop1001}`, shipper)).status).toBe(401);
    const operator = await login(t.app, 'operator', 'operator123');
    expect((await get<Store[]>('/api/store/list', operator)).body.data.map((shop) => shop.id)).toEqual([shop1001, shop1002]);
    expect((await get(`/api/ozonProduct/list?storeId=${shop1002}`, operator)).status).toBe(200);
    expect((await get('/api/order/list', operator)).status).toBe(401);
    expect((await get('/api/permission/user/list', operator)).status).toBe(401);
    const staff = await get<{ total: number; list: { name: string; department: string }[] }>('/api/permission/user/list');
    expect(staff.body.data.list.filter((row) => ['shipper', 'operator'].includes(row.name)).map((row) => row.department)).toEqual(['仓储物流部', '运营部']);
  });
});
