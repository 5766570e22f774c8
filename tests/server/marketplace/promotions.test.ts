import { OzonError } from '../../../server/marketplace/ozon/errors';
import { ACTION_PRODUCTS_PER_CALL, DISCOUNT_TASKS_PER_CALL } from '../../../server/marketplace/ozon/versions';
import { PROMOTION_TEXT } from '../../../server/marketplace/simulator/areas/promotions';
import { startSimulator } from './harness';

let sim: Awaited<ReturnType<typeof startSimulator>>;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

describe('Ozon actions in the simulator', () => {
  it('pages candidates with last_id and counts them as /v1/actions does', async () => {
    const client = sim.client('1002');
    const action = (await client.actions())[0]!;
    const first = await client.actionCandidates({ action_id: action.id, limit: 10 });
    expect(first.products).toHaveLength(10);
    const second = await client.actionCandidates({ action_id: action.id, limit: 10, last_id: first.last_id });
    expect(second.products[0]!.id).toBeGreaterThan(first.products[9]!.id);
    expect(first.total).toBe(action.potential_products_count);
    const all = await client.actionCandidates({ action_id: action.id, limit: ACTION_PRODUCTS_PER_CALL });
    for (const p of all.products) expect(p.max_action_price).toBeLessThan(p.price);
  });

  it('has products Ozon joined by itself, below what the seller would choose', async () => {
    const client = sim.client('1001');
    const action = (await client.actions())[0]!;
    const products = await client.actionProducts({ action_id: action.id, limit: ACTION_PRODUCTS_PER_CALL });
    const auto = products.products.filter((p) => p.add_mode === 'AUTO');
    expect(auto.length).toBeGreaterThan(0);
    expect(auto.every((p) => p.action_price <= p.price * 0.55 + 1)).toBe(true);
    const joined = sim.simulator.shop('1001').areas.promotions.autoJoin(action.id, undefined, 7);
    const after = await client.actionProducts({ action_id: action.id, limit: ACTION_PRODUCTS_PER_CALL });
    expect(after.products.find((p) => p.id === joined.productId)).toMatchObject({ action_price: 7, add_mode: 'AUTO' });
  });

  it('keeps a frozen action\'s product list: no joining or leaving, and a participant\'s price only goes down', async () => {
    const client = sim.client('1001');
    const frozen = (await client.actions()).find((a) => a.freeze_date !== '')!;
    expect(Date.parse(frozen.freeze_date)).toBeLessThan(sim.simulator.now());
    const [joined] = (await client.actionProducts({ action_id: frozen.id, limit: 1 })).products;
    const candidate = (await client.actionCandidates({ action_id: frozen.id, limit: ACTION_PRODUCTS_PER_CALL })).products.find((p) => p.id !== joined!.id)!;
    const lower = Math.max(1, joined!.action_price - 1);
    const answer = await client.actionProductsActivate({
      action_id: frozen.id,
      products: [
        { product_id: candidate.id, action_price: candidate.max_action_price },
        { product_id: joined!.id, action_price: joined!.action_price + 1 },
      ],
    });
    expect(answer.product_ids).toEqual([]);
    expect(answer.rejected.map((r) => r.product_id)).toEqual([candidate.id, joined!.id]);
    expect((await client.actionProductsActivate({ action_id: frozen.id, products: [{ product_id: joined!.id, action_price: lower }] })).product_ids).toEqual([joined!.id]);
    expect((await client.actionProductsDeactivate({ action_id: frozen.id, product_ids: [joined!.id] })).rejected).toHaveLength(1);
    expect((await client.actions()).filter((a) => a.freeze_date === '').length).toBeGreaterThan(0);
  });

  it('refuses a product above its maximum action price and a non-candidate, and takes the rest', async () => {
    const client = sim.client('1003');
    const action = (await client.actions())[1]!;
    const [a, b] = (await client.actionCandidates({ action_id: action.id, limit: 2 })).products;
    const answer = await client.actionProductsActivate({
      action_id: action.id,
      products: [
        { product_id: a!.id, action_price: a!.max_action_price },
        { product_id: b!.id, action_price: b!.max_action_price + 1 },
        { product_id: 1, action_price: 1 },
      ],
    });
    expect(answer.product_ids).toEqual([a!.id]);
    expect(answer.rejected).toEqual([
      { product_id: b!.id, reason: PROMOTION_TEXT.aboveMax },
      { product_id: 1, reason: PROMOTION_TEXT.notCandidate },
    ]);
    const gone = await client.actionProductsDeactivate({ action_id: action.id, product_ids: [a!.id, b!.id] });
    expect(gone.product_ids).toEqual([a!.id]);
    expect(gone.rejected.map((r) => r.product_id)).toEqual([b!.id]);
  });

  it('refuses a batch over the limit as a whole, and a request the official schema refuses', async () => {
    const client = sim.client('1003');
    const action = (await client.actions())[0]!;
    const tooMany = Array.from({ length: ACTION_PRODUCTS_PER_CALL + 1 }, (_, i) => i + 1);
    const error = await client.actionProductsDeactivate({ action_id: action.id, product_ids: tooMany }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OzonError);
    expect((error as OzonError).status).toBe(400);
    const noStatus = await fetch(`${sim.baseUrl}/v1/actions/discounts-task/list`, {
      method: 'POST',
      headers: { 'Client-Id': '1003', 'Api-Key': 'sim-key-1003', 'Content-Type': 'application/json' },
      body: JSON.stringify({ limit: 10 }),
    });
    expect(noStatus.status).toBe(400);
  });
});

describe('discount requests in the simulator', () => {
  it('lists by status, approves NEW ones at a price not above the base price and declines, once', async () => {
    const client = sim.client('1002');
    const fresh = await client.discountTaskList({ status: 'NEW', page: 1, limit: DISCOUNT_TASKS_PER_CALL });
    expect(fresh.length).toBeGreaterThan(3);
    const [a, b, c] = fresh;
    const approved = await client.discountTaskApprove([
      { id: a!.id, approved_price: a!.requested_price, approved_quantity_min: 1, approved_quantity_max: 1 },
      { id: b!.id, approved_price: b!.base_price + 1, approved_quantity_min: 1, approved_quantity_max: 1 },
    ]);
    expect(approved.success_count).toBe(1);
    expect(approved.fail_details).toEqual([{ task_id: b!.id, error_for_user: PROMOTION_TEXT.priceAboveBase }]);
    const declined = await client.discountTaskDecline([{ id: c!.id, seller_comment: 'нет' }, { id: a!.id }]);
    expect(declined.success_count).toBe(1);
    expect(declined.fail_details).toEqual([{ task_id: a!.id, error_for_user: PROMOTION_TEXT.taskDecided }]);
    const approvedList = await client.discountTaskList({ status: 'APPROVED', limit: DISCOUNT_TASKS_PER_CALL });
    expect(approvedList.map((t) => t.id)).toContain(a!.id);
    const stillNew = await client.discountTaskList({ status: 'NEW', limit: DISCOUNT_TASKS_PER_CALL });
    expect(stillNew.map((t) => t.id)).not.toContain(c!.id);
    expect(stillNew.map((t) => t.id)).toContain(b!.id);
  });
});
