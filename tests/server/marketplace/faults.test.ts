import { OzonError } from '../../../server/marketplace/ozon/errors';
import { createRateLimiter } from '../../../server/marketplace/ozon/limiter';
import { startSimulator } from './harness';

let sim: Awaited<ReturnType<typeof startSimulator>>;
beforeAll(async () => {
  sim = await startSimulator({ ordersPerShop: 500, productsPerShop: 100 });
});
afterAll(() => sim.close());
afterEach(() => {
  sim.simulator.control.faults = [];
});

const retriesOf = () => {
  const seen: string[] = [];
  return { seen, onRetry: ({ error }: { error: OzonError }) => seen.push(error.kind) };
};

describe('Ozon client under injected faults', () => {
  it('rides out a 429 storm with backoff and ends with the full answer', async () => {
    const log = retriesOf();
    sim.simulator.fail('rateLimit', 3);
    const page = await sim.client('1001', { onRetry: log.onRetry }).productList({ limit: 50 });
    expect(page.items).toHaveLength(50);
    expect(log.seen).toEqual(['rateLimited', 'rateLimited', 'rateLimited']);
  });

  it('retries Circle is open, 5xx and a malformed body', async () => {
    const log = retriesOf();
    sim.simulator.fail('circleOpen', 1);
    sim.simulator.fail('serverError', 1);
    sim.simulator.fail('malformed', 1);
    const { warehouses } = await sim.client('1001', { onRetry: log.onRetry }).warehouseList({ limit: 10 });
    expect(warehouses.length).toBeGreaterThan(0);
    expect(log.seen).toEqual(['circleOpen', 'server', 'malformed']);
  });

  it('retries a timeout, and gives up after the bounded retries with 504 ozon接口请求超时', async () => {
    sim.simulator.fail('timeout', 1);
    const client = sim.client('1001', { timeoutMs: 300 });
    expect((await client.roles()).roles.length).toBeGreaterThan(0);

    sim.simulator.fail('timeout', 10);
    const error = await sim.client('1001', { timeoutMs: 200, retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 10 } }).roles().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OzonError);
    expect((error as OzonError).kind).toBe('timeout');
    expect((error as OzonError).code).toBe(504);
    expect((error as OzonError).text('zh')).toBe('ozon接口请求超时');
  });

  it('never sends a ship again after its answer was lost: the error says the outcome is unknown', async () => {
    const posting = await sim.client('1001').postingFbsGet(sim.simulator.shop('1001').addPosting().postingNumber);
    sim.simulator.fail('lostAnswer', 1);
    sim.simulator.control.timeoutHangMs = 2_000;
    const before = sim.simulator.requestCount;
    const ship = { posting_number: posting.posting_number, packages: [{ products: posting.products.map((p) => ({ product_id: p.sku, quantity: p.quantity })) }] };
    const error = await sim.client('1001', { timeoutMs: 300, retry: { baseDelayMs: 5, maxDelayMs: 10 } }).postingFbsShip(ship).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'timeout', outcomeUnknown: true });
    expect(sim.simulator.requestCount - before).toBe(1);
    // Carried out all the same.
    expect((await sim.client('1001').postingFbsGet(posting.posting_number)).status).toBe('awaiting_deliver');
    // A read is still retried after a lost answer.
    sim.simulator.fail('lostAnswer', 1);
    expect((await sim.client('1001', { timeoutMs: 300, retry: { baseDelayMs: 5, maxDelayMs: 10 } }).postingFbsGet(posting.posting_number)).status).toBe('awaiting_deliver');
  });

  it('does not retry a malformed answer more than once: a changed schema fails clearly', async () => {
    sim.simulator.fail('malformed', 5);
    const before = sim.simulator.requestCount;
    const error = await sim.client('1001').roles().catch((e: unknown) => e);
    expect((error as OzonError).kind).toBe('malformed');
    expect((error as OzonError).code).toBe(502);
    expect(sim.simulator.requestCount - before).toBe(2);
  });

  it('does not retry a wrong key, a deactivated key or a missing role', async () => {
    const before = sim.simulator.requestCount;
    const wrong = await sim.client('1002', { apiKey: 'nope' }).roles().catch((e: unknown) => e);
    expect((wrong as OzonError).kind).toBe('invalidKey');
    expect(sim.simulator.requestCount - before).toBe(1);

    sim.simulator.addShop({ clientId: '2001', apiKey: 'sim-key-2001', keyState: 'deactivated', orders: 10, products: 10 });
    const deactivated = await sim.client('2001').roles().catch((e: unknown) => e);
    expect((deactivated as OzonError).kind).toBe('keyDeactivated');
    expect((deactivated as OzonError).text('zh')).toContain('已停用');

    sim.simulator.addShop({ clientId: '2002', apiKey: 'sim-key-2002', roles: ['Product'], orders: 10, products: 10 });
    const limited = sim.client('2002');
    expect((await limited.roles()).roles.map((r) => r.name)).toEqual(['Product']);
    const noRole = await limited.chatList({ limit: 1 }).catch((e: unknown) => e);
    expect((noRole as OzonError).kind).toBe('missingRole');
    expect((noRole as OzonError).code).toBe(401);
  });

  it('keeps two shops within 50 requests/s each: a burst of 120 calls per shop draws no 429', async () => {
    sim.simulator.addShop({ clientId: '3001', apiKey: 'sim-key-3001', orders: 10, products: 10 });
    sim.simulator.addShop({ clientId: '3002', apiKey: 'sim-key-3002', orders: 10, products: 10 });
    const limiter = createRateLimiter();
    const log = retriesOf();
    const a = sim.client('3001', { limiter, onRetry: log.onRetry });
    const b = sim.client('3002', { limiter, onRetry: log.onRetry });
    const calls = Array.from({ length: 120 }, () => [a.productInfoLimit(), b.productInfoLimit()]).flat();
    const results = await Promise.all(calls);
    expect(results).toHaveLength(240);
    expect(log.seen).toEqual([]);
  });

  it('without the limiter the simulator refuses the excess with Ozon\'s rate-limit error', async () => {
    const free = { acquire: async () => {} };
    const client = sim.client('1003', { limiter: free, retry: { retries: 0 } });
    const outcomes = await Promise.allSettled(Array.from({ length: 300 }, () => client.productInfoLimit()));
    const refused = outcomes.filter((o) => o.status === 'rejected').map((o) => ((o as PromiseRejectedResult).reason as OzonError).kind);
    expect(refused.length).toBeGreaterThan(0);
    expect(new Set(refused)).toEqual(new Set(['rateLimited']));
  });
});

describe('Ozon rate limits in the simulator', () => {
  it('count arrivals in real time even when the business clock stands still', async () => {
    const frozen = await startSimulator({ ordersPerShop: 10, productsPerShop: 10, now: () => Date.parse('2025-06-10T08:00:00Z') });
    try {
      const client = frozen.client('1001', { limiter: { acquire: async () => {} }, retry: { retries: 0 } });
      // A burst of 80 is refused in part when it arrives within one second; a loaded machine may spread one burst
      // over two windows, so up to five bursts are sent, stopping at the first refusal.
      let refused = false;
      for (let burst = 0; burst < 5 && !refused; burst++) {
        const outcomes = await Promise.allSettled(Array.from({ length: 80 }, () => client.productInfoLimit()));
        refused = outcomes.some((o) => o.status === 'rejected');
      }
      expect(refused).toBe(true);
      // A second later Ozon counts a new window, whatever date the shop's data says it is.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await expect(client.productInfoLimit()).resolves.toBeDefined();
    } finally {
      await frozen.close();
    }
  });
});
