import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PERMISSION_ACTIONS } from '../../contract/access';
import { decodeListFrame, rowsOfChunk } from '../../contract/listFrame';
import { COST_MESSAGES } from '../../contract/costs';
import { EDIT_MESSAGES } from '../../contract/edit';
import { ORDER_LIST } from '../../contract/orders';
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
import { multipart } from '../support/multipart';
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
        .set({ permissions: ['orders:view', 'orders:ship', 'store:view', 'products:view', 'returns:view', 'products:price', 'actions:view', 'actions:price'], dataScope: 'shops', shopIds: [shop1001] })
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
      const [live] = await t.database.query<{ n: number }>(`select count(*)::int as n from orders where user_id = $1 and shop_id = $2 and not deleted`, [seller.id, shop1001]);
      expect(mine.body.data.total).toBe(live!.n);
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

    it("tracks the other shop's posting as anyone's number, not as its own", async () => {
      const all = await get<{ list: { shopId: number; postingNumber: string }[] }>(`/api/order/list?rows=50&shopIds=${shop1002}`);
      const number = all.body.data.list[0]!.postingNumber;
      const track = (session: Session) => post<{ results: { routedBy: string; posting: { shopName: string } | null }[] }>('/api/track/search', { numbers: [number] }, session);
      expect((await track(seller)).body.data.results[0]).toMatchObject({ routedBy: 'own', posting: { shopName: '莫斯科仓' } });
      const theirs = (await track(packer)).body.data.results[0]!;
      expect(theirs.routedBy).not.toBe('own');
      expect(theirs.posting).toBeNull();
    });

    it("sets, imports and lists the costs of its shop's products only", async () => {
      // One cost counts for an offer id in every shop: an offer id the other shop sells too is not the member's to set.
      const name = async (shopId: number, offerIds: string[]) => {
        const rows = await t.database.query<{ id: string }>(`select id from products where shop_id = $1 and not deleted order by id limit ${offerIds.length}`, [shopId]);
        for (const [i, row] of rows.entries()) await t.database.query(`update products set offer_id = $2 where id = $1`, [row.id, offerIds[i]]);
      };
      await name(shop1001, ['COST-1001', 'COST-SHARED']);
      await name(shop1002, ['COST-1002', 'COST-SHARED']);
      expect((await post('/api/cost/set', { items: [{ offerId: 'COST-1001', cost: 10 }] }, packer)).status).toBe(200);
      for (const offerId of ['COST-1002', 'COST-SHARED', 'COST-NOWHERE']) {
        const refused = await post('/api/cost/set', { items: [{ offerId: 'COST-1001', cost: 11 }, { offerId, cost: 12 }] }, packer);
        expect(refused.status).toBe(401);
        expect(refused.body.msg).toBe(`${COST_MESSAGES.offerOutsideShops.zh}：${offerId}`);
      }
      expect((await post('/api/cost/set', { items: [{ offerId: 'COST-1002', cost: null }] }, packer)).status).toBe(401);
      expect((await post('/api/cost/set', { items: [{ offerId: 'COST-1002', cost: 20 }, { offerId: 'COST-SHARED', cost: 30 }] })).status).toBe(200);
      const costs = async (session: Session) =>
        (await get<{ list: { offerId: string; cost: number }[] }>('/api/cost/list?rows=100&search=COST-', session)).body.data.list.map((row) => [row.offerId, row.cost]);
      // Nothing of a refused call was written; the member reads its shop's costs, the shared one included.
      expect(await costs(seller)).toEqual([['COST-1001', 10], ['COST-1002', 20], ['COST-SHARED', 30]]);
      expect(await costs(packer)).toEqual([['COST-1001', 10], ['COST-SHARED', 30]]);
      const { payload, contentType } = multipart({}, { name: 'costs.csv', bytes: Buffer.from('offer_id,cost\nCOST-1001,5\nCOST-1002,6\nCOST-SHARED,7\n'), type: 'text/csv' });
      const imported = await t.app.inject({ method: 'POST', url: '/api/cost/import', headers: { ...packer.headers, 'content-type': contentType }, payload });
      expect(imported.statusCode, imported.body).toBe(200);
      expect(imported.json<{ data: unknown }>().data).toEqual({
        saved: 1,
        lines: 3,
        errors: [
          { line: 3, offerId: 'COST-1002', message: COST_MESSAGES.offerOutsideShops.zh },
          { line: 4, offerId: 'COST-SHARED', message: COST_MESSAGES.offerOutsideShops.zh },
        ],
      });
      expect(await costs(seller)).toEqual([['COST-1001', 5], ['COST-1002', 20], ['COST-SHARED', 30]]);
      // Cost prices are margins: a role that sees promotions but does not change prices reads none of them.
      const [role] = await t.database.db.select().from(orgRoles).where(eq(orgRoles.id, roleId));
      await t.database.db.update(orgRoles).set({ permissions: role!.permissions.filter((p) => p !== 'actions:price') }).where(eq(orgRoles.id, roleId));
      try {
        const refused = await get('/api/cost/list?rows=100', packer);
        expect(refused.status).toBe(401);
        expect(refused.body.msg).toBe(MESSAGES.unauthorized.zh);
        expect((await get('/api/priceGuard/list', packer)).status).toBe(200);
        // Nor through what promotions show: an action's candidates come without cost or margin for this role.
        const { actions } = (await post<{ actions: { storeId: number; actionId: number; candidates: number }[] }>('/api/ozonAction/list', {})).body.data;
        const ref = actions.filter((a) => a.storeId === shop1001 && a.candidates > 0).map(({ storeId, actionId }) => ({ storeId, actionId }))[0]!;
        type Row = { offerId: string; cost: number | null; marginPercent: number | null };
        const candidates = async (session: Session) => (await post<{ rows: Row[] }>('/api/enbaleActionProduct/list', ref, session)).body.data.rows;
        const offerId = (await candidates(seller))[0]!.offerId;
        expect((await post('/api/cost/set', { items: [{ offerId, cost: 12 }] })).status).toBe(200);
        expect((await candidates(seller)).find((r) => r.offerId === offerId)).toMatchObject({ cost: 12, marginPercent: expect.any(Number) });
        const seen = await candidates(packer);
        expect(seen.find((r) => r.offerId === offerId)).toMatchObject({ cost: null, marginPercent: null });
        expect(seen.every((r) => r.cost === null && r.marginPercent === null)).toBe(true);
      } finally {
        await t.database.db.update(orgRoles).set({ permissions: role!.permissions }).where(eq(orgRoles.id, roleId));
      }
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

  describe("scoped to one shop, in the copy, collection, create and re-upload areas", () => {
    let op: Session;
    beforeAll(async () => {
      const every = (areas: string[]) => areas.flatMap((area) => PERMISSION_ACTIONS.map((action) => `${area}:${action}`));
      const [role] = await t.database.db
        .insert(orgRoles)
        .values({ orgId: seller.id, name: 'listing', permissions: every(['copy', 'collection', 'create', 'products', 'store']), dataScope: 'shops', shopIds: [shop1001] })
        .returning();
      const [row] = await t.database.db
        .insert(users)
        .values({ username: 'lister', passwordHash: await hashPassword('lister123'), passwordStamp: newPasswordStamp(), isAp: true, relativeId: seller.id })
        .returning();
      await t.database.db.insert(orgMembers).values({ userId: row!.id, orgId: seller.id, roleId: role!.id });
      op = await login(t.app, 'lister', 'lister123');
      // Settled records of both shops (no call to Ozon follows them).
      for (const shopId of [shop1001, shop1002]) {
        await t.database.query(
          `insert into copy_records (user_id, shop_id, sku, name, offer_id, price, currency, mode, status) values ($1, $2, 1, $3, $3, 10, 'CNY', 'sku', 'failed')`,
          [seller.id, shopId, `copy-${shopId}`],
        );
        await t.database.query(
          `insert into collection_uploads (user_id, shop_id, site, offer_id, name, price, currency, status) values ($1, $2, '1688', $3, $3, 10, 'CNY', 'failed')`,
          [seller.id, shopId, `upload-${shopId}`],
        );
        await t.database.query(
          `insert into reupload_items (user_id, shop_id, batch_id, row_id, old_product_id, old_offer_id, new_offer_id, name, step, failed_step)
           values ($1, $2, 'scope-batch', $3, '1', $3, $3, $3, 'failed', 'importing')`,
          [seller.id, shopId, `reupload-${shopId}`],
        );
      }
    });
    const idOf = async (table: string, shopId: number) => (await t.database.query<{ id: number }>(`select id from ${table} where shop_id = $1 order by id limit 1`, [shopId]))[0]!.id;

    it("lists, follows, retries and deletes only that shop's copies", async () => {
      const names = async (session: Session) => (await get<{ list: { name: string }[] }>('/api/history/list?rows=100', session)).body.data.list.map((row) => row.name);
      expect(await names(op)).toEqual([`copy-${shop1001}`]);
      expect(await names(seller)).toEqual([`copy-${shop1002}`, `copy-${shop1001}`]);
      const foreign = await idOf('copy_records', shop1002);
      expect((await post<{ list: unknown[] }>('/api/history/status', { ids: [foreign] }, op)).body.data.list).toEqual([]);
      expect((await post('/api/history/retry', { ids: [foreign] }, op)).status).toBe(400);
      expect((await post<{ count: number }>('/api/history/delete', { ids: [foreign] }, op)).body.data.count).toBe(0);
      expect((await post<{ count: number }>('/api/history/deleteAll', {}, op)).body.data.count).toBe(1);
      expect(await names(seller)).toEqual([`copy-${shop1002}`]);
      // Copying into the other shop is refused before anything is sent.
      expect((await post('/api/CopyProduct', { shopIds: [shop1002], currency: 'CNY', items: [{ sku: 1, price: '10' }] }, op)).status).toBe(401);
    });

    it("lists and deletes only that shop's collection uploads, and uploads into no other shop", async () => {
      const names = async (session: Session) => (await get<{ list: { name: string }[] }>('/api/upload/list?rows=100', session)).body.data.list.map((row) => row.name);
      expect(await names(op)).toEqual([`upload-${shop1001}`]);
      expect(await names(seller)).toEqual([`upload-${shop1002}`, `upload-${shop1001}`]);
      expect((await post<{ count: number }>('/api/upload/delete', { ids: [await idOf('collection_uploads', shop1002)] }, op)).body.data.count).toBe(0);
      expect(await names(seller)).toHaveLength(2);
      const refused = await post('/api/collection/upload', { ids: [1], shopIds: [shop1002], rule: { currency: 'CNY', markup: '1', shipping: '0', fixed: '0', rounding: 'cent' } }, op);
      expect(refused.status).toBe(401);
      expect(refused.body.msg).toBe(MESSAGES.unauthorized.zh);
    });

    it("reads, retries and lists only that shop's re-uploads", async () => {
      const status = await post<{ items: { name: string }[] }>('/api/product/reUpload/status', { batchId: 'scope-batch' }, op);
      expect(status.body.data.items.map((item) => item.name)).toEqual([`reupload-${shop1001}`]);
      const history = await get<{ list: { name: string }[]; total: number; openBatches: unknown[] }>('/api/product/reUpload/history?rows=100', op);
      expect(history.body.data).toMatchObject({ total: 1, list: [{ name: `reupload-${shop1001}` }] });
      expect((await get<{ total: number }>('/api/product/reUpload/history?rows=100')).body.data.total).toBe(2);
      const retried = await post('/api/product/reUpload/retry', { batchId: 'scope-batch', ids: [await idOf('reupload_items', shop1002)] }, op);
      expect(retried.status).toBe(400);
      expect(retried.body.msg).toBe(MESSAGES.reuploadNotRetryable.zh);
      // Another shop's product is refused with the missing ones; nothing of it is started.
      const [product] = await t.database.query<{ id: string }>(`select id from products where shop_id = $1 and not deleted limit 1`, [shop1002]);
      const started = await post<{ items: unknown[]; refused: { id: string }[] }>('/api/product/reUpload', { batchId: 'scope-new', ids: [product!.id] }, op);
      expect(started.body.data).toMatchObject({ items: [], refused: [{ id: product!.id }] });
      expect(await t.database.query(`select id from reupload_items where batch_id = 'scope-new'`)).toEqual([]);
    });

    it("neither deletes nor changes the other shop", async () => {
      for (const [url, body] of [
        ['/api/store/delete', { id: shop1002 }],
        ['/api/store/multiDelete', { ids: [shop1001, shop1002] }],
        ['/api/store/update', { id: shop1002, name: 'taken' }],
        ['/api/store/apply', { id: shop1002 }],
      ] as const) {
        const refused = await post(url, body, op);
        expect(refused.status, url).toBe(401);
        expect(refused.body.msg).toBe(MESSAGES.unauthorized.zh);
      }
      expect((await get<Store[]>('/api/store/list')).body.data.map((shop) => [shop.id, shop.name])).toEqual([
        [shop1001, '义乌小百货'],
        [shop1002, '莫斯科仓'],
      ]);
    });

    it('creates no product in the other shop', async () => {
      // Creating a card is the administrator's (AREA_ROLES.create), which no member holds; the shop is refused too.
      const refused = await post('/api/CreateProduct', { shopId: shop1002, card: {} }, op);
      expect(refused.status).toBe(401);
      expect((await post('/api/create/template', { shopId: shop1002, product: 'x' }, op)).status).toBe(401);
    });
  });

  describe('kept to their own records', () => {
    let entryRole: number;
    let clerkA: Session;
    let clerkB: Session;
    const addMember = async (username: string, role: number) => {
      const [row] = await t.database.db
        .insert(users)
        .values({ username, passwordHash: await hashPassword(`${username}123`), passwordStamp: newPasswordStamp(), isAp: true, relativeId: seller.id })
        .returning();
      await t.database.db.insert(orgMembers).values({ userId: row!.id, orgId: seller.id, roleId: role });
      return login(t.app, username, `${username}123`);
    };
    beforeAll(async () => {
      const every = (area: string) => PERMISSION_ACTIONS.map((action) => `${area}:${action}`);
      const [role] = await t.database.db
        .insert(orgRoles)
        .values({ orgId: seller.id, name: 'entry', permissions: [...every('orders'), ...every('editImage')], dataScope: 'all', ownRecords: true })
        .returning();
      entryRole = role!.id;
      clerkA = await addMember('clerka', entryRole);
      clerkB = await addMember('clerkb', entryRole);
    });

    const entered = (orderNumber: string, session: Session) =>
      post<{ id: string }>('/api/order/add', { orderNumber, productName: '手机壳', quantity: 1, amount: 9.9, inProcessAt: Date.parse('2025-06-01T10:00:00Z'), sku: '1', trackingNumber: '' }, session);
    const manualNumbers = async (session: Session) =>
      (await get<{ list: { orderNumber: string }[] }>('/api/order/list?rows=500&source=manual', session)).body.data.list.map((row) => row.orderNumber).sort();
    const framedManual = async (session: Session) => {
      const numbers: string[] = [];
      let cursor: string | undefined;
      for (;;) {
        const response = await t.app.inject({ method: 'GET', url: `/api/order/sync?format=binary&limit=5000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, headers: session.headers });
        expect(response.statusCode, response.body).toBe(200);
        const bytes = response.rawPayload;
        const frame = decodeListFrame(ORDER_LIST, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
        for (const row of rowsOfChunk<{ source: string; orderNumber: string; deleted: boolean }>(ORDER_LIST, frame.chunk)) if (row.source === 'manual') numbers.push(row.orderNumber);
        cursor = frame.cursor;
        if (!frame.hasMore) return numbers.sort();
      }
    };

    it("lists, syncs and changes only the orders they entered; another's answers not found", async () => {
      expect((await entered('OWN-owner', seller)).status).toBe(200);
      const mine = await entered('OWN-a', clerkA);
      expect(mine.status).toBe(200);
      const theirs = (await entered('OWN-b', clerkB)).body.data.id;
      expect(await manualNumbers(clerkA)).toEqual(['OWN-a']);
      expect(await manualNumbers(clerkB)).toEqual(['OWN-b']);
      expect(await manualNumbers(seller)).toEqual(['OWN-a', 'OWN-b', 'OWN-owner']);
      expect(await framedManual(clerkA)).toEqual(['OWN-a']);
      const synced = await get<{ rows: { source: string; orderNumber: string }[] }>('/api/order/sync?limit=5000', clerkA);
      expect(synced.body.data.rows.filter((row) => row.source === 'manual').map((row) => row.orderNumber)).toEqual(['OWN-a']);
      // Orders synced from Ozon have no creator: the shop scope alone decides, so all of them stay in view.
      const ozon = async (session: Session) => (await get<{ total: number }>('/api/order/list?rows=1&source=ozon', session)).body.data.total;
      expect(await ozon(clerkA)).toBe(await ozon(seller));

      const read = await get(`/api/order/get?id=${encodeURIComponent(theirs)}`, clerkA);
      expect(read.status).toBe(404);
      expect(read.body.msg).toBe(MESSAGES.orderNotFound.zh);
      expect((await post('/api/order/update', { id: theirs, orderNumber: 'OWN-taken' }, clerkA)).status).toBe(404);
      expect((await post<number>('/api/order/delete', { ids: [theirs] }, clerkA)).body.data).toBe(0);
      expect((await get<{ orderNumber: string; deleted: boolean }>(`/api/order/get?id=${encodeURIComponent(theirs)}`)).body.data).toMatchObject({ orderNumber: 'OWN-b', deleted: false });
      expect((await post('/api/order/update', { id: mine.body.data.id, orderNumber: 'OWN-a2' }, clerkA)).status).toBe(200);
      expect((await post<number>('/api/order/delete', { ids: [mine.body.data.id] }, clerkA)).body.data).toBe(1);

      // Without the flag the role's members see everyone's again, on the next call.
      await t.database.db.update(orgRoles).set({ ownRecords: false }).where(eq(orgRoles.id, entryRole));
      expect(await manualNumbers(clerkA)).toEqual(['OWN-b', 'OWN-owner']);
      await t.database.db.update(orgRoles).set({ ownRecords: true }).where(eq(orgRoles.id, entryRole));
    });

    it("opens, saves and deletes only their own designs and uploads", async () => {
      const json = JSON.stringify({ version: '6.9.1', objects: [] });
      const save = (name: string, session: Session, id?: number) => post<{ id: number }>('/api/edit/design/save', { ...(id ? { id } : {}), name, width: 800, height: 800, json }, session);
      const designs = async (session: Session) => (await get<{ list: { name: string }[] }>('/api/edit/designs', session)).body.data.list.map((d) => d.name).sort();
      const mine = (await save('design-a', clerkA)).body.data.id;
      const theirs = (await save('design-b', clerkB)).body.data.id;
      await save('design-owner', seller);
      expect(await designs(clerkA)).toEqual(['design-a']);
      expect(await designs(seller)).toEqual(['design-a', 'design-b', 'design-owner']);
      const read = await get(`/api/edit/design?id=${theirs}`, clerkA);
      expect(read.status).toBe(404);
      expect(read.body.msg).toBe(EDIT_MESSAGES.designNotFound.zh);
      expect((await save('design-taken', clerkA, theirs)).status).toBe(404);
      expect((await post('/api/edit/design/delete', { id: theirs }, clerkA)).status).toBe(404);
      expect((await get<{ name: string }>(`/api/edit/design?id=${theirs}`, clerkB)).body.data.name).toBe('design-b');
      expect((await save('design-a2', clerkA, mine)).status).toBe(200);
      expect((await post('/api/edit/design/delete', { id: mine }, clerkA)).status).toBe(200);

      const picture = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#e4393c' } }).png().toBuffer();
      const upload = async (name: string, session: Session) => {
        const { payload, contentType } = multipart({}, { name, bytes: picture, type: 'image/png' });
        const response = await t.app.inject({ method: 'POST', url: '/api/edit/upload', headers: { ...session.headers, 'content-type': contentType }, payload });
        expect(response.statusCode, response.body).toBe(200);
        return response.json<{ data: { id: number } }>().data.id;
      };
      const images = async (session: Session) => (await get<{ list: { name: string }[] }>('/api/edit/images', session)).body.data.list.map((i) => i.name).sort();
      const ownImage = await upload('a.png', clerkA);
      const theirImage = await upload('b.png', clerkB);
      expect(await images(clerkA)).toEqual(['a.png']);
      expect(await images(seller)).toEqual(['a.png', 'b.png']);
      const opened = await get(`/api/edit/image/${theirImage}`, clerkA);
      expect(opened.status).toBe(404);
      expect(opened.body.msg).toBe(EDIT_MESSAGES.imageNotFound.zh);
      expect((await post('/api/edit/image/publish', { id: theirImage }, clerkA)).status).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: `/api/edit/image/${ownImage}`, headers: clerkA.headers })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: `/api/edit/image/${theirImage}`, headers: seller.headers })).statusCode).toBe(200);
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
