import type { FastifyInstance } from 'fastify';
import { DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from './harness';
import { TRACK_REFRESH_MS, type PrefixesAnswer, type TrackResult, type TrackSearchAnswer } from '../../contract/tracking';

type Envelope<T> = { code: number; msg: string; data: T };

async function call<T>(app: FastifyInstance, session: Session, method: 'GET' | 'POST', url: string, payload?: unknown) {
  const response = await app.inject({ method, url, headers: session.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: response.statusCode, body: response.json<Envelope<T>>() };
}

const track = async (app: FastifyInstance, session: Session, numbers: string[]) => {
  const { status, body } = await call<TrackSearchAnswer>(app, session, 'POST', '/api/track/search', { numbers });
  expect(status).toBe(200);
  return new Map<string, TrackResult>(body.data.results.map((result) => [result.number, result]));
};

// Russian Post (S10 with RU, 14 digits), Cainiao (LP prefix), anything else: the aggregator. 0000 at the end: unknown.
const RUSSIAN = 'RA123456785RU';
const DOMESTIC = '80081234567891';
const CAINIAO = 'LP00612345678912';
const OTHER = 'YT2412345678912';
const UNKNOWN = 'RA123450000RU';

describe.each(DATABASE_TARGETS)('parcel tracking ($kind)', (target) => {
  let test: TestApp;
  let seller: Session;
  beforeEach(async () => {
    test = await startTestApp(target, { app: { tools: { refreshEveryMs: 0 } } });
    seller = await login(test.app, 'seller', 'seller123');
  });
  afterEach(async () => test.close());

  it('routes a mixed batch by prefix and by form, each to its carrier, with a timeline newest first', async () => {
    const results = await track(test.app, seller, [RUSSIAN, DOMESTIC, CAINIAO.toLowerCase(), OTHER, UNKNOWN]);
    expect(results.get(RUSSIAN)).toMatchObject({ carrier: 'russianPost', routedBy: 'auto', problem: null, fromCache: false });
    expect(results.get(DOMESTIC)).toMatchObject({ carrier: 'russianPost', routedBy: 'auto' });
    expect(results.get(CAINIAO)).toMatchObject({ carrier: 'cainiao', routedBy: 'prefix' });
    expect(results.get(OTHER)).toMatchObject({ carrier: 'track17', routedBy: 'auto' });
    expect(results.get(UNKNOWN)).toMatchObject({ carrier: 'russianPost', status: 'notFound', events: [], problem: null });
    for (const number of [RUSSIAN, CAINIAO, OTHER]) {
      const { events, status } = results.get(number)!;
      expect(events.length).toBeGreaterThan(0);
      expect(events[0]!.status).toBe(status);
      const times = events.map((event) => Date.parse(event.time));
      expect(times).toEqual([...times].sort((a, b) => b - a));
    }
    // The first event of a parcel from China is its acceptance in Shenzhen, in the carrier's words.
    const first = results.get(RUSSIAN)!.events.at(-1)!;
    expect(first).toMatchObject({ status: 'infoReceived', place: '518000 Shenzhen', text: 'Приём' });
  });

  it("answers a seller's own posting from the app's data, by posting or tracking number, and only to its owner", async () => {
    const userId = (await test.app.database.query<{ id: number }>("select id from users where username = 'seller'"))[0]!.id;
    const shopId = (await test.app.database.query<{ id: number }>(
      "insert into mp_shops (user_id, name, client_id, api_key_enc) values ($1, '深圳数码', '999', 'x') returning id",
      [userId],
    ))[0]!.id;
    await test.app.database.query(
      `insert into orders (id, user_id, shop_id, shop_name, posting_number, status, in_process_at, delivering_date, tracking_number, source)
       values ('t1', $1, $2, '深圳数码', '31234567-0001-1', 'delivering', now() - interval '3 days', now() - interval '1 day', 'RB987654321RU', 'ozon')`,
      [userId, shopId],
    );
    const results = await track(test.app, seller, ['31234567-0001-1', 'RB987654321RU']);
    for (const number of ['31234567-0001-1', 'RB987654321RU']) {
      expect(results.get(number)).toMatchObject({ carrier: 'ozon', routedBy: 'own', status: 'inTransit', posting: { postingNumber: '31234567-0001-1', shopName: '深圳数码' } });
    }
    expect(test.app.integrations.tracking.simulator!.calls.russianPost).toBe(0);
    // Another user's search for the same number goes to the carrier instead.
    const admin = await login(test.app, 'admin', 'admin123');
    const theirs = await track(test.app, admin, ['RB987654321RU']);
    expect(theirs.get('RB987654321RU')).toMatchObject({ carrier: 'russianPost', posting: null });
  });

  it('serves a moving parcel from the cache for 30 minutes, then reads it again; a delivered one stays cached', async () => {
    const sim = test.app.integrations.tracking.simulator!;
    await track(test.app, seller, [RUSSIAN]);
    expect(sim.calls.russianPost).toBe(1);
    test.clock.advance(TRACK_REFRESH_MS - 60_000);
    seller = await login(test.app, 'seller', 'seller123');
    const cached = await track(test.app, seller, [RUSSIAN]);
    expect(cached.get(RUSSIAN)).toMatchObject({ fromCache: true });
    expect(sim.calls.russianPost).toBe(1);
    test.clock.advance(120_000);
    seller = await login(test.app, 'seller', 'seller123');
    const fresh = await track(test.app, seller, [RUSSIAN]);
    expect(fresh.get(RUSSIAN)).toMatchObject({ fromCache: false });
    expect(sim.calls.russianPost).toBe(2);
    // Fifteen days on every journey has ended: delivered, then never read again.
    test.clock.advance(15 * 86_400_000);
    seller = await login(test.app, 'seller', 'seller123');
    expect((await track(test.app, seller, [RUSSIAN])).get(RUSSIAN)).toMatchObject({ status: 'delivered', fromCache: false });
    test.clock.advance(10 * 86_400_000);
    seller = await login(test.app, 'seller', 'seller123');
    expect((await track(test.app, seller, [RUSSIAN])).get(RUSSIAN)).toMatchObject({ status: 'delivered', fromCache: true });
    expect(sim.calls.russianPost).toBe(3);
  });

  it('confines a carrier that is down or refuses to its own numbers, with what was read before', async () => {
    const sim = test.app.integrations.tracking.simulator!;
    await track(test.app, seller, [RUSSIAN]);
    test.clock.advance(TRACK_REFRESH_MS + 1);
    seller = await login(test.app, 'seller', 'seller123');
    sim.down.russianPost = true;
    sim.refusing.track17 = true;
    const results = await track(test.app, seller, [RUSSIAN, DOMESTIC, CAINIAO, OTHER]);
    expect(results.get(RUSSIAN)).toMatchObject({ problem: 'carrierDown', fromCache: true });
    expect(results.get(RUSSIAN)!.events.length).toBeGreaterThan(0);
    expect(results.get(DOMESTIC)).toMatchObject({ problem: 'carrierDown', fromCache: false, events: [], fetchedAt: null });
    expect(results.get(OTHER)).toMatchObject({ problem: 'carrierRefused' });
    expect(results.get(OTHER)!.detail).toContain('401');
    expect(results.get(CAINIAO)).toMatchObject({ problem: null, carrier: 'cainiao' });
  });

  it('refuses more than 40 numbers and a malformed one, naming it', async () => {
    const many = Array.from({ length: 41 }, (_, i) => `RA${String(100000000 + i)}RU`);
    const tooMany = await call(test.app, seller, 'POST', '/api/track/search', { numbers: many });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.msg).toContain('40');
    const bad = await call(test.app, seller, 'POST', '/api/track/search', { numbers: [RUSSIAN, 'RA 12'] });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/^numbers\.1: /);
  });

  it('lets an administrator route a prefix to a carrier and take it back; sellers may only read the table', async () => {
    const table = await call<PrefixesAnswer>(test.app, seller, 'GET', '/api/track/prefixes');
    expect(table.body.data.prefixes).toContainEqual({ prefix: 'LP', carrier: 'cainiao', builtIn: true });
    expect(table.body.data.carriers).toContainEqual({ carrier: 'track17', configured: true });
    expect((await call(test.app, seller, 'POST', '/api/track/prefix/save', { prefix: 'YT', carrier: 'cainiao' })).status).toBe(401);
    const admin = await login(test.app, 'admin', 'admin123');
    const saved = await call<PrefixesAnswer>(test.app, admin, 'POST', '/api/track/prefix/save', { prefix: 'yt', carrier: 'cainiao' });
    expect(saved.body.data.prefixes).toContainEqual({ prefix: 'YT', carrier: 'cainiao', builtIn: false });
    expect((await track(test.app, seller, [OTHER])).get(OTHER)).toMatchObject({ carrier: 'cainiao', routedBy: 'prefix' });
    await call(test.app, admin, 'POST', '/api/track/prefix/delete', { prefix: 'YT' });
    const builtIn = await call(test.app, admin, 'POST', '/api/track/prefix/delete', { prefix: 'LP' });
    expect(builtIn.status).toBe(400);
    expect((await track(test.app, seller, ['YT2412345678913'])).get('YT2412345678913')).toMatchObject({ carrier: 'track17' });
  });
});
