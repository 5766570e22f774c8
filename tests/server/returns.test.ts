import { decodeListFrame, rowsOfChunk } from '../../contract/listFrame';
import type { PushMessage } from '../../contract/push';
import { RETURN_FRAME_TYPE, RETURN_LIST, returnRowSchema, type ReturnDetail, type ReturnListPage, type ReturnRow } from '../../contract/returns';
import type { Store } from '../../contract/store';
import type { OrderListPage } from '../../contract/orders';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from './harness';

describe.each(DATABASE_TARGETS)('returns on $kind', (target) => {
  let t: TestApp;
  let seller: Session;
  let storeId: number;
  const pushed: PushMessage[] = [];

  beforeAll(async () => {
    t = await startTestApp(target, {
      app: { marketplace: { simulatorOptions: { ordersPerShop: 1_500, productsPerShop: 40 } } },
    });
    await t.app.ready();
    seller = await login(t.app, 'seller', 'seller123');
    const toAccount = t.app.push.toAccount;
    t.app.push.toAccount = (accountId, message) => {
      if (accountId === seller.id) pushed.push(message);
      return toAccount(accountId, message);
    };
    const added = await post<Store>('/api/store/add', { name: '义乌小百货', clientId: '1001', apiKey: 'sim-key-1001' });
    storeId = added.body.data.id;
    await t.app.sync.runShop(storeId, ['warehouses', 'postings', 'returns']);
  });
  afterAll(() => t.close());

  const get = <T>(url: string, session: Session = seller) =>
    t.app.inject({ method: 'GET', url, headers: session.headers }).then((r) => ({ status: r.statusCode, body: r.json<{ data: T; msg: string }>(), raw: r }));
  const post = <T>(url: string, payload: unknown, session: Session = seller) =>
    t.app.inject({ method: 'POST', url, headers: session.headers, payload: payload as object }).then((r) => ({ status: r.statusCode, body: r.json<{ data: T; msg: string }>(), raw: r }));

  const newRfbs = async () => {
    const page = await get<ReturnListPage>('/api/ozonReturnNew/list?schemes=rFBS&statuses=OnSellerApproval&rows=500');
    expect(page.body.data.list.length).toBeGreaterThan(0);
    return page.body.data.list;
  };

  it('answers 401 to users whose roles do not reach returns', async () => {
    for (const [name, password] of [['analyst', 'analyst123'], ['newbie', 'newbie123']] as const) {
      const other = await login(t.app, name, password);
      expect((await get('/api/ozonReturn/list', other)).status).toBe(401);
      expect((await get('/api/ozonReturnNew/list', other)).status).toBe(401);
      expect((await get('/api/return/sync', other)).status).toBe(401);
      expect((await get('/api/return/get?id=x', other)).status).toBe(401);
      expect((await post('/api/return/rfbs/action', { id: 'x', action: 'receive' }, other)).status).toBe(401);
    }
  });

  it('lists the synced FBS and FBO returns on /ozonReturn/list and every scheme on /ozonReturnNew/list', async () => {
    const old = await get<ReturnListPage>('/api/ozonReturn/list?rows=500');
    expect(old.status).toBe(200);
    const schemes = new Set(old.body.data.list.map((r) => r.scheme));
    expect(schemes).toEqual(new Set(['FBS', 'FBO']));
    for (const row of old.body.data.list.slice(0, 20)) expect(returnRowSchema.safeParse(row).success).toBe(true);
    const all = await get<ReturnListPage>('/api/ozonReturnNew/list?rows=1');
    const rfbs = await get<ReturnListPage>('/api/ozonReturnNew/list?rows=1&schemes=rFBS');
    expect(rfbs.body.data.total).toBeGreaterThan(0);
    expect(all.body.data.total).toBe(old.body.data.total + rfbs.body.data.total);
    // Newest first.
    const times = old.body.data.list.map((r) => r.returnedAt);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('filters by reason and searches by posting number, SKU and return id', async () => {
    const { list } = (await get<ReturnListPage>('/api/ozonReturn/list?rows=500')).body.data;
    const reason = list[0]!.reason;
    const byReason = await get<ReturnListPage>(`/api/ozonReturn/list?rows=500&reasons=${encodeURIComponent(reason)}`);
    expect(byReason.body.data.list.length).toBeGreaterThan(0);
    expect(byReason.body.data.list.every((r) => r.reason === reason)).toBe(true);
    const one = list[3]!;
    for (const needle of [one.postingNumber, one.returnId]) {
      const found = await get<ReturnListPage>(`/api/ozonReturn/list?search=${encodeURIComponent(needle)}`);
      expect(found.body.data.list.map((r) => r.id)).toContain(one.id);
    }
    const bySku = await get<ReturnListPage>(`/api/ozonReturn/list?rows=500&search=${one.sku}`);
    expect(bySku.body.data.list.every((r) => r.sku.includes(one.sku) || r.postingNumber.includes(one.sku) || r.offerId.includes(one.sku) || r.returnId.includes(one.sku) || r.orderNumber.includes(one.sku) || r.productName.includes(one.sku))).toBe(true);
  });

  it("serves the browser cache's binary sync of every return", async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/return/sync?limit=100000', headers: seller.headers });
    expect(first.headers['content-type']).toContain(RETURN_FRAME_TYPE);
    const body = first.rawPayload;
    const frame = decodeListFrame(RETURN_LIST, body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer);
    const rows = rowsOfChunk<ReturnRow>(RETURN_LIST, frame.chunk);
    const total = (await get<ReturnListPage>('/api/ozonReturnNew/list?rows=1')).body.data.total;
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((r) => r.scheme))).toEqual(new Set(['FBS', 'FBO', 'rFBS']));
  });

  it("links a return to its order and a posting's returns back (the order drawer's call)", async () => {
    const fbs = (await get<ReturnListPage>('/api/ozonReturn/list?schemes=FBS&rows=1')).body.data.list[0]!;
    const detail = await get<ReturnDetail>(`/api/return/get?id=${encodeURIComponent(fbs.id)}`);
    expect(detail.body.data.orderRowId).toBeTruthy();
    const order = await get<OrderListPage>(`/api/order/list?search=${fbs.postingNumber}`);
    expect(order.body.data.list.map((o) => o.id)).toContain(detail.body.data.orderRowId);
    const back = await get<ReturnListPage>(`/api/ozonReturnNew/list?postingNumber=${fbs.postingNumber}&shopIds=${storeId}`);
    expect(back.body.data.list.map((r) => r.id)).toEqual([fbs.id]);
    // An FBO return's posting is not one of the shop's FBS orders.
    const fbo = (await get<ReturnListPage>('/api/ozonReturn/list?schemes=FBO&rows=1')).body.data.list[0]!;
    expect((await get<ReturnDetail>(`/api/return/get?id=${encodeURIComponent(fbo.id)}`)).body.data.orderRowId).toBeNull();
    expect((await get('/api/return/get?id=nope')).status).toBe(404);
  });

  it('takes an rFBS request from requested to money returned, each step shown in the list and pushed', async () => {
    const [request] = await newRfbs();
    expect(request!.actions.split(',')).toEqual(['verify', 'reject', 'compensate', 'returnMoney']);
    const detail = (await get<ReturnDetail>(`/api/return/get?id=${encodeURIComponent(request!.id)}`)).body.data;
    expect(detail.rejectionReasons.length).toBeGreaterThan(0);
    expect(detail.row.reason).toBeTruthy();

    // Receiving is refused before verifying: the state does not allow it, and Ozon is not asked.
    const early = await post('/api/return/rfbs/action', { id: request!.id, action: 'receive' });
    expect(early.status).toBe(400);

    pushed.length = 0;
    const verified = await post<ReturnDetail>('/api/return/rfbs/action', { id: request!.id, action: 'verify', returnMethod: 'Почта России' });
    expect(verified.status).toBe(200);
    expect(verified.body.data.row).toMatchObject({ status: 'Approved', actions: 'receive' });
    expect(pushed).toContainEqual({ type: 'returns.changed', shopId: storeId });

    const received = await post<ReturnDetail>('/api/return/rfbs/action', { id: request!.id, action: 'receive' });
    expect(received.body.data.row).toMatchObject({ status: 'ReceivedBySeller', actions: 'reject,compensate,returnMoney' });
    const paid = await post<ReturnDetail>('/api/return/rfbs/action', { id: request!.id, action: 'returnMoney' });
    expect(paid.body.data.row).toMatchObject({ status: 'MoneyReturned', actions: '' });
    expect(paid.body.data.moneyReturnState).toBeTruthy();
    expect(paid.body.data.row.changedAt).toBeGreaterThan(request!.changedAt);
    const listed = await get<ReturnListPage>(`/api/ozonReturnNew/list?search=${request!.returnId}`);
    expect(listed.body.data.list[0]).toMatchObject({ id: request!.id, status: 'MoneyReturned' });
  });

  it('rejects with one of the request reasons and a comment where the reason asks for one; compensates below the price', async () => {
    const [first, second] = await newRfbs();
    const { rejectionReasons } = (await get<ReturnDetail>(`/api/return/get?id=${encodeURIComponent(first!.id)}`)).body.data;
    const needsComment = rejectionReasons.find((r) => r.commentRequired)!;
    const unknown = await post('/api/return/rfbs/action', { id: first!.id, action: 'reject', reasonId: 4242 });
    expect(unknown.status).toBe(400);
    const bare = await post<{ field: string }>('/api/return/rfbs/action', { id: first!.id, action: 'reject', reasonId: needsComment.id });
    expect(bare.status).toBe(400);
    expect(bare.body.data.field).toBe('comment');
    const rejected = await post<ReturnDetail>('/api/return/rfbs/action', { id: first!.id, action: 'reject', reasonId: needsComment.id, comment: '有使用痕迹' });
    expect(rejected.body.data.row.status).toBe('Rejected');
    expect(rejected.body.data.rejectionComment).toBe('有使用痕迹');

    const tooMuch = await post<{ field: string }>('/api/return/rfbs/action', { id: second!.id, action: 'compensate', amount: second!.amount });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.data.field).toBe('amount');
    const compensated = await post<ReturnDetail>('/api/return/rfbs/action', { id: second!.id, action: 'compensate', amount: Math.round(second!.amount * 30) / 100 });
    expect(compensated.body.data.row.status).toBe('PartialCompensationReturned');
  });

  it("refuses actions on FBS returns and on another seller's returns", async () => {
    const fbs = (await get<ReturnListPage>('/api/ozonReturn/list?schemes=FBS&rows=1')).body.data.list[0]!;
    expect((await post('/api/return/rfbs/action', { id: fbs.id, action: 'verify' })).status).toBe(400);
    const request = (await get<ReturnListPage>('/api/ozonReturnNew/list?schemes=rFBS&rows=1')).body.data.list[0];
    const admin = await login(t.app, 'admin', 'admin123');
    expect((await get(`/api/return/get?id=${encodeURIComponent(request!.id)}`, admin)).status).toBe(404);
    expect((await post('/api/return/rfbs/action', { id: request!.id, action: 'verify' }, admin)).status).toBe(404);
    expect((await get<ReturnListPage>('/api/ozonReturnNew/list', admin)).body.data.total).toBe(0);
  });

  it('keeps returns after a re-sync and tombstones them when the shop is deleted', async () => {
    const before = (await get<ReturnListPage>('/api/ozonReturnNew/list?rows=1')).body.data.total;
    pushed.length = 0;
    await t.app.sync.runShop(storeId, ['returns']);
    expect((await get<ReturnListPage>('/api/ozonReturnNew/list?rows=1')).body.data.total).toBe(before);
    expect(pushed.filter((m) => m.type === 'returns.changed')).toEqual([]);
    await post('/api/store/delete', { id: storeId });
    expect((await get<ReturnListPage>('/api/ozonReturnNew/list?rows=1')).body.data.total).toBe(0);
    expect(pushed).toContainEqual({ type: 'returns.changed' });
  });
});
