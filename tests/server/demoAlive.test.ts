import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { BuyerReplyWindow, ChatHistoryData, ChatListData } from '../../contract/chat';
import type { Store } from '../../contract/store';
import { buildApp } from '../../server/app';
import type { Database } from '../../server/db/database';
import { seedDemoUsers } from '../../server/demo/seed';
import { seedDemoShops } from '../../server/demo/shops';
import { demoAppOptions } from '../../server/demo/start';
import { createOzonSimulator } from '../../server/marketplace/simulator/plugin';
import { ALL_DATABASE_TARGETS, firstSyncDone, login, testConfig, type DatabaseTarget, type Session } from './harness';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** The day the demo's database was first seeded. */
const FIRST_START = Date.parse('2025-06-10T08:00:00Z');

/**
 * The demo as main.ts starts it (demoAppOptions, seedDemoUsers, seedDemoShops, the sync scheduler), on a database
 * first seeded on FIRST_START and started again `aheadDays` later, then left running.
 */
// Each start syncs two shops in full, so each day is started once: a month later on PGlite, a year later on
// PostgreSQL when there is one (the demo's own database and the production one), both on PGlite without it.
const [EMBEDDED, SERVER = EMBEDDED] = ALL_DATABASE_TARGETS as [DatabaseTarget, ...DatabaseTarget[]];
const STARTS = [
  { target: EMBEDDED, kind: EMBEDDED.kind, aheadDays: 30 },
  { target: SERVER, kind: SERVER.kind, aheadDays: 365 },
];

describe.each(STARTS)(
  'the demo started $aheadDays days after its first start, on $kind',
  ({ target, aheadDays }) => {
    let time = FIRST_START + aheadDays * DAY + 7 * HOUR + 13 * 60_000;
    const now = () => new Date(time);
    let database: Database;
    let dispose: () => Promise<void>;
    let app: FastifyInstance;
    let seller: Session;

    const get = async <T>(url: string): Promise<T> => {
      const answer = await app.inject({ method: 'GET', url, headers: seller.headers });
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json<{ data: T }>().data;
    };
    const count = async (sql: string, params: unknown[] = []) => (await database.query<{ n: number }>(sql, params))[0]!.n;

    beforeAll(async () => {
      ({ database, dispose } = await target.open());
      await database.migrate();
      // The first start, long ago: accounts and shops with that day's validity and keys.
      await seedDemoUsers(database.db, new Date(FIRST_START));
      const config = testConfig();
      await seedDemoShops(database, config.secretKey, createOzonSimulator({ now: () => FIRST_START, ordersPerShop: 1, productsPerShop: 1 }));
      // Today's start.
      await seedDemoUsers(database.db, now());
      const demo = demoAppOptions(now);
      app = await buildApp(config, {
        ...demo,
        database,
        logger: false,
        marketplace: { simulatorOptions: { ...demo.marketplace?.simulatorOptions, productsPerShop: 60, control: { labelReadyDelayMs: 0 } } },
        chat: { pollMs: 0 },
        products: { reuploadIntervalMs: 0, pictureCleanupIntervalMs: 0 },
      });
      await seedDemoShops(database, config.secretKey, app.marketplace.simulator!);
      await app.ready();
      seller = await login(app, 'seller', 'seller123');
      await firstSyncDone(app, seller);
    }, 240_000);
    afterAll(async () => {
      await app?.close();
      await dispose?.();
    });

    /** Buyer chats the seller may answer now whose buyer wrote within `hours`. */
    async function answerable(hours: number) {
      const list = await get<ChatListData>('/api/chat/list');
      const found: { storeId: number; chatId: string }[] = [];
      for (const chat of list.shops.flatMap((shop) => shop.chats).filter((c) => c.chatType === 'Buyer_Seller' && c.status === 'Opened')) {
        const history = await get<ChatHistoryData>(`/api/chat/history?storeId=${chat.storeId}&chatId=${encodeURIComponent(chat.chatId)}&rows=10`);
        if (!history.messages.some((m) => m.from === 'customer' && m.createdAt > time - hours * HOUR)) continue;
        const window = await get<BuyerReplyWindow>(`/api/chat/replyWindow?storeId=${chat.storeId}&chatId=${encodeURIComponent(chat.chatId)}`);
        if (window.canReply) found.push(chat);
        if (found.length === 5) break;
      }
      return found;
    }

    const dayStart = () => Math.floor(time / DAY) * DAY;
    const awaitingPackaging = (from: number, to: number) =>
      count(`select count(*)::int as n from orders where user_id = $1 and status = 'awaiting_packaging' and shipment_date >= $2 and shipment_date < $3`, [
        seller.id,
        new Date(from),
        new Date(to),
      ]);

    it('has buyers to answer who wrote in the last hours, and takes the reply', async () => {
      const chats = await answerable(12);
      expect(chats.length).toBeGreaterThanOrEqual(3);
      const list = await get<ChatListData>('/api/chat/list');
      expect(list.totalUnread).toBeGreaterThan(0);
      const reply = await app.inject({ method: 'POST', url: '/api/sendMessage', headers: seller.headers, payload: { ...chats[0]!, text: '您好，今天发货' } });
      expect(reply.statusCode, reply.body).toBe(200);
    });

    it('has postings to pack with ship-by today and tomorrow, and some overdue', async () => {
      expect(await awaitingPackaging(dayStart(), dayStart() + DAY)).toBeGreaterThan(0);
      expect(await awaitingPackaging(dayStart() + DAY, dayStart() + 2 * DAY)).toBeGreaterThan(0);
      expect(await awaitingPackaging(0, time)).toBeGreaterThan(0);
    });

    it('has returns waiting for a decision, promotions running and starting within the week, and a key expiring within the week', async () => {
      const waiting = await count(
        `select count(*)::int as n from mp_records r join mp_shops s on s.id = r.shop_id
         where s.user_id = $1 and r.entity = 'returns' and r.data->'state'->>'state' = 'OnSellerApproval'`,
        [seller.id],
      );
      expect(waiting).toBeGreaterThan(0);
      const actions = await database.query<{ start: string; end: string }>(
        `select r.data->>'date_start' as start, r.data->>'date_end' as end from mp_records r join mp_shops s on s.id = r.shop_id where s.user_id = $1 and r.entity = 'promotions'`,
        [seller.id],
      );
      expect(actions.some((a) => Date.parse(a.start) <= time && Date.parse(a.end) > time)).toBe(true);
      expect(actions.some((a) => Date.parse(a.start) > time && Date.parse(a.start) <= time + 7 * DAY)).toBe(true);
      const stores = await get<Store[]>('/api/store/list');
      expect(stores.some((s) => s.keyExpiresAt !== null && s.keyExpiresAt > time && s.keyExpiresAt <= time + 7 * DAY)).toBe(true);
      expect(stores.every((s) => s.keyExpiresAt !== null && s.keyExpiresAt > time)).toBe(true);
    });

    it('keeps making postings and buyer messages as the days go by', async () => {
      time += 3 * DAY + 5 * HOUR;
      seller = await login(app, 'seller', 'seller123');
      const stores = await get<Store[]>('/api/store/list');
      await Promise.all(stores.map((store) => app.sync.runShop(store.id)));
      const fresh = await count(`select count(*)::int as n from orders where user_id = $1 and status = 'awaiting_packaging' and in_process_at > $2`, [seller.id, new Date(time - DAY)]);
      expect(fresh).toBeGreaterThan(0);
      expect(await awaitingPackaging(dayStart() + DAY, dayStart() + 2 * DAY)).toBeGreaterThan(0);
      // Nobody packed the postings of three days ago: overdue, not more than Ozon leaves before cancelling them.
      expect(await awaitingPackaging(0, time)).toBeGreaterThan(0);
      expect(await awaitingPackaging(0, time - 2 * DAY)).toBe(0);
      expect((await answerable(6)).length).toBeGreaterThanOrEqual(1);
    });
  },
);
