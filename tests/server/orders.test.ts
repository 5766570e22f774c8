import { PDFDocument } from 'pdf-lib';
import { decodeOrderFrame, ORDER_FRAME_TYPE, rowsOfChunk } from '../../contract/orderChunk';
import { orderRowSchema, type OrderListPage, type OrderRow, type OrderSyncChunk, type PostingDetail } from '../../contract/orders';
import type { PushMessage } from '../../contract/push';
import type { Store } from '../../contract/store';
import { LABELS_NOT_READY_FIELD } from '../../contract/orderActions';
import { projectPostings } from '../../server/areas/orders/projection';
import { ALL_DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from './harness';

const MANUAL = {
  orderNumber: 'M-0001',
  productName: '手机壳 Phone case',
  quantity: 2,
  amount: 39.8,
  inProcessAt: Date.parse('2025-06-01T10:00:00Z'),
  sku: '880001',
  trackingNumber: '',
};

function posting(number: string, status: string, products: { sku: number; price: number; quantity: number }[]) {
  return {
    posting_number: number,
    order_id: 77_000_000_001,
    order_number: number.split('-').slice(0, 2).join('-'),
    status,
    in_process_at: '2025-06-02T08:00:00Z',
    shipment_date: '2025-06-04T08:00:00Z',
    tracking_number: null,
    delivery_method: { id: 1, name: 'Ozon Logistics', warehouse_id: 15_000_000_001, warehouse: '义乌仓 Yiwu' },
    products: products.map((p) => ({ sku: p.sku, offer_id: `OF-${p.sku}`, name: `商品 ${p.sku}`, quantity: p.quantity, price: { amount: p.price, currency: 'CNY' } })),
  };
}

describe.each(ALL_DATABASE_TARGETS)('orders on $kind', (target) => {
  let t: TestApp;
  let seller: Session;
  const pushed: PushMessage[] = [];

  beforeAll(async () => {
    t = await startTestApp(target, {
      app: {
        marketplace: {
          simulatorOptions: { ordersPerShop: 120, productsPerShop: 30, control: { labelReadyDelayMs: 0, taskDelayMs: 0, timeoutHangMs: 3_000 } },
          // A lost answer is given up on in a second, not Ozon's thirty.
          clientOptions: { timeoutMs: 1_000 },
        },
      },
    });
    await t.app.ready();
    seller = await login(t.app, 'seller', 'seller123');
    const toAccount = t.app.push.toAccount;
    t.app.push.toAccount = (accountId, message) => {
      if (accountId === seller.id) pushed.push(message);
      return toAccount(accountId, message);
    };
  });
  afterAll(() => t.close());

  const get = <T>(url: string, session: Session = seller) =>
    t.app.inject({ method: 'GET', url, headers: session.headers }).then((r) => ({ status: r.statusCode, body: r.json<{ data: T; msg: string }>(), raw: r }));
  const post = <T>(url: string, payload: unknown, session: Session = seller) =>
    t.app.inject({ method: 'POST', url, headers: session.headers, payload: payload as object }).then((r) => ({ status: r.statusCode, body: r.json<{ data: T; msg: string }>(), raw: r }));

  it('answers 401 to users whose roles do not reach orders', async () => {
    for (const [name, password] of [['analyst', 'analyst123'], ['newbie', 'newbie123']] as const) {
      const other = await login(t.app, name, password);
      expect((await get('/api/order/list', other)).status).toBe(401);
      expect((await get('/api/order/sync', other)).status).toBe(401);
      expect((await post('/api/order/add', MANUAL, other)).status).toBe(401);
    }
  });

  it('enters, edits and deletes orders by hand, validating the form and pushing each change', async () => {
    const invalid = await post('/api/order/add', { ...MANUAL, quantity: 0 });
    expect(invalid.status).toBe(400);
    expect(invalid.raw.json<{ data: { field: string } }>().data.field).toBe('quantity');

    pushed.length = 0;
    const added = await post<OrderRow>('/api/order/add', MANUAL);
    expect(added.status).toBe(200);
    expect(added.body.data).toMatchObject({ source: 'manual', orderNumber: 'M-0001', amount: 39.8, status: 'awaiting_packaging', deleted: false });
    expect(orderRowSchema.safeParse(added.body.data).success).toBe(true);
    expect(pushed).toContainEqual({ type: 'orders.changed' });

    const updated = await post<OrderRow>('/api/order/update', { id: added.body.data.id, trackingNumber: 'LP00123456789CN', amount: 45 });
    expect(updated.body.data).toMatchObject({ trackingNumber: 'LP00123456789CN', amount: 45, productName: MANUAL.productName });

    const fetched = await get<OrderRow>(`/api/order/get?id=${encodeURIComponent(added.body.data.id)}`);
    expect(fetched.body.data.trackingNumber).toBe('LP00123456789CN');

    const searched = await get<OrderListPage>('/api/order/list?source=manual&search=lp00123');
    expect(searched.body.data.total).toBe(1);

    const deleted = await post<number>('/api/order/delete', { ids: [added.body.data.id] });
    expect(deleted.body.data).toBe(1);
    expect((await get(`/api/order/get?id=${encodeURIComponent(added.body.data.id)}`)).status).toBe(404);
  });

  it('projects synced postings into one row per product, bumping only rows whose data changed', async () => {
    const [shop] = await t.database.query<{ id: number }>(
      `insert into mp_shops (user_id, name, client_id, api_key_enc) values ($1, '测试店 Test', '9901', 'x') returning id`,
      [seller.id],
    );
    const store = async (records: ReturnType<typeof posting>[]) => {
      for (const record of records) {
        await t.database.query(
          `insert into mp_records (shop_id, entity, external_id, data) values ($1, 'postings', $2, $3::jsonb)
           on conflict (shop_id, entity, external_id) do update set data = excluded.data, synced_at = now()`,
          [shop!.id, record.posting_number, JSON.stringify(record)],
        );
      }
    };
    await store([posting('9901-0001-1', 'awaiting_packaging', [{ sku: 1, price: 10, quantity: 3 }, { sku: 2, price: 5.5, quantity: 1 }]), posting('9901-0002-1', 'delivered', [{ sku: 3, price: 100, quantity: 1 }])]);
    expect((await projectPostings(t.database, shop!.id, { since: null })).changed).toBe(3);
    const rows = await t.database.query<{ id: string; amount: string; updated_at: Date }>(`select id, amount, updated_at from orders where shop_id = $1 order by id`, [shop!.id]);
    expect(rows.map((r) => [r.id, Number(r.amount)])).toEqual([
      [`${shop!.id}:9901-0001-1:1`, 30],
      [`${shop!.id}:9901-0001-1:2`, 5.5],
      [`${shop!.id}:9901-0002-1:3`, 100],
    ]);

    // The same postings again: nothing changes, nothing is sent to the browsers.
    await store([posting('9901-0001-1', 'awaiting_packaging', [{ sku: 1, price: 10, quantity: 3 }, { sku: 2, price: 5.5, quantity: 1 }])]);
    expect(await projectPostings(t.database, shop!.id, { since: null })).toEqual({ changed: 0, userId: null });

    await store([posting('9901-0002-1', 'cancelled', [{ sku: 3, price: 100, quantity: 1 }])]);
    expect(await projectPostings(t.database, shop!.id, { since: null })).toEqual({ changed: 1, userId: seller.id });
    const after = await t.database.query<{ id: string; status: string; updated_at: Date }>(`select id, status, updated_at from orders where shop_id = $1 order by id`, [shop!.id]);
    expect(after.map((r) => r.status)).toEqual(['awaiting_packaging', 'awaiting_packaging', 'cancelled']);
    expect(after[0]!.updated_at.getTime()).toBe(rows[0]!.updated_at.getTime());
    expect(after[2]!.updated_at.getTime()).toBeGreaterThan(rows[2]!.updated_at.getTime());
  });

  it('deleting a shop turns its orders into tombstones and tells open lists', async () => {
    const [shop] = await t.database.query<{ id: number }>(
      `insert into mp_shops (user_id, name, client_id, api_key_enc) values ($1, '待删店 Gone', '9902', 'x') returning id`,
      [seller.id],
    );
    const record = posting('9902-0001-1', 'awaiting_packaging', [{ sku: 9, price: 20, quantity: 1 }]);
    await t.database.query(`insert into mp_records (shop_id, entity, external_id, data) values ($1, 'postings', $2, $3::jsonb)`, [
      shop!.id,
      record.posting_number,
      JSON.stringify(record),
    ]);
    await projectPostings(t.database, shop!.id, { since: null });
    pushed.length = 0;

    expect((await post('/api/store/delete', { id: shop!.id })).status).toBe(200);
    const rows = await t.database.query<{ deleted: boolean }>(`select deleted from orders where shop_id = $1`, [shop!.id]);
    expect(rows).toEqual([{ deleted: true }]);
    expect(pushed).toContainEqual({ type: 'orders.changed' });
  });

  it('hands the browser every change since its cursor, in chunks, with tombstones', async () => {
    for (let i = 0; i < 7; i++) await post('/api/order/add', { ...MANUAL, orderNumber: `S-${i}` });
    const seen = new Map<string, OrderRow>();
    let cursor: string | undefined;
    let calls = 0;
    for (;;) {
      const response = await t.app.inject({ method: 'GET', url: `/api/order/sync?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, headers: seller.headers });
      expect(response.statusCode).toBe(200);
      const chunk = response.json<{ data: OrderSyncChunk }>().data;
      calls++;
      expect(chunk.rows.length).toBeLessThanOrEqual(4);
      for (const row of chunk.rows) {
        expect(orderRowSchema.safeParse(row).success).toBe(true);
        seen.set(row.id, row);
      }
      cursor = chunk.cursor;
      if (!chunk.hasMore) break;
    }
    expect(calls).toBeGreaterThan(2);
    const [{ count }] = (await t.database.query<{ count: string }>(`select count(*) from orders where user_id = $1`, [seller.id])) as [{ count: string }];
    expect(seen.size).toBe(Number(count));

    const live = [...seen.values()].find((row) => row.source === 'manual' && !row.deleted)!;
    await post('/api/order/delete', { ids: [live.id] });
    const next = await t.app.inject({ method: 'GET', url: `/api/order/sync?cursor=${encodeURIComponent(cursor!)}`, headers: seller.headers });
    const tombstone = next.json<{ data: OrderSyncChunk }>().data.rows.find((row) => row.id === live.id);
    expect(tombstone).toMatchObject({ id: live.id, deleted: true });

    expect((await get('/api/order/sync?cursor=nonsense')).status).toBe(400);
  });

  it('answers the same changes as binary frames with format=binary, with the same cursors and tombstones', async () => {
    const fetchAll = async (format: 'rows' | 'binary') => {
      const chunks: { rows: OrderRow[]; cursor: string; hasMore: boolean }[] = [];
      let cursor: string | undefined;
      for (;;) {
        const url = `/api/order/sync?limit=3&format=${format}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const response = await t.app.inject({ method: 'GET', url, headers: seller.headers });
        expect(response.statusCode).toBe(200);
        if (format === 'rows') {
          chunks.push(response.json<{ data: OrderSyncChunk }>().data);
        } else {
          expect(response.headers['content-type']).toBe(ORDER_FRAME_TYPE);
          const frame = decodeOrderFrame(new Uint8Array(response.rawPayload).buffer);
          chunks.push({ rows: rowsOfChunk(frame.chunk), cursor: frame.cursor, hasMore: frame.hasMore });
        }
        cursor = chunks.at(-1)!.cursor;
        if (!chunks.at(-1)!.hasMore) return chunks;
      }
    };
    const byRows = await fetchAll('rows');
    const byFrames = await fetchAll('binary');
    expect(byRows.length).toBeGreaterThan(2);
    expect(byRows.some((chunk) => chunk.rows.some((row) => row.deleted))).toBe(true);
    expect(byFrames).toEqual(byRows);
    // Nothing changed since the last cursor: an empty frame.
    const last = await t.app.inject({
      method: 'GET',
      url: `/api/order/sync?format=binary&cursor=${encodeURIComponent('99999999999999999:')}`,
      headers: seller.headers,
    });
    expect(decodeOrderFrame(new Uint8Array(last.rawPayload).buffer).chunk.n).toBe(0);
    // A bad cursor is refused in the envelope, as for rows: not a cursor, a time no timestamp holds, a NUL in the id.
    for (const cursor of ['nonsense', '99999999999999999999:', '-99999999999999999999:', '0:a\u0000b']) {
      const refused = await t.app.inject({ method: 'GET', url: `/api/order/sync?format=binary&cursor=${encodeURIComponent(cursor)}`, headers: seller.headers });
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ code: number }>().code).toBe(400);
    }
    // The cursor's id is written into the copy's select as a quoted literal: quotes and backslashes stay data.
    const all = byRows.flatMap((chunk) => chunk.rows).length;
    for (const id of ["x' or true) --", "\\' union select 1 --", '\\']) {
      const url = `/api/order/sync?format=binary&limit=50000&cursor=${encodeURIComponent(`0:${id}`)}`;
      const response = await t.app.inject({ method: 'GET', url, headers: seller.headers });
      expect(response.statusCode).toBe(200);
      expect(decodeOrderFrame(new Uint8Array(response.rawPayload).buffer).chunk.n).toBe(all);
    }
  });

  it('builds the next binary frame ahead, says how many rows are left on a sync\'s third frame, and loses no change made meanwhile', async () => {
    const frameAt = async (cursor: string | undefined, limit = 2) => {
      const url = `/api/order/sync?limit=${limit}&format=binary${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const response = await t.app.inject({ method: 'GET', url, headers: seller.headers });
      expect(response.statusCode).toBe(200);
      return decodeOrderFrame(new Uint8Array(response.rawPayload).buffer);
    };
    const [{ n: total }] = (await t.database.query<{ n: string }>('select count(*) as n from orders where user_id = $1', [seller.id])) as [{ n: string }];
    const first = await frameAt(undefined);
    const second = await frameAt(first.cursor);
    // A row changes after the third frame was built ahead: it still comes, in a later frame, as it is now.
    const [{ id }] = (await t.database.query<{ id: string }>(
      `update orders set tracking_number = 'CHANGED-MEANWHILE', updated_at = clock_timestamp()
       where id = (select id from orders where user_id = $1 and not deleted order by updated_at, id limit 1) returning id`,
      [seller.id],
    )) as [{ id: string }];
    const third = await frameAt(second.cursor);
    expect([first.remaining, second.remaining]).toEqual([undefined, undefined]);
    expect(third.remaining).toBe(Number(total) - first.chunk.n - second.chunk.n);
    const later: OrderRow[] = [];
    for (let cursor = third.cursor, more = third.hasMore; more; ) {
      const frame = await frameAt(cursor);
      later.push(...rowsOfChunk(frame.chunk));
      [cursor, more] = [frame.cursor, frame.hasMore];
    }
    expect(later.filter((row) => row.id === id).at(-1)).toMatchObject({ trackingNumber: 'CHANGED-MEANWHILE' });
    // A frame built ahead serves only its own cursor and limit: another limit reads afresh, the same rows.
    const again = await frameAt(first.cursor, 3);
    expect(rowsOfChunk(again.chunk).slice(0, 2)).toEqual(rowsOfChunk(second.chunk));
  });

  it('builds the frame ahead at the size the browser says it asks for next (a small first frame, then larger ones)', async () => {
    const frameAt = async (cursor: string | undefined, limit: number, next?: number) => {
      const url = `/api/order/sync?limit=${limit}&format=binary${next ? `&next=${next}` : ''}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const response = await t.app.inject({ method: 'GET', url, headers: seller.headers });
      expect(response.statusCode).toBe(200);
      return decodeOrderFrame(new Uint8Array(response.rawPayload).buffer);
    };
    const [{ n: total }] = (await t.database.query<{ n: string }>('select count(*) as n from orders where user_id = $1', [seller.id])) as [{ n: string }];
    const first = await frameAt(undefined, 2, 3);
    // After a small first frame the next is built when asked for (not ahead, while the browser shows the first
    // rows): a row of it edited in place meanwhile (its change time kept, so its place in the sync stays) comes as
    // it is now.
    const [{ id }] = (await t.database.query<{ id: string }>(
      `update orders set tracking_number = 'EDITED-IN-PLACE'
       where id = (select id from orders where user_id = $1 order by updated_at, id offset 2 limit 1) returning id`,
      [seller.id],
    )) as [{ id: string }];
    const second = await frameAt(first.cursor, 3, 3);
    expect(rowsOfChunk(second.chunk).find((row) => row.id === id)).toMatchObject({ trackingNumber: 'EDITED-IN-PLACE' });
    const third = await frameAt(second.cursor, 3, 3);
    expect([first.chunk.n, second.chunk.n, third.chunk.n]).toEqual([2, 3, 3]);
    // The second frame was the one expected (a frame not expected starts a sync's count again): the third, built
    // ahead after it, says how many rows are left from its own first row on.
    expect(third.remaining).toBe(Number(total) - 2 - 3);
    // A `next` out of range is refused like a bad limit.
    const refused = await t.app.inject({ method: 'GET', url: '/api/order/sync?format=binary&next=0', headers: seller.headers });
    expect(refused.statusCode).toBe(400);
  });

  it('keeps a binary chunk readable when a value holds the frame separator (a unique-string column gets a space)', async () => {
    const [{ id }] = (await t.database.query<{ id: string }>(
      `update orders set product_name = 'A' || chr(31) || 'B', tracking_number = chr(31), updated_at = clock_timestamp()
       where id = (select id from orders where user_id = $1 and not deleted order by id limit 1) returning id`,
      [seller.id],
    )) as [{ id: string }];
    const rows: OrderRow[] = [];
    let cursor: string | undefined;
    for (;;) {
      const url = `/api/order/sync?limit=50000&format=binary${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const frame = decodeOrderFrame(new Uint8Array((await t.app.inject({ method: 'GET', url, headers: seller.headers })).rawPayload).buffer);
      rows.push(...rowsOfChunk(frame.chunk));
      cursor = frame.cursor;
      if (!frame.hasMore) break;
    }
    expect(rows.find((row) => row.id === id)).toMatchObject({ productName: 'A\u001fB', trackingNumber: ' ' });
  });

  it('filters and pages the list on the server', async () => {
    const page = await get<OrderListPage>('/api/order/list?source=manual&rows=3&page=2&sort=amount&direction=asc');
    expect(page.status).toBe(200);
    expect(page.body.data.list).toHaveLength(3);
    const amounts = await get<OrderListPage>('/api/order/list?amountFrom=50&amountTo=1000');
    expect(amounts.body.data.list.every((row) => row.amount >= 50 && row.amount <= 1000)).toBe(true);
    const statuses = await get<OrderListPage>('/api/order/list?statuses=cancelled');
    expect(statuses.body.data.list.map((row) => row.status)).toEqual(['cancelled']);
  });

  it("the whole list's total follows every change: added, deleted, synced, tombstoned and hard-deleted orders", async () => {
    const live = async () =>
      Number(((await t.database.query<{ n: string }>('select count(*) as n from orders where user_id = $1 and not deleted', [seller.id])) as [{ n: string }])[0].n);
    const total = async () => (await get<OrderListPage>('/api/order/list?rows=1')).body.data.total;
    expect(await total()).toBe(await live());
    const before = await total();
    const added = (await post<OrderRow>('/api/order/add', { ...MANUAL, orderNumber: 'M-TOTAL' })).body.data;
    await post<OrderRow>('/api/order/add', { ...MANUAL, orderNumber: 'M-TOTAL-2' });
    expect(await total()).toBe(before + 2);
    await post<number>('/api/order/delete', { ids: [added.id] });
    expect(await total()).toBe(before + 1);
    // A synced posting with two lines, then again with a new status (an update, no new rows), then its shop deleted.
    const [shop] = (await t.database.query<{ id: number }>(
      `insert into mp_shops (user_id, name, client_id, api_key_enc) values ($1, '计数店 Count', '9903', 'x') returning id`,
      [seller.id],
    )) as [{ id: number }];
    const sync = async (status: string) => {
      const record = posting('9903-0001-1', status, [{ sku: 31, price: 10, quantity: 1 }, { sku: 32, price: 20, quantity: 1 }]);
      await t.database.query(
        `insert into mp_records (shop_id, entity, external_id, data) values ($1, 'postings', $2, $3::jsonb)
         on conflict (shop_id, entity, external_id) do update set data = excluded.data, synced_at = now()`,
        [shop.id, record.posting_number, JSON.stringify(record)],
      );
      await projectPostings(t.database, shop.id, { since: null });
    };
    await sync('awaiting_packaging');
    expect(await total()).toBe(before + 3);
    await sync('delivering');
    expect(await total()).toBe(before + 3);
    // A list narrowed by shop only (the shop filter, a member's scope) totals that shop's rows, kept by shop as well.
    const shopTotal = async (...ids: number[]) => (await get<OrderListPage>(`/api/order/list?rows=1&shopIds=${ids.join(',')}`)).body.data.total;
    const liveIn = async (id: number) =>
      Number(((await t.database.query<{ n: string }>('select count(*) as n from orders where user_id = $1 and shop_id = $2 and not deleted', [seller.id, id])) as [{ n: string }])[0].n);
    expect(await shopTotal(shop.id)).toBe(2);
    const [other] = (await t.database.query<{ id: number }>(
      `insert into mp_shops (user_id, name, client_id, api_key_enc) values ($1, '计数店二 Count 2', '9904', 'x') returning id`,
      [seller.id],
    )) as [{ id: number }];
    // A row moved to another shop leaves one shop's count for the other's.
    await t.database.query(`update orders set shop_id = $2 where user_id = $1 and shop_id = $3 and sku = '31'`, [seller.id, other.id, shop.id]);
    expect([await shopTotal(shop.id), await shopTotal(other.id), await shopTotal(shop.id, other.id)]).toEqual([1, 1, 2]);
    expect([await liveIn(shop.id), await liveIn(other.id)]).toEqual([1, 1]);
    await t.database.query(`update orders set shop_id = $2 where user_id = $1 and shop_id = $3 and sku = '31'`, [seller.id, shop.id, other.id]);
    expect(await shopTotal(other.id)).toBe(0);
    expect((await post('/api/store/delete', { id: other.id })).status).toBe(200);
    expect((await post('/api/store/delete', { id: shop.id })).status).toBe(200);
    expect(await total()).toBe(before + 1);
    await t.database.query(`delete from orders where user_id = $1 and order_number = 'M-TOTAL-2'`, [seller.id]);
    expect(await total()).toBe(before);
    expect(await total()).toBe(await live());
  });

  it('ships a posting whole when one of its lines is picked (the posting view picks one row per posting)', async () => {
    const lines = [
      (await post<OrderRow>('/api/order/add', { ...MANUAL, orderNumber: 'M-P2', postingNumber: 'M-P2-1' })).body.data,
      (await post<OrderRow>('/api/order/add', { ...MANUAL, orderNumber: 'M-P2', postingNumber: 'M-P2-1', sku: '880002' })).body.data,
    ];
    const shipped = await post<{ done: number }>('/api/shipOrder', { ids: [lines[0]!.id] });
    expect(shipped.body.data.done).toBe(1);
    for (const line of lines) expect((await get<OrderRow>(`/api/order/get?id=${encodeURIComponent(line.id)}`)).body.data.status).toBe('awaiting_deliver');
  });

  describe('with a simulated Ozon shop', () => {
    let storeId: number;
    beforeAll(async () => {
      const added = await post<Store>('/api/store/add', { name: '义乌小百货', clientId: '1001', apiKey: 'sim-key-1001' });
      storeId = added.body.data.id;
      await t.app.sync.runShop(storeId, ['warehouses', 'postings']);
    });

    const shopRows = async (status: string) =>
      (await get<OrderListPage>(`/api/order/list?shopIds=${storeId}&statuses=${status}&rows=500`)).body.data.list;

    it('lists the synced postings and their warehouses', async () => {
      const all = await get<OrderListPage>(`/api/order/list?shopIds=${storeId}&rows=5`);
      expect(all.body.data.total).toBeGreaterThan(50);
      const warehouses = await post<{ storeId: number; shopName: string; name: string }[]>('/api/warehouse/list', { storeId });
      expect(warehouses.body.data.length).toBeGreaterThan(0);
      expect(warehouses.body.data.every((w) => w.storeId === storeId && w.shopName !== '')).toBe(true);
      const unfulfilled = await post<OrderListPage>('/api/posting/fbs/unfulfilled/list', { storeId });
      expect(unfulfilled.body.data.list.every((row) => ['awaiting_packaging', 'awaiting_deliver'].includes(row.status))).toBe(true);
      const live = await post<{ postings: unknown[] }>('/api/v3/posting/fbs/unfulfilled/list', { storeId, limit: 10 });
      expect(live.status).toBe(200);
      expect(Array.isArray(live.body.data.postings)).toBe(true);
    });

    it('ships postings on Ozon and records the new status; refuses what cannot ship', async () => {
      const waiting = await shopRows('awaiting_packaging');
      expect(waiting.length).toBeGreaterThan(0);
      const delivered = (await shopRows('delivered'))[0]!;
      pushed.length = 0;
      const shipped = await post<{ done: number; failures: { postingNumber: string }[] }>('/api/shipOrder', { ids: [waiting[0]!.id, delivered.id] });
      expect(shipped.body.data.done).toBe(1);
      expect(shipped.body.data.failures.map((f) => f.postingNumber)).toEqual([delivered.postingNumber]);
      expect((await get<OrderRow>(`/api/order/get?id=${encodeURIComponent(waiting[0]!.id)}`)).body.data.status).toBe('awaiting_deliver');
      expect(pushed).toContainEqual({ type: 'orders.changed' });
    });

    it('sets tracking numbers on Ozon and prints the labels of several postings as one PDF', async () => {
      const ready = (await shopRows('awaiting_deliver')).slice(0, 2);
      expect(ready.length).toBeGreaterThan(0);
      const tracked = await post<{ done: number }>('/api/addTrackNumber', { items: ready.map((row, i) => ({ id: row.id, trackingNumber: `TRK${i}00001` })) });
      expect(tracked.body.data.done).toBe(new Set(ready.map((r) => r.postingNumber)).size);
      expect((await get<OrderRow>(`/api/order/get?id=${encodeURIComponent(ready[0]!.id)}`)).body.data.trackingNumber).toBe('TRK000001');

      const pdf = await t.app.inject({ method: 'POST', url: '/api/ets/pdf', headers: seller.headers, payload: { ids: ready.map((row) => row.id) } });
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toContain('application/pdf');
      expect(pdf.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    });

    it('sets the tracking numbers of more than 20 postings in batches of at most 20, as Ozon requires', async () => {
      const postings = new Map<string, OrderRow>();
      for (const row of [...(await shopRows('delivered')), ...(await shopRows('delivering'))]) postings.set(row.postingNumber, row);
      const rows = [...postings.values()].slice(0, 25);
      expect(rows).toHaveLength(25);
      const tracked = await post<{ done: number; failures: unknown[] }>('/api/addTrackNumber', { items: rows.map((row, i) => ({ id: row.id, trackingNumber: `BATCH${i}` })) });
      expect(tracked.body.data).toEqual({ done: 25, failures: [] });
      const last = t.app.marketplace.simulator!.shop('1001').areas.postings.postingGet({ posting_number: rows[24]!.postingNumber });
      expect(last.result.tracking_number).toBe('BATCH24');
    });

    /** A posting awaiting packaging, new on Ozon and synced (the small shop's own ones are shipped by the tests). */
    const freshWaiting = async () => {
      const { postingNumber } = t.app.marketplace.simulator!.shop('1001').addPosting();
      await t.app.sync.runShop(storeId, ['postings']);
      return (await shopRows('awaiting_packaging')).filter((row) => row.postingNumber === postingNumber);
    };

    it('a ship whose answer was lost is not sent again: the posting read back shipped counts as done', async () => {
      const [waiting] = await freshWaiting();
      const sim = t.app.marketplace.simulator!;
      const ships = vi.spyOn(sim.shop('1001').areas.postings, 'ship');
      // Ozon ships it, and the answer never arrives.
      sim.fail('lostAnswer', 1, { path: '/v4/posting/fbs/ship' });
      const shipped = await post<{ done: number; failures: unknown[] }>('/api/shipOrder', { ids: [waiting!.id] });
      expect(shipped.body.data).toEqual({ done: 1, failures: [] });
      expect(ships).toHaveBeenCalledTimes(1);
      expect((await get<OrderRow>(`/api/order/get?id=${encodeURIComponent(waiting!.id)}`)).body.data.status).toBe('awaiting_deliver');
      ships.mockRestore();
    });

    it('a posting shipped on Ozon while ours says awaiting packaging: "already shipped" is done, the order updated', async () => {
      const lines = await freshWaiting();
      // Shipped on Ozon's own pages (or by a ship whose answer was lost before): our rows have not heard.
      t.app.marketplace.simulator!.shop('1001').areas.postings.ship({
        posting_number: lines[0]!.postingNumber,
        packages: [{ products: lines.map((row) => ({ product_id: Number(row.sku), quantity: row.quantity })) }],
      });
      const waiting = lines[0];
      const shipped = await post<{ done: number; failures: unknown[] }>('/api/shipOrder', { ids: [waiting!.id] });
      expect(shipped.body.data).toEqual({ done: 1, failures: [] });
      expect((await get<OrderRow>(`/api/order/get?id=${encodeURIComponent(waiting!.id)}`)).body.data.status).toBe('awaiting_deliver');
    });

    it('keeps a shipped posting shipped when the synced postings are projected again', async () => {
      const [waiting] = await freshWaiting();
      expect((await post<{ done: number }>('/api/shipOrder', { ids: [waiting!.id] })).body.data.done).toBe(1);
      // What a sync chunk's hook does: rebuild the rows from the synced copy of every posting.
      await projectPostings(t.database, storeId, { since: null });
      expect((await get<OrderRow>(`/api/order/get?id=${encodeURIComponent(waiting!.id)}`)).body.data.status).toBe('awaiting_deliver');
    });

    it('says why Ozon refuses a label: ship first, or wait a minute after shipping', async () => {
      const control = t.app.marketplace.simulator!.control;
      control.labelReadyDelayMs = 45_000;
      try {
        // A fresh order: the earlier tests shipped the few the small shop had.
        const { postingNumber } = t.app.marketplace.simulator!.shop('1001').addPosting();
        await t.app.sync.runShop(storeId, ['postings']);
        const waiting = (await shopRows('awaiting_packaging')).find((row) => row.postingNumber === postingNumber);
        const unshipped = await post('/api/ets/pdf', { ids: [waiting!.id] });
        expect(unshipped.status).toBe(400);
        expect(unshipped.body.msg).toContain('尚未发货');
        expect(unshipped.body.msg).toContain(waiting!.postingNumber);

        // A large selection names a few postings and counts the rest instead of listing them all.
        const more = Array.from({ length: 6 }, () => t.app.marketplace.simulator!.shop('1001').addPosting().postingNumber);
        await t.app.sync.runShop(storeId, ['postings']);
        // One row of each posting (a posting of several products has a row per product).
        const batch = [
          ...new Map((await shopRows('awaiting_packaging')).filter((row) => [postingNumber, ...more].includes(row.postingNumber)).map((row) => [row.postingNumber, row])).values(),
        ];
        expect(batch).toHaveLength(7);
        const many = await post('/api/ets/pdf', { ids: batch.map((row) => row.id) });
        expect(many.status).toBe(400);
        expect(many.body.msg).toContain('等7个');
        expect(batch.filter((row) => many.body.msg.includes(row.postingNumber))).toHaveLength(5);

        await post('/api/shipOrder', { ids: [waiting!.id] });
        const early = await t.app.inject({ method: 'POST', url: '/api/ets/pdf', headers: { ...seller.headers, 'accept-language': 'en' }, payload: { ids: [waiting!.id] } });
        expect(early.statusCode).toBe(400);
        expect(early.json<{ msg: string }>().msg).toMatch(/try again in a minute.*/);
        // The page's action waits and fetches again on this refusal alone, told apart by its field in any language.
        expect(early.json<{ data: unknown }>().data).toEqual({ field: LABELS_NOT_READY_FIELD });
        expect(unshipped.body.data).toEqual({ field: 'ids' });

        control.labelReadyDelayMs = 0;
        const ready = await t.app.inject({ method: 'POST', url: '/api/ets/pdf', headers: seller.headers, payload: { ids: [waiting!.id] } });
        expect(ready.statusCode).toBe(200);
        expect((await PDFDocument.load(ready.rawPayload)).getPageCount()).toBe(1);
      } finally {
        control.labelReadyDelayMs = 0;
      }
    });

    it("shows a posting's buyer and address when Ozon gives them (rFBS), and Ozon's commission and payout per product", async () => {
      const sim = t.app.marketplace.simulator!.shop('1001');
      const rfbs = sim.warehouses.find((w) => w.isRfbs)!;
      const rows = (await get<OrderListPage>(`/api/order/list?shopIds=${storeId}&rows=500`)).body.data.list;
      const own = rows.find((row) => row.warehouseId === String(rfbs.id))!;
      const byOzon = rows.find((row) => row.warehouseId !== String(rfbs.id))!;

      const delivered = await get<PostingDetail>(`/api/order/posting?id=${encodeURIComponent(own.id)}`);
      expect(delivered.status).toBe(200);
      expect(delivered.body.data.buyer).toEqual({ name: expect.stringMatching(/\S+ \S+/), phone: expect.stringMatching(/^\+7\d{10}$/) });
      expect(delivered.body.data.address).toMatchObject({ country: 'Россия', zipCode: expect.stringMatching(/^\d{6}$/) });
      expect(delivered.body.data.address!.text).toContain(delivered.body.data.address!.city);

      const fbs = await get<PostingDetail>(`/api/order/posting?id=${encodeURIComponent(byOzon.id)}`);
      expect(fbs.body.data.buyer).toBeNull();
      expect(fbs.body.data.address).toBeNull();
      expect(fbs.body.data.destination?.city).toBeTruthy();
      const line = fbs.body.data.products.find((p) => p.sku === byOzon.sku)!;
      expect(line.commissionPercent).toBe(18);
      expect(line.commission! + line.payout!).toBeCloseTo(byOzon.amount, 1);
      expect(fbs.body.data.deliveryMethod).toContain('Ozon');

      const manual = (await post<OrderRow>('/api/order/add', { ...MANUAL, orderNumber: 'M-DETAIL' })).body.data;
      const entered = await get<PostingDetail>(`/api/order/posting?id=${encodeURIComponent(manual.id)}`);
      expect(entered.body.data).toMatchObject({ buyer: null, address: null, products: [] });
      expect((await get(`/api/order/posting?id=nope`)).status).toBe(404);
    });

    it("cancels postings on Ozon with one of Ozon's reasons, posting by posting, and says why one cannot be", async () => {
      const sim = t.app.marketplace.simulator!.shop('1001');
      const fresh = [sim.addPosting().postingNumber, sim.addPosting().postingNumber];
      await t.app.sync.runShop(storeId, ['postings']);
      // One row of each posting (a posting of several products has a row per product).
      const rows = (await shopRows('awaiting_packaging')).filter((row, i, all) => fresh.includes(row.postingNumber) && all.findIndex((r) => r.postingNumber === row.postingNumber) === i);
      const delivered = (await shopRows('delivered'))[0]!;
      expect(rows.length).toBeGreaterThanOrEqual(2);

      // Reasons come for the cancellable postings only; a delivered one is left out.
      const reasons = await post<{ postingNumber: string; reasons: { id: number; title: string }[] }[]>('/api/order/cancelReasons', { ids: [...rows.map((r) => r.id), delivered.id] });
      expect(reasons.status).toBe(200);
      expect(reasons.body.data.map((r) => r.postingNumber).sort()).toEqual([...fresh].sort());
      expect(reasons.body.data[0]!.reasons.map((r) => r.id)).toContain(352);

      // "Other" needs the seller's words.
      const bare = await post('/api/order/cancel', { ids: [rows[0]!.id], reasonId: 402 });
      expect(bare.status).toBe(400);
      expect(bare.raw.json<{ data: { field: string } }>().data.field).toBe('message');

      pushed.length = 0;
      const cancelled = await post<{ done: number; failures: { postingNumber: string; message: string }[] }>('/api/order/cancel', { ids: [rows[0]!.id, delivered.id], reasonId: 352 });
      expect(cancelled.body.data.done).toBe(1);
      expect(cancelled.body.data.failures).toEqual([{ postingNumber: delivered.postingNumber, message: expect.stringContaining('不能取消') }]);
      expect((await get<OrderRow>(`/api/order/get?id=${encodeURIComponent(rows[0]!.id)}`)).body.data.status).toBe('cancelled');
      expect(sim.areas.postings.postingGet({ posting_number: rows[0]!.postingNumber }).result.cancellation).toMatchObject({ cancel_reason_id: 352 });
      expect(pushed).toContainEqual({ type: 'orders.changed' });
      // A sync that projects the postings again keeps it cancelled.
      await projectPostings(t.database, storeId, { since: null });
      expect((await get<OrderRow>(`/api/order/get?id=${encodeURIComponent(rows[0]!.id)}`)).body.data.status).toBe('cancelled');

      const other = await post<{ done: number }>('/api/order/cancel', { ids: [rows[1]!.id], reasonId: 402, message: '买家要求改地址' });
      expect(other.body.data.done).toBe(1);
      const again = await post<{ done: number; failures: { message: string }[] }>('/api/order/cancel', { ids: [rows[1]!.id], reasonId: 352 });
      expect(again.body.data.done).toBe(0);
      expect(again.body.data.failures[0]!.message).toContain('不能取消');
    });

    it('updates stock per warehouse on Ozon', async () => {
      const [row] = await shopRows('awaiting_deliver');
      const [warehouse] = (await post<{ warehouseId: string }[]>('/api/warehouse/list', { storeId })).body.data;
      const result = await post<{ done: number; failures: unknown[] }>('/api/updateStock', { items: [{ storeId, offerId: row!.offerId, warehouseId: warehouse!.warehouseId, stock: 12 }] });
      expect(result.status).toBe(200);
      // The official schema requires product_id beside offer_id; the simulator refuses a stock update without it.
      expect(result.body.data).toEqual({ done: 1, failures: [] });
    });
  });
});
