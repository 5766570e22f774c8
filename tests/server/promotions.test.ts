import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COST_ENDPOINTS, type CostImportAnswer } from '../../contract/costs';
import { routePaths } from '../../contract/endpoint';
import {
  PROMOTION_ENDPOINTS,
  type ActionListAnswer,
  type ActionProductsAnswer,
  type DiscountListAnswer,
  type GuardLogRow,
  type PriceGuard,
  type ProductOutcomes,
  type TaskOutcomes,
} from '../../contract/promotions';
import type { Store } from '../../contract/store';
import type { PriceGuardJob } from '../../server/areas/promotions/guardJob';
import { createOzonSimulator, type OzonSimulator } from '../../server/marketplace/simulator/plugin';
import { DATABASE_TARGETS, firstSyncDone, login, startTestApp, type Session, type TestApp } from './harness';

const P = routePaths(PROMOTION_ENDPOINTS);
const C = routePaths(COST_ENDPOINTS);

function multipartFile(name: string, bytes: Buffer) {
  const boundary = '----costImportTest';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A one-sheet XLSX: text cells as inline strings (rows of a cell each as Excel writes a plain export), numbers as numbers. */
function xlsxOf(rows: (string | number)[][]): Buffer {
  const column = (i: number) => String.fromCharCode(65 + i);
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const sheetRows = rows
    .map((cells, r) => `<row r="${r + 1}">${cells
      .map((cell, c) => (typeof cell === 'number' ? `<c r="${column(c)}${r + 1}"><v>${cell}</v></c>` : `<c r="${column(c)}${r + 1}" t="inlineStr"><is><t>${escape(cell)}</t></is></c>`))
      .join('')}</row>`)
    .join('');
  const files = {
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="成本价" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    'xl/worksheets/sheet1.xml': `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetRows}</sheetData></worksheet>`,
  };
  return Buffer.from(zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)]))));
}

describe.each(DATABASE_TARGETS)('promotions on $kind', (target) => {
  let t: TestApp;
  let sim: OzonSimulator;
  let job!: PriceGuardJob;
  let seller: Session;
  let stores: Store[];

  const call = <T>(method: 'GET' | 'POST', url: string, payload?: unknown, session: Session = seller, lang = 'zh-CN') =>
    t.app
      .inject({ method, url, headers: { ...session.headers, 'accept-language': lang }, ...(payload === undefined ? {} : { payload: payload as object }) })
      .then((r) => ({ status: r.statusCode, body: r.json<{ code: number; msg: string; data: T }>() }));
  const post = <T>(url: string, payload: unknown, session?: Session, lang?: string) => call<T>('POST', url, payload, session, lang);
  const ok = async <T>(promise: Promise<{ status: number; body: { msg: string; data: T } }>) => {
    const answer = await promise;
    expect(answer.status, answer.body.msg).toBe(200);
    return answer.body.data;
  };
  const shop1001 = () => sim.shop('1001').areas.promotions;
  const firstAction = () => shop1001().actions[0]!;

  beforeAll(async () => {
    sim = createOzonSimulator({ ordersPerShop: 200, productsPerShop: 300, control: { labelReadyDelayMs: 0, taskDelayMs: 0 } });
    t = await startTestApp(target, { app: { marketplace: { simulator: sim }, promotions: { guardIntervalMs: 0, onGuardJob: (j) => (job = j) } } });
    seller = await login(t.app, 'seller', 'seller123');
    stores = [];
    for (const clientId of ['1001', '1002']) {
      const added = await post<Store>('/api/store/add', { name: `shop ${clientId}`, clientId, apiKey: `sim-key-${clientId}` });
      expect(added.status).toBe(200);
      stores.push(added.body.data);
    }
    // The request counts below are the calls' own, not the first sync's.
    await firstSyncDone(t.app, seller);
  });
  afterAll(() => t?.close());

  it('lets only admin and follow in, and only to their own shops', async () => {
    const analyst = await login(t.app, 'analyst', 'analyst123');
    expect((await post(P.actionList, {}, analyst)).status).toBe(401);
    const admin = await login(t.app, 'admin', 'admin123');
    const foreign = await post(P.actionCandidates, { storeId: stores[0]!.id, actionId: firstAction().id }, admin);
    expect(foreign.status).toBe(404);
    expect((await post(P.actionAdd, { storeId: stores[0]!.id, actionId: firstAction().id, products: [{ productId: 1, actionPrice: 0 }] })).status).toBe(400);
  });

  it('lists every action of every shop with its status, discount and counts', async () => {
    const data = await ok(post<ActionListAnswer>(P.actionList, {}));
    expect(new Set(data.actions.map((a) => a.storeId))).toEqual(new Set(stores.map((s) => s.id)));
    expect(data.problems).toEqual([]);
    const action = data.actions.find((a) => a.storeId === stores[0]!.id && a.actionId === firstAction().id)!;
    expect(action).toMatchObject({ title: firstAction().title, discountValue: firstAction().discount, participating: firstAction().participating.size });
    expect(['running', 'upcoming', 'ended']).toContain(action.status);
    expect(action.candidates).toBe(firstAction().candidates.size - firstAction().participating.size);
    // Ozon prices the demo seller's products, and so its actions, in yuan: the action says so.
    expect(action.currency).toBe('CNY');
  });

  it('adds three candidates, refusing the one above its maximum action price before sending it, with the reason', async () => {
    const ref = { storeId: stores[0]!.id, actionId: firstAction().id };
    const candidates = await ok(post<ActionProductsAnswer>(P.actionCandidates, ref));
    expect(candidates.rows.length).toBe(candidates.total);
    const [a, b, c] = candidates.rows;
    expect(a!.offerId).not.toBe('');
    expect(a!.name).not.toBe('');
    const sent = sim.requestCount;
    const answer = await ok(
      post<ProductOutcomes>(
        P.actionAdd,
        { ...ref, products: [{ productId: a!.productId, actionPrice: a!.maxActionPrice }, { productId: b!.productId, actionPrice: b!.maxActionPrice + 10 }, { productId: c!.productId, actionPrice: c!.maxActionPrice - 1 }] },
        seller,
        'en',
      ),
    );
    expect(answer.outcomes.map((o) => [o.productId, o.ok])).toEqual([[a!.productId, true], [b!.productId, false], [c!.productId, true]]);
    expect(answer.outcomes[1]!.reason).toContain(`highest Ozon allows, ${b!.maxActionPrice.toFixed(2)}`);
    expect(sim.requestCount - sent).toBeLessThan(10);
    expect(firstAction().participating.has(b!.productId)).toBe(false);
    const products = await ok(post<ActionProductsAnswer>(P.actionProducts, ref));
    expect(products.rows.map((r) => r.productId)).toEqual(expect.arrayContaining([a!.productId, c!.productId]));
    expect(products.rows.find((r) => r.productId === a!.productId)).toMatchObject({ actionPrice: a!.maxActionPrice, addMode: 'MANUAL' });
  });

  it('joins a batch sent in chunks against the synced action, paging the candidates once for all chunks', async () => {
    const ref = { storeId: stores[0]!.id, actionId: firstAction().id };
    const candidates = (await ok(post<ActionProductsAnswer>(P.actionCandidates, ref))).rows.slice(0, 5);
    expect(candidates.length).toBe(5);
    const before = sim.requestsByPath();
    // The page sends a batch in chunks, one call each (a 1,000-product join is 5 calls of 200).
    for (const candidate of candidates) {
      const answer = await ok(post<ProductOutcomes>(P.actionAdd, { ...ref, products: [{ productId: candidate.productId, actionPrice: candidate.maxActionPrice }] }));
      expect(answer.outcomes).toEqual([expect.objectContaining({ productId: candidate.productId, ok: true })]);
    }
    const after = sim.requestsByPath();
    const calls = (path: string) => (after.get(path) ?? 0) - (before.get(path) ?? 0);
    expect(calls('/v1/actions')).toBe(0);
    // Read once for the batch (here by the add before: its chunks share what it read), not once per chunk.
    expect(calls('/v1/actions/candidates')).toBeLessThanOrEqual(1);
    expect(calls('/v1/actions/products/activate')).toBe(5);
  });

  it('removes products in a batch with an outcome for each', async () => {
    const ref = { storeId: stores[0]!.id, actionId: firstAction().id };
    const inAction = [...firstAction().participating.keys()][0]!;
    const answer = await ok(post<ProductOutcomes>(P.actionRemove, { ...ref, productIds: [inAction, 1] }));
    expect(answer.outcomes).toEqual([
      { productId: inAction, ok: true, reason: null },
      { productId: 1, ok: false, reason: expect.stringContaining('Ozon拒绝') },
    ]);
  });

  it('imports cost prices from CSV with a reason for each refused line, and lists them', async () => {
    const offers = [...sim.shop('1001').productById.values()].slice(0, 3).map((p) => p.offerId);
    const csv = `货号,成本价,备注\n${offers[0]},100.5,\n${offers[1]},abc,\n,5,\n${offers[2]},"1 200,50",\n`;
    const { payload, contentType } = multipartFile('costs.csv', Buffer.from(csv));
    const response = await t.app.inject({ method: 'POST', url: C.import, headers: { ...seller.headers, 'content-type': contentType, 'accept-language': 'en' }, payload });
    expect(response.statusCode).toBe(200);
    const answer = response.json<{ data: CostImportAnswer }>().data;
    expect(answer.saved).toBe(2);
    expect(answer.errors.map((e) => [e.line, e.offerId])).toEqual([[3, offers[1]], [4, '']]);
    expect(answer.errors[0]!.message).toContain('cost must be a number');
    const list = await ok(call<{ list: { offerId: string; cost: number }[]; total: number }>('GET', `${C.list}?search=${encodeURIComponent(offers[2]!)}`));
    expect(list.list).toEqual([expect.objectContaining({ offerId: offers[2], cost: 1200.5 })]);
    const wrong = multipartFile('costs.pdf', Buffer.from('x'));
    const refused = await t.app.inject({ method: 'POST', url: C.import, headers: { ...seller.headers, 'content-type': wrong.contentType }, payload: wrong.payload });
    expect(refused.statusCode).toBe(400);
  });

  it('imports cost prices from XLSX: each refused line named with its reason, every good line kept', async () => {
    const offers = [...sim.shop('1001').productById.values()].slice(10, 14).map((p) => p.offerId);
    // A sheet as Excel saves it: numbers as numbers, text as shared or inline strings, an empty row, extra columns.
    const xlsx = xlsxOf([
      ['商品名称', 'Offer ID', 'Cost'],
      ['a', offers[0]!, 88.8],
      ['b', offers[1]!, 'n/a'],
      [],
      ['c', '', 12],
      ['d', offers[2]!, '1 500,25'],
      ['e', offers[3]!, -3],
    ]);
    const { payload, contentType } = multipartFile('成本价.xlsx', xlsx);
    const response = await t.app.inject({ method: 'POST', url: C.import, headers: { ...seller.headers, 'content-type': contentType, 'accept-language': 'en' }, payload });
    expect(response.statusCode).toBe(200);
    const answer = response.json<{ data: CostImportAnswer }>().data;
    expect(answer.saved).toBe(2);
    expect(answer.errors.map((e) => [e.line, e.offerId])).toEqual([[3, offers[1]], [5, ''], [7, offers[3]]]);
    for (const error of answer.errors) expect(error.message.length).toBeGreaterThan(5);
    const costs = await Promise.all(
      offers.map(async (offerId) => (await ok(call<{ list: { offerId: string; cost: number }[] }>('GET', `${C.list}?search=${encodeURIComponent(offerId)}`))).list.find((r) => r.offerId === offerId)?.cost ?? null),
    );
    expect(costs).toEqual([88.8, null, 1500.25, null]);
    const broken = multipartFile('costs.xlsx', Buffer.from('not a zip'));
    const unreadable = await t.app.inject({ method: 'POST', url: C.import, headers: { ...seller.headers, 'content-type': broken.contentType }, payload: broken.payload });
    expect(unreadable.statusCode).toBe(400);
  });

  it('refuses to add a product below the price guard floor', async () => {
    const ref = { storeId: stores[1]!.id, actionId: sim.shop('1002').areas.promotions.actions[0]!.id };
    await ok(post<PriceGuard>(P.guardSet, { storeId: ref.storeId, enabled: true, mode: 'absolute', minPrice: 100_000, marginPercent: 0 }));
    const [a] = (await ok(post<ActionProductsAnswer>(P.actionCandidates, ref))).rows;
    expect(a!.floor).toBe(100_000);
    const answer = await ok(post<ProductOutcomes>(P.actionAdd, { ...ref, products: [{ productId: a!.productId, actionPrice: a!.maxActionPrice }] }, seller, 'en'));
    expect(answer.outcomes[0]).toMatchObject({ ok: false, reason: expect.stringContaining('below the price guard floor 100000.00') });
    await ok(post<PriceGuard>(P.guardSet, { storeId: ref.storeId, enabled: false, mode: 'absolute', minPrice: 100_000, marginPercent: 0 }));
  });

  it('guard run: removes a product Ozon joined below the floor once, logs it, and leaves it alone above the floor', async () => {
    const storeId = stores[0]!.id;
    const action = firstAction();
    // Only the product under test is below the floor: every other participant is removed from the action first.
    for (const id of [...action.participating.keys()]) action.participating.delete(id);
    const productId = [...action.candidates][5]!;
    const product = sim.shop('1001').productById.get(productId)!;
    await ok(post('/api/cost/set', { items: [{ offerId: product.offerId, cost: 50 }] }));
    await ok(post<PriceGuard>(P.guardSet, { storeId, enabled: true, mode: 'margin', minPrice: 0, marginPercent: 20 }));
    shop1001().autoJoin(action.id, productId, 59);
    await job.tick();
    expect(action.participating.has(productId)).toBe(false);
    const log = await ok(call<{ list: GuardLogRow[]; total: number }>('GET', `${P.guardLog}?storeId=${storeId}`));
    expect(log.total).toBe(1);
    expect(log.list[0]).toMatchObject({ productId, actionId: action.id, actionPrice: 59, floor: 60, cost: 50, mode: 'margin', outcome: 'removed', addMode: 'AUTO', offerId: product.offerId });
    await job.tick();
    shop1001().autoJoin(action.id, productId, 61);
    await job.tick();
    expect(action.participating.get(productId)?.price).toBe(61);
    expect((await ok(call<{ total: number }>('GET', `${P.guardLog}?storeId=${storeId}`))).total).toBe(1);
  });

  it('guard run by hand while the scheduled one runs: the product is removed once and logged once', async () => {
    const storeId = stores[0]!.id;
    const action = firstAction();
    for (const id of [...action.participating.keys()]) action.participating.delete(id);
    const productId = [...action.candidates][7]!;
    const product = sim.shop('1001').productById.get(productId)!;
    await ok(post('/api/cost/set', { items: [{ offerId: product.offerId, cost: 50 }] }));
    await ok(post<PriceGuard>(P.guardSet, { storeId, enabled: true, mode: 'margin', minPrice: 0, marginPercent: 20 }));
    const before = (await ok(call<{ total: number }>('GET', `${P.guardLog}?storeId=${storeId}`))).total;
    shop1001().autoJoin(action.id, productId, 30);
    // A slow marketplace keeps both runs in flight together.
    sim.control.latencyMs = 30;
    const [, byHand] = await Promise.all([job.tick(), ok(post<{ removed: number }>(P.guardRun, { storeId }))]).finally(() => (sim.control.latencyMs = 0));
    expect(action.participating.has(productId)).toBe(false);
    const log = await ok(call<{ list: GuardLogRow[]; total: number }>('GET', `${P.guardLog}?storeId=${storeId}`));
    expect(log.total).toBe(before + 1);
    expect(log.list.filter((row) => row.productId === productId && row.actionPrice === 30)).toHaveLength(1);
    expect(byHand.removed).toBeLessThanOrEqual(1);
  });

  it('guard run: an action switched off is not touched', async () => {
    const storeId = stores[0]!.id;
    const action = firstAction();
    const productId = [...action.candidates][6]!;
    const product = sim.shop('1001').productById.get(productId)!;
    await ok(post('/api/cost/set', { items: [{ offerId: product.offerId, cost: 50 }] }));
    const guard = await ok(post<PriceGuard>(P.guardAction, { storeId, actionId: action.id, enabled: false }));
    expect(guard.offActions).toContain(action.id);
    shop1001().autoJoin(action.id, productId, 10);
    const run = await ok(post<{ removed: number }>(P.guardRun, { storeId }));
    expect(run.removed).toBe(0);
    expect(action.participating.has(productId)).toBe(true);
    await ok(post<PriceGuard>(P.guardAction, { storeId, actionId: action.id, enabled: true }));
    expect((await ok(post<{ removed: number }>(P.guardRun, { storeId }))).removed).toBe(1);
  });

  it('lists discount requests, approves one, refuses one below the floor before sending, declines one', async () => {
    const storeId = stores[1]!.id;
    const pending = await ok(post<DiscountListAnswer>(P.discountList, { view: 'pending' }));
    const mine = pending.tasks.filter((task) => task.storeId === storeId);
    expect(mine.length).toBeGreaterThan(3);
    expect(mine.every((task) => task.status === 'NEW' || task.status === 'SEEN')).toBe(true);
    const [a, b, c] = mine;
    await ok(post<PriceGuard>(P.guardSet, { storeId, enabled: true, mode: 'absolute', minPrice: b!.requestedPrice + 1, marginPercent: 0 }));
    const approved = await ok(
      post<TaskOutcomes>(P.discountApprove, {
        items: [
          { storeId, taskId: a!.taskId, price: Math.max(a!.requestedPrice, b!.requestedPrice + 1), quantityMin: 1, quantityMax: 1 },
          { storeId, taskId: b!.taskId, price: b!.requestedPrice, quantityMin: 1, quantityMax: 1 },
        ],
      }),
    );
    expect(approved.outcomes.map((o) => o.ok)).toEqual([a!.basePrice >= Math.max(a!.requestedPrice, b!.requestedPrice + 1), false]);
    expect(approved.outcomes[1]!.reason).toContain('低于价格保护底价');
    const declined = await ok(post<TaskOutcomes>(P.discountDecline, { items: [{ storeId, taskId: c!.taskId, comment: 'нет' }, { storeId: 999_999, taskId: 1 }] }));
    expect(declined.outcomes.map((o) => o.ok)).toEqual([true, false]);
    const decided = await ok(post<DiscountListAnswer>(P.discountList, { view: 'decided' }));
    expect(decided.tasks.find((task) => task.taskId === c!.taskId)?.status).toBe('DECLINED');
    const again = await ok(post<DiscountListAnswer>(P.discountList, { view: 'pending' }));
    expect(again.tasks.map((task) => task.taskId)).not.toContain(c!.taskId);
    expect(again.tasks.map((task) => task.taskId)).toContain(b!.taskId);
  });
  it('refuses joining and leaving a frozen action before sending, and the guard logs what it cannot remove', async () => {
    const storeId = stores[0]!.id;
    const frozen = shop1001().actions.find((a) => a.freeze !== null)!;
    // The server judges a freeze by its own clock, which here starts in 2025, before the simulated Ozon's.
    frozen.freeze = t.clock.now().getTime() - 86_400_000;
    const { actions } = await ok(post<ActionListAnswer>(P.actionList, {}));
    const row = actions.find((a) => a.storeId === storeId && a.actionId === frozen.id)!;
    expect(row.freezeDate).toBe(frozen.freeze);
    const participant = [...frozen.participating.keys()][0]!;
    const candidate = [...frozen.candidates].find((id) => !frozen.participating.has(id))!;
    const added = await ok(post<ProductOutcomes>(P.actionAdd, { storeId, actionId: frozen.id, products: [{ productId: candidate, actionPrice: 1 }] }, seller, 'en'));
    expect(added.outcomes).toEqual([{ productId: candidate, ok: false, reason: expect.stringMatching(/^The action froze on \d{4}-\d\d-\d\d \d\d:\d\d UTC: Ozon no longer lets products join or leave/) }]);
    const removed = await ok(post<ProductOutcomes>(P.actionRemove, { storeId, actionId: frozen.id, productIds: [participant] }));
    expect(removed.outcomes[0]).toMatchObject({ productId: participant, ok: false, reason: expect.stringContaining('冻结') });
    expect(frozen.participating.has(candidate)).toBe(false);
    expect(frozen.participating.has(participant)).toBe(true);
    // Ozon refuses the same (the server's check is not the only guard).
    expect(shop1001().actionDeactivate({ action_id: frozen.id, product_ids: [participant] }).result.rejected).toHaveLength(1);

    // Ozon joins a product by itself below the floor: the guard cannot remove it, and says why, once per price.
    const product = sim.shop('1001').productById.get(candidate)!;
    await ok(post('/api/cost/set', { items: [{ offerId: product.offerId, cost: 50 }] }));
    shop1001().autoJoin(frozen.id, candidate, 10);
    const before = (await ok(call<{ total: number }>('GET', `${P.guardLog}?storeId=${storeId}`))).total;
    await ok(post(P.guardRun, { storeId }));
    await ok(post(P.guardRun, { storeId }));
    expect(frozen.participating.get(candidate)?.price).toBe(10);
    const log = await ok(call<{ list: GuardLogRow[]; total: number }>('GET', `${P.guardLog}?storeId=${storeId}`, undefined, seller, 'en'));
    const entries = log.list.filter((e) => e.actionId === frozen.id && e.productId === candidate);
    expect(entries).toEqual([expect.objectContaining({ outcome: 'failed', actionPrice: 10, floor: 60, error: expect.stringContaining('The action froze on') })]);
    expect(log.total).toBeGreaterThan(before);
  });
});
