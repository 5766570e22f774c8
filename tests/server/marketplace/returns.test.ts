import type { RfbsReturnActionSetRequest } from '../../../server/marketplace/ozon/client';
import { OzonError } from '../../../server/marketplace/ozon/errors';
import { RFBS_ACTIONS } from '../../../server/marketplace/simulator/areas/returns';
import { startSimulator } from './harness';

let sim: Awaited<ReturnType<typeof startSimulator>>;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

async function refusal(promise: Promise<unknown>): Promise<OzonError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OzonError);
  return error as OzonError;
}

describe('FBS and FBO returns (/v1/returns/list)', () => {
  it('answers both schemes, each filter by its scheme, and pages across them by last_id', async () => {
    const client = sim.client('1001');
    const fbs = await client.returnsList({ limit: 500, filter: { return_schema: 'FBS' } });
    const fbo = await client.returnsList({ limit: 500, filter: { return_schema: 'FBO' } });
    expect(fbs.returns.length).toBeGreaterThan(5);
    expect(fbo.returns.length).toBeGreaterThan(5);
    expect(new Set(fbs.returns.map((r) => r.schema))).toEqual(new Set(['Fbs']));
    expect(new Set(fbo.returns.map((r) => r.schema))).toEqual(new Set(['Fbo']));
    // The pages of the whole list hold each return once, in id order.
    const ids: number[] = [];
    let lastId: number | undefined;
    for (;;) {
      const page = await client.returnsList({ limit: 7, last_id: lastId });
      ids.push(...page.returns.map((r) => r.id));
      if (!page.has_next) break;
      lastId = page.returns[page.returns.length - 1]!.id;
    }
    expect(ids).toEqual([...fbs.returns, ...fbo.returns].map((r) => r.id));
    expect(new Set(fbs.returns.map((r) => r.return_reason_name)).size).toBeGreaterThan(2);
  });

  it('refuses two date filters at once and more than 50 posting numbers', async () => {
    const client = sim.client('1001');
    const range = { time_from: new Date(0).toISOString(), time_to: new Date().toISOString() };
    expect((await refusal(client.returnsList({ limit: 10, filter: { logistic_return_date: range, visual_status_change_moment: range } }))).status).toBe(400);
    const numbers = Array.from({ length: 51 }, (_, i) => `1001000000${i}-0001-1`);
    expect((await refusal(client.returnsList({ limit: 10, filter: { posting_numbers: numbers } }))).status).toBe(400);
  });

  it('finds the returns of one posting', async () => {
    const client = sim.client('1001');
    const some = (await client.returnsList({ limit: 3, filter: { return_schema: 'FBS' } })).returns[2]!;
    const found = await client.returnsList({ limit: 10, filter: { posting_numbers: [some.posting_number] } });
    expect(found.returns.map((r) => r.id)).toEqual([some.id]);
  });
});

describe('rFBS return requests (/v2/returns/rfbs/*, decisions through /v1/returns/rfbs/action/set)', () => {
  const act = (returnId: number, action: keyof typeof RFBS_ACTIONS, rest: Omit<RfbsReturnActionSetRequest, 'return_id' | 'id'> = {}) =>
    sim.client('1001').rfbsReturnActionSet({ return_id: returnId, id: RFBS_ACTIONS[action].id, ...rest });

  const requestIn = async (group: string) => {
    const list = await sim.client('1001').rfbsReturnsList({ limit: 1000, filter: { group_state: [group] } });
    expect(list.length).toBeGreaterThan(0);
    return list[0]!;
  };

  it('lists requests by state group and gives one with its reason, photos and the actions its state allows', async () => {
    const client = sim.client('1001');
    const all = await client.rfbsReturnsList({ limit: 1000 });
    const groups = new Set(all.map((r) => r.state.group_state));
    for (const group of ['New', 'Approved', 'Rejected']) expect(groups).toContain(group);
    expect((await client.rfbsReturnsList({ limit: 1000, filter: { group_state: ['Rejected'] } })).every((r) => r.state.group_state === 'Rejected')).toBe(true);
    const fresh = await requestIn('New');
    const detail = await client.rfbsReturnGet(fresh.return_id);
    expect(detail.posting_number).toBe(fresh.posting_number);
    expect(detail.return_reason?.name).toBeTruthy();
    expect(detail.available_actions.map((a) => a.name).sort()).toEqual(['Вернуть деньги', 'Вернуть часть стоимости', 'Одобрить заявку', 'Отклонить заявку']);
    expect(detail.rejection_reason.length).toBeGreaterThan(0);
    // An rFBS shop has none: its requests come only from its rFBS warehouse.
    expect(await sim.client('1002').rfbsReturnsList({ limit: 100 })).toEqual([]);
  });

  it('takes a request from new to money returned: verify, receive, return money; each step only in its state', async () => {
    const client = sim.client('1001');
    const { return_id: id } = await requestIn('New');
    expect((await refusal(act(id, 'receiveReturn'))).status).toBe(400);
    await act(id, 'verify', { comment: 'Почта России' });
    expect((await client.rfbsReturnGet(id)).state.state).toBe('Approved');
    expect((await client.rfbsReturnGet(id)).return_method_description).toBe('Почта России');
    expect((await refusal(act(id, 'verify'))).status).toBe(400);
    expect((await refusal(act(id, 'returnMoney'))).status).toBe(400);
    await act(id, 'receiveReturn');
    const received = await client.rfbsReturnGet(id);
    expect(received.state.state).toBe('ReceivedBySeller');
    expect(received.available_actions.map((a) => a.name)).toContain('Вернуть деньги');
    // After the check a rejection is the other id (-10), and the request lists only that one.
    expect(received.available_actions.map((a) => a.id)).toContain(-10);
    expect(received.available_actions.map((a) => a.id)).not.toContain(-1);
    expect((await refusal(act(id, 'reject', { rejection_reason_id: 101, comment: 'x' }))).status).toBe(400);
    await act(id, 'returnMoney', { return_for_back_way: 300 });
    const done = await client.rfbsReturnGet(id);
    expect(done.state.state).toBe('MoneyReturned');
    expect(done.available_actions).toEqual([]);
    const listed = await client.rfbsReturnsList({ limit: 10, filter: { posting_number: done.posting_number } });
    expect(listed[0]!.state).toMatchObject({ group_state: 'Approved', state: 'MoneyReturned' });
  });

  it('rejects only with a known reason and a comment (action/set requires one for -1 and -10)', async () => {
    const client = sim.client('1001');
    const { return_id: id } = await requestIn('New');
    const { rejection_reason: reasons } = await client.rfbsReturnGet(id);
    const needsComment = reasons.find((r) => r.is_comment_required)!;
    expect((await refusal(act(id, 'reject', { rejection_reason_id: 9999, comment: 'x' }))).status).toBe(400);
    expect((await refusal(act(id, 'reject', { rejection_reason_id: needsComment.id }))).status).toBe(400);
    expect((await refusal(client.rfbsReturnActionSet({ return_id: id, id: 777 }))).status).toBe(400);
    await act(id, 'reject', { rejection_reason_id: needsComment.id, comment: 'Следы использования на фото' });
    const rejected = await client.rfbsReturnGet(id);
    expect(rejected.state.state).toBe('Rejected');
    expect(rejected.rejection_comment).toBe('Следы использования на фото');
  });

  it('compensates part of the price: more than nothing, less than the price', async () => {
    const client = sim.client('1001');
    const request = await requestIn('New');
    const price = Number(request.product.price);
    expect((await refusal(act(request.return_id, 'compensate', { compensation_amount: 0 }))).status).toBe(400);
    expect((await refusal(act(request.return_id, 'compensate', { compensation_amount: price }))).status).toBe(400);
    await act(request.return_id, 'compensate', { compensation_amount: Math.round(price * 50) / 100 });
    expect((await client.rfbsReturnGet(request.return_id)).state.state).toBe('PartialCompensationReturned');
  });

  it('answers an unknown request with 404', async () => {
    expect((await refusal(sim.client('1001').rfbsReturnGet(1))).status).toBe(404);
  });
});
