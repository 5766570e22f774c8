import { readFileSync } from 'node:fs';
import { WebSocket as WebSocketClient } from 'ws';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { AUTH_HEADERS } from '../../contract/envelope';
import { pushMessageSchema, type PushMessage } from '../../contract/push';
import { buildApp } from '../../server/app';
import { openPostgres, type Database } from '../../server/db/database';
import { seedDemoUsers, seedForStart } from '../../server/demo/seed';
import { createLeases } from '../../server/db/leases';
import type { BuyerChatService } from '../../server/areas/chat/service';
import { createBuyerChatWatcher } from '../../server/areas/chat/watcher';
import { DEFAULT_LEASE_MS, syncEntity } from '../../server/areas/sync/engine';
import { createSyncScheduler } from '../../server/areas/sync/scheduler';
import { createSyncService, type SyncService } from '../../server/areas/sync/service';
import { encryptSecret } from '../../server/marketplace/crypto';
import { SYNC_ENTITIES, type SyncEntity } from '../../contract/store';
import type { PriceGuardJob } from '../../server/areas/promotions/guardJob';
import { createOzonSimulator } from '../../server/marketplace/simulator/plugin';
import type { OzonClient } from '../../server/marketplace/ozon/client';
import { serverProcess } from './processes';
import { createPostgresDatabase, login, pushUrl, TEST_CAPTCHA, testConfig, type Session } from './harness';

/**
 * Several server instances on one PostgreSQL database (issue 27): they start together, a push made on one reaches
 * the sockets of the others, and a background job never runs on two of them at once. PostgreSQL only: the embedded
 * PGlite database belongs to one process.
 */
const url = process.env.TEST_DATABASE_URL;
if (!url) console.warn('instances.test.ts: skipped, TEST_DATABASE_URL is not set (several instances need a PostgreSQL server)');

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sharedDatabase(options: { migrated?: boolean } = {}): Promise<string> {
  // Empty: starting instances together is also a test of migrating together.
  const created = await createPostgresDatabase(url!, { empty: !options.migrated });
  cleanups.push(() => created.drop());
  return created.url;
}

async function open(databaseUrl: string): Promise<Database> {
  const database = await openPostgres(databaseUrl);
  cleanups.push(() => database.close());
  return database;
}

/** Server instances on one database, as main.ts starts them (migrated and seeded under the startup lock). */
async function startInstances(count: number): Promise<FastifyInstance[]> {
  const databaseUrl = await sharedDatabase();
  return Promise.all(
    Array.from({ length: count }, async () => {
      const database = await open(databaseUrl);
      await database.exclusive('startup', async () => {
        await database.migrate();
        await seedDemoUsers(database.db);
      });
      const app = await buildApp(testConfig(), { database, logger: false, push: { offlineGraceMs: 300 } });
      cleanups.push(() => app.close());
      await app.ready();
      return app;
    }),
  );
}

/** A browser's push socket on `app`: the frames it received, in order. */
async function socketOn(app: FastifyInstance, session: Session): Promise<{ ws: WebSocket; frames: PushMessage[] }> {
  const frames: PushMessage[] = [];
  const ws = await app.injectWS(await pushUrl(app, session), {}, {
    onInit: (socket) => socket.on('message', (data) => frames.push(pushMessageSchema.parse(JSON.parse(String(data))))),
  });
  cleanups.push(async () => ws.terminate());
  await vi.waitFor(() => expect(frames[0]).toEqual({ type: 'hello', userId: session.id }));
  return { ws, frames };
}

const notice = (text: string) => ({ type: 'notice', notice: { text, updateTime: '2025-06-10 16:00:00' } }) as const;

const MIGRATIONS = (JSON.parse(readFileSync(new URL('../../server/db/migrations/meta/_journal.json', import.meta.url), 'utf8')) as { entries: unknown[] }).entries.length;

describe.skipIf(!url)('several instances on one PostgreSQL', () => {
  it('start together: each migrates without error, the schema is made once, one first administrator', async () => {
    const databaseUrl = await sharedDatabase();
    const instances = await Promise.all([1, 2, 3].map(() => open(databaseUrl)));
    const config = { demo: false, adminPassword: 'Admin12345' };
    await Promise.all(
      instances.map((database) =>
        database.exclusive('startup', async () => {
          await database.migrate();
          await seedForStart(database.db, config);
        }),
      ),
    );
    const [first] = instances;
    expect(await first!.query(`select count(*)::int as n from drizzle.__drizzle_migrations`)).toEqual([{ n: MIGRATIONS }]);
    expect(await first!.query(`select username from users where 'admin' = any(roles)`)).toEqual([{ username: 'admin' }]);
  });
});

describe.skipIf(!url)('pushes across instances on one PostgreSQL', () => {
  it('a push made on one instance reaches the user\'s sockets on every instance, each once and in order', async () => {
    const [a, b] = await startInstances(2);
    const seller = await login(a!, 'seller', 'seller123');
    const analyst = await login(b!, 'analyst', 'analyst123');
    const onA = await socketOn(a!, seller);
    const onB = await socketOn(b!, seller);
    const analystOnB = await socketOn(b!, analyst);

    // Larger than a PostgreSQL notification may be (8000 bytes): it travels through the outbox, in its place.
    const big = notice('大'.repeat(3000));
    expect(a!.push.toUser(seller.id, notice('one'))).toBe(1);
    a!.push.toUser(seller.id, big);
    a!.push.toUser(seller.id, notice('three'));
    const fromA = [{ type: 'hello', userId: seller.id }, notice('one'), big, notice('three')];
    await vi.waitFor(() => expect(onB.frames).toEqual(fromA));
    expect(onA.frames).toEqual(fromA);
    b!.push.broadcast(notice('to all'));
    await vi.waitFor(() => expect(onA.frames).toEqual([...fromA, notice('to all')]));
    await vi.waitFor(() => expect(analystOnB.frames).toEqual([{ type: 'hello', userId: analyst.id }, notice('to all')]));
    // Nothing more arrives: one more push, seen once after them.
    a!.push.toUser(seller.id, notice('last'));
    await vi.waitFor(() => expect(onB.frames).toEqual([...fromA, notice('to all'), notice('last')]));
    expect(onA.frames).toEqual([...fromA, notice('to all'), notice('last')]);
  });

  it('a logout on one instance closes the session\'s socket on another', async () => {
    const [a, b] = await startInstances(2);
    const session = await login(a!, 'newbie', 'newbie123');
    const { ws } = await socketOn(b!, session);
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    await a!.inject({ method: 'POST', url: '/api/logout', headers: session.headers, payload: {} });
    expect(await closed).toBe(4001);
  });

  it('presence is shared: a user connected to one instance is online on all, and announced once', async () => {
    const [a, b] = await startInstances(2);
    const announced: Array<[string, number, boolean]> = [];
    a!.push.onPresence((userId, online) => announced.push(['a', userId, online]));
    b!.push.onPresence((userId, online) => announced.push(['b', userId, online]));
    const seller = await login(a!, 'seller', 'seller123');
    const first = await socketOn(b!, seller);
    await vi.waitFor(() => expect(a!.push.isOnline(seller.id)).toBe(true));
    expect(a!.push.onlineUserIds()).toEqual([seller.id]);
    // A second page on the other instance is no news; closing the first leaves the user online.
    const second = await socketOn(a!, seller);
    first.ws.terminate();
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(b!.push.isOnline(seller.id)).toBe(true);
    expect(announced).toEqual([['b', seller.id, true]]);
    second.ws.terminate();
    await vi.waitFor(() => expect(b!.push.isOnline(seller.id)).toBe(false));
    await vi.waitFor(() => expect(a!.push.isOnline(seller.id)).toBe(false));
    await vi.waitFor(() =>
      expect(announced).toEqual([
        ['b', seller.id, true],
        ['a', seller.id, false],
      ]),
    );
    // And nothing after it.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(announced).toHaveLength(2);
  });
});

describe.skipIf(!url)('background jobs across instances on one PostgreSQL', () => {
  it('the buyer-chat poller runs on one instance: each buyer message is pushed once; another takes over where it was', async () => {
    const { a: first, b: second, shopId } = await sharedShop();
    // One shop of user 7, one chat; the marketplace's chat as both instances read it.
    const messages: { message_id: string; user: { type: string }; data: string[]; created_at: string; is_read: boolean }[] = [];
    const say = (id: number) => messages.push({ message_id: String(id), user: { type: 'Customer' }, data: [`hello ${id}`], created_at: '2025-06-10T08:00:00Z', is_read: false });
    const chatListCalls = { first: 0, second: 0 };
    const pushes: Array<[string, number, string]> = [];
    const instance = (name: 'first' | 'second', database: Database) =>
      createBuyerChatWatcher({
        service: {
          shopsOf: async () => [{ id: shopId, user_id: 7, status: 'active' }],
          fetchChats: async () => {
            chatListCalls[name] += 1;
            return [{ chatId: 'c1', unread: messages.length, lastMessageId: messages.at(-1)?.message_id ?? '0' }];
          },
          clientOf: () => ({ chatHistory: async () => ({ messages: [...messages].reverse() }) }),
        } as unknown as BuyerChatService,
        onlineUserIds: () => [7],
        push: (userId, message) => pushes.push([name, userId, message.type === 'chat.buyerMessage' ? message.message.id : message.type]),
        log: { error: () => undefined },
        intervalMs: 0,
        leases: createLeases(database),
        database,
      });
    const watchers = { first: instance('first', first), second: instance('second', second) };
    const both = () => Promise.all([watchers.first.tick(), watchers.second.tick()]);

    await both(); // the poller takes stock
    say(1);
    await both();
    say(2);
    say(3);
    await both();
    expect(pushes.map(([, , id]) => id)).toEqual(['1', '2', '3']);
    const poller = pushes[0]![0] as 'first' | 'second';
    expect(new Set(pushes.map(([name]) => name))).toEqual(new Set([poller]));
    expect(chatListCalls[poller === 'first' ? 'second' : 'first']).toBe(0);

    // The poller stops (its server shuts down) and buyers write before the other's next tick: it takes over from
    // where the first one got to, so those messages are pushed too, once.
    await watchers[poller].stop();
    const other = poller === 'first' ? 'second' : 'first';
    say(4);
    say(5);
    await watchers[other].tick();
    expect(pushes.slice(3)).toEqual([
      [other, 7, '4'],
      [other, 7, '5'],
    ]);
    say(6);
    await watchers[other].tick();
    await watchers[other].tick();
    expect(pushes.slice(5)).toEqual([[other, 7, '6']]);
    await watchers[other].stop();
  });
});

describe.skipIf(!url)('the price guard across instances on one PostgreSQL', () => {
  it('both instances\' guard jobs at once, a slow marketplace: a product below the floor is removed and logged once', async () => {
    const databaseUrl = await sharedDatabase();
    // One marketplace both instances talk to (Ozon is one too).
    const sim = createOzonSimulator({ ordersPerShop: 50, productsPerShop: 100, control: { latencyMs: 20, labelReadyDelayMs: 0, taskDelayMs: 0 } });
    const jobs: PriceGuardJob[] = [];
    const [a, b] = await Promise.all(
      [0, 1].map(async () => {
        const database = await open(databaseUrl);
        await database.exclusive('startup', async () => {
          await database.migrate();
          await seedDemoUsers(database.db);
        });
        const app = await buildApp(testConfig(), {
          database,
          logger: false,
          marketplace: { simulator: sim },
          promotions: { guardIntervalMs: 0, onGuardJob: (job) => jobs.push(job) },
        });
        cleanups.push(() => app.close());
        await app.ready();
        return app;
      }),
    );
    const seller = await login(a!, 'seller', 'seller123');
    const post = async <T>(app: FastifyInstance, path: string, payload: object) => {
      const response = await app.inject({ method: 'POST', url: path, headers: seller.headers, payload });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ data: T }>().data;
    };
    const store = await post<{ id: number }>(a!, '/api/store/add', { name: 'shop', clientId: '1001', apiKey: 'sim-key-1001' });
    const promotions = sim.shop('1001').areas.promotions;
    const action = promotions.actions[0]!;
    for (const id of [...action.participating.keys()]) action.participating.delete(id);
    const productId = [...action.candidates][3]!;
    await post(b!, '/api/priceGuard/set', { storeId: store.id, enabled: true, mode: 'absolute', minPrice: 100, marginPercent: 0 });
    const deactivate = vi.spyOn(promotions, 'actionDeactivate');
    const logged = () => a!.database.query<{ product_id: string; outcome: string }>(`select product_id, outcome from price_guard_log where shop_id = $1 order by id`, [store.id]);

    // The scheduled jobs of both instances at once.
    promotions.autoJoin(action.id, productId, 40);
    await Promise.all(jobs.map((job) => job.tick()));
    expect(action.participating.has(productId)).toBe(false);
    expect(deactivate).toHaveBeenCalledTimes(1);
    expect(await logged()).toEqual([{ product_id: String(productId), outcome: 'removed' }]);

    // A run by hand on each instance at once (two sellers' pages, two instances behind the load balancer).
    const second = [...action.candidates][4]!;
    promotions.autoJoin(action.id, second, 45);
    await Promise.all([a!, b!].map((app) => post(app, '/api/priceGuard/run', { storeId: store.id })));
    expect(action.participating.has(second)).toBe(false);
    expect(deactivate).toHaveBeenCalledTimes(2);
    expect((await logged()).map((row) => row.product_id)).toEqual([String(productId), String(second)]);
  });
});

/**
 * A marketplace whose warehouse list answers in pages of two, each page's records marked with `by`; `hold` makes the
 * next page wait until released (a slow marketplace page).
 */
function slowMarketplace(by: string) {
  let held: Promise<void> | null = null;
  let release = () => undefined as void;
  const client = {
    async warehouseList({ cursor }: { cursor?: string }) {
      if (held) await held;
      const page = Number(cursor ?? '0');
      return {
        warehouses: [1, 2].map((n) => ({ warehouse_id: page * 2 + n, name: `${by} ${page}` })),
        cursor: String(page + 1),
        has_next: page < 2,
      };
    },
  } as unknown as OzonClient;
  return {
    client,
    hold() {
      held = new Promise<void>((resolve) => (release = resolve));
    },
    release: () => {
      held = null;
      release();
    },
  };
}

async function sharedShop(): Promise<{ a: Database; b: Database; shopId: number }> {
  const databaseUrl = await sharedDatabase({ migrated: true });
  const [a, b] = await Promise.all([open(databaseUrl), open(databaseUrl)]);
  await a!.migrate();
  await seedDemoUsers(a!.db);
  const [shop] = await a!.query<{ id: number }>(
    `insert into mp_shops (user_id, name, client_id, api_key_enc) select id, 'shop', '1001', 'unused' from users where username = 'seller' returning id`,
  );
  return { a: a!, b: b!, shopId: shop!.id };
}

const warehouses = (database: Database, shopId: number) =>
  database.query<{ id: string; by: string }>(`select external_id as id, data->>'name' as by from mp_records where shop_id = $1 and entity = 'warehouses' order by external_id::int`, [shopId]);

describe.skipIf(!url)('sync jobs across instances on one PostgreSQL', () => {
  it('two instances starting a job at once: one runs it, the other finds it busy', async () => {
    const { a, b, shopId } = await sharedShop();
    // Both marketplaces hang on their first page, so the winner is still running when the other tries, however the
    // two calls are scheduled (on a loaded machine one could otherwise finish before the other started).
    const [slowA, slowB] = [slowMarketplace('a'), slowMarketplace('b')];
    slowA.hold();
    slowB.hold();
    const runs = [syncEntity(a, shopId, slowA.client, 'warehouses'), syncEntity(b, shopId, slowB.client, 'warehouses')];
    const first = await Promise.race(runs);
    expect(first.status).toBe('busy');
    slowA.release();
    slowB.release();
    const results = await Promise.all(runs);
    expect(results.map((r) => r.status).sort()).toEqual(['busy', 'done']);
    expect(await warehouses(a, shopId)).toHaveLength(6);
  });

  it('a page slower than the lease: the running instance keeps renewing it, so the other never runs the job too', async () => {
    const { a, b, shopId } = await sharedShop();
    const slow = slowMarketplace('a');
    slow.hold();
    const running = syncEntity(a, shopId, slow.client, 'warehouses', { leaseMs: 300 });
    // Three leases' time of tries from the other instance, while the first page hangs.
    for (let i = 0; i < 9; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await syncEntity(b, shopId, slowMarketplace('b').client, 'warehouses', { leaseMs: 300 })).status).toBe('busy');
    }
    slow.release();
    expect(await running).toMatchObject({ status: 'done', stored: 6 });
  });

  it('a lease that ran out while its owner still worked: the other instance takes over, the first one\'s late writes are refused', async () => {
    const { a, b, shopId } = await sharedShop();
    const slow = slowMarketplace('a');
    // The first instance stores page 0, then hangs on page 1 (its process stalled: no renewals) ...
    let pages = 0;
    const first = syncEntity(a, shopId, slow.client, 'warehouses', {
      onProgress: () => {
        if (++pages === 1) slow.hold();
      },
    });
    await vi.waitFor(() => expect(pages).toBe(1));
    // ... until the lease ran out in the other instance's eyes (its clock a lease and more ahead): it takes the job
    // over, resumes from the saved cursor, and finishes.
    const later = () => new Date(Date.now() + 61_000);
    expect(await syncEntity(b, shopId, slowMarketplace('b').client, 'warehouses', { now: later })).toMatchObject({ status: 'done', stored: 6 });
    slow.release();
    // The first instance's page 1 is refused: it stops, and what the second stored stays.
    expect(await first).toMatchObject({ status: 'lost' });
    expect(await warehouses(a, shopId)).toEqual([
      { id: '1', by: 'a 0' },
      { id: '2', by: 'a 0' },
      { id: '3', by: 'b 1' },
      { id: '4', by: 'b 1' },
      { id: '5', by: 'b 2' },
      { id: '6', by: 'b 2' },
    ]);
    const [job] = await a.query(`select status, cursor, done, generation from mp_sync_jobs where shop_id = $1 and entity = 'warehouses'`, [shopId]);
    expect(job).toEqual({ status: 'done', cursor: null, done: 6, generation: 2 });
  });
});

/**
 * One instance's sync service on `database` for the shop of sharedShop(): its warehouse list is `slow` (held on
 * demand), its chat list counts the calls into `chatCalls`.
 */
function syncInstance(database: Database, slow: ReturnType<typeof slowMarketplace>, chatCalls: string[], name: string): SyncService {
  const client = Object.assign(Object.create(slow.client) as OzonClient, {
    async chatList() {
      chatCalls.push(name);
      return { chats: [{ chat: { chat_id: 'c1' } }], cursor: '', has_next: false };
    },
  });
  return createSyncService({ database, secretKey: SYNC_KEY, clientFor: () => client, push: () => undefined, log: { error: () => undefined } });
}

const SYNC_KEY = Buffer.alloc(32, 7);

/** The shop's key readable by syncInstance(), and every entity but `due` synced just now (not due for a while). */
async function onlyDue(database: Database, shopId: number, due: SyncEntity[]): Promise<void> {
  await database.query(`update mp_shops set api_key_enc = $2 where id = $1`, [shopId, encryptSecret(SYNC_KEY, 'key')]);
  await database.query(
    `insert into mp_sync_jobs (shop_id, entity, status, finished_at, generation) select $1, e, 'done', now(), 1 from unnest($2::text[]) as e`,
    [shopId, SYNC_ENTITIES.filter((entity) => !due.includes(entity))],
  );
}

const jobOf = async (database: Database, shopId: number, entity: SyncEntity) =>
  (await database.query<{ status: string; generation: number }>(`select status, generation from mp_sync_jobs where shop_id = $1 and entity = $2`, [shopId, entity]))[0];

describe.skipIf(!url)('the sync scheduler across instances on one PostgreSQL', () => {
  it('a job found due that another instance ran meanwhile is not run again right after', async () => {
    const { a, b, shopId } = await sharedShop();
    await onlyDue(a, shopId, ['warehouses', 'chats']);
    const chatCalls: string[] = [];
    const [slowA, slowB] = [slowMarketplace('a'), slowMarketplace('b')];
    const [syncA, syncB] = [syncInstance(a, slowA, chatCalls, 'a'), syncInstance(b, slowB, chatCalls, 'b')];
    const [schedulerA, schedulerB] = [createSyncScheduler(a, syncA, { tickMs: 60_000 }), createSyncScheduler(b, syncB, { tickMs: 60_000 })];
    // The first instance finds warehouses and chats due and starts on warehouses, whose first page hangs ...
    slowA.hold();
    expect(await schedulerA.tick()).toEqual([shopId]);
    await vi.waitFor(async () => expect(await jobOf(a, shopId, 'warehouses')).toMatchObject({ status: 'running' }));
    // ... meanwhile the second finds chats due (warehouses is running) and syncs them.
    expect(await schedulerB.tick()).toEqual([shopId]);
    await vi.waitFor(() => expect(syncB.busyShops()).toEqual([]));
    expect(await jobOf(b, shopId, 'chats')).toEqual({ status: 'done', generation: 1 });
    // The first instance's warehouses finish; its chats, done a moment ago, are left alone.
    slowA.release();
    await vi.waitFor(() => expect(syncA.busyShops()).toEqual([]));
    expect(await jobOf(a, shopId, 'warehouses')).toMatchObject({ status: 'done' });
    expect(chatCalls).toEqual(['b']);
    expect(await jobOf(a, shopId, 'chats')).toEqual({ status: 'done', generation: 1 });
    // A sync asked for by hand still runs them.
    await syncA.runShop(shopId, ['chats']);
    expect(chatCalls).toEqual(['b', 'a']);
  });

  it('a run whose instance was killed is taken over as its lease ends, not a tick later', async () => {
    const { a, shopId } = await sharedShop();
    await onlyDue(a, shopId, ['warehouses']);
    // Left by an instance killed mid-run: running, its lease (renewed a moment before the kill) still counting down.
    const leaseEnd = Date.now() + 700;
    await a.query(
      `insert into mp_sync_jobs (shop_id, entity, status, owner, generation, lease_until, cursor, done)
       values ($1, 'warehouses', 'running', 'killed', 3, $2::timestamptz, $3::jsonb, 2)`,
      [shopId, new Date(leaseEnd).toISOString(), JSON.stringify({ page: '1', done: 2 })],
    );
    const chatCalls: string[] = [];
    const slow = slowMarketplace('a');
    let firstCall: number | null = null;
    const warehouseList = slow.client.warehouseList.bind(slow.client);
    Object.assign(slow.client, { warehouseList: (input: Parameters<typeof warehouseList>[0]) => ((firstCall ??= Date.now()), warehouseList(input)) });
    const sync = syncInstance(a, slow, chatCalls, 'a');
    // A tick far longer than the lease: the takeover comes from looking again as the lease ends.
    const scheduler = createSyncScheduler(a, sync, { tickMs: 60_000 });
    scheduler.start();
    cleanups.push(async () => {
      scheduler.stop();
      await sync.stop();
    });
    await vi.waitFor(async () => expect(await jobOf(a, shopId, 'warehouses')).toEqual({ status: 'done', generation: 4 }), { timeout: 5_000 });
    expect(firstCall).toBeGreaterThanOrEqual(leaseEnd);
    expect(firstCall! - leaseEnd).toBeLessThan(2_000);
    // Resumed from the killed run's cursor: pages 1 and 2, four warehouses more.
    expect(await warehouses(a, shopId)).toHaveLength(4);
    // With the default lease, a killed run is resumed well within a minute.
    expect(DEFAULT_LEASE_MS).toBeLessThanOrEqual(45_000);
  });
});

describe.skipIf(!url)('two server processes on one PostgreSQL', () => {
  it('started at once, both serve; a notice published on one reaches a page connected to the other', async () => {
    const databaseUrl = await sharedDatabase();
    const [first, second] = await Promise.all([serverProcess(databaseUrl, cleanups), serverProcess(databaseUrl, cleanups)]);
    await Promise.all([first.healthy(), second.healthy()]);
    const [a, b] = [first.base, second.base];
    // The first administrator was created once, by whichever started first; the other found it.
    const { uuid } = ((await (await fetch(`${a}/api/captchaImage`)).json()) as { data: { uuid: string } }).data;
    const answer = await fetch(`${b}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'Admin12345', uuid, code: TEST_CAPTCHA }),
    });
    // A captcha made on one instance is answered on the other (one SECRET_KEY, one database).
    expect(answer.status).toBe(200);
    const admin = ((await answer.json()) as { data: { token: string; id: number } }).data;

    const frames: PushMessage[] = [];
    // The ticket is asked for on one instance and used on the other, as a load balancer may send them.
    const ticket = await fetch(`${a}/api/ws/ticket`, { method: 'POST', headers: { [AUTH_HEADERS.token]: admin.token, [AUTH_HEADERS.userId]: String(admin.id) } });
    const { data } = (await ticket.json()) as { data: { ticket: string } };
    const ws = new WebSocketClient(`${b.replace('http', 'ws')}/api/ws?ticket=${encodeURIComponent(data.ticket)}`);
    cleanups.push(async () => ws.terminate());
    ws.on('message', (data) => frames.push(pushMessageSchema.parse(JSON.parse(String(data)))));
    await vi.waitFor(() => expect(frames).toEqual([{ type: 'hello', userId: admin.id }]), { timeout: 10_000 });

    const published = await fetch(`${a}/api/notice/add`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [AUTH_HEADERS.token]: admin.token, [AUTH_HEADERS.userId]: String(admin.id) },
      body: JSON.stringify({ text: '两个实例' }),
    });
    expect(published.status).toBe(200);
    await vi.waitFor(() => expect(frames.slice(1)).toEqual([{ type: 'notice', notice: expect.objectContaining({ text: '两个实例' }) }]), { timeout: 10_000 });
  }, 150_000);
});
