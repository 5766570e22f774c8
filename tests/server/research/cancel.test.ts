import { request } from 'node:http';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { buildApp } from '../../../server/app';
import { openPostgres, QueryCancelled } from '../../../server/db/database';
import { seedDemoUsers } from '../../../server/demo/seed';
import { generateMarket } from '../../../server/areas/research/generate';
import { createPostgresDatabase, login, testConfig } from '../harness';

/**
 * How a research query is cancelled on PostgreSQL (the protocol's CancelRequest, Database.cancellableQuery), seen
 * from outside: through a TCP forwarder that gives the test's database a second address and sees the cancel
 * requests pass. PostgreSQL only.
 */
const url = process.env.TEST_DATABASE_URL;
if (!url) console.warn('cancel.test.ts: skipped, TEST_DATABASE_URL is not set (cancel requests need a PostgreSQL server)');

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** PostgreSQL's CancelRequest starts with its length (16) and the cancel code 1234 5678. */
const isCancelRequest = (first: Buffer) => first.length >= 8 && first.readInt32BE(0) === 16 && first.readInt32BE(4) === 80877102;

/**
 * A second address of the PostgreSQL server at `target`: every connection forwarded, its cancel requests counted;
 * `loseCancels` keeps them instead of passing them on (a cancel that never arrives, and is never answered).
 */
async function forwarder(target: URL, options: { loseCancels?: boolean } = {}): Promise<{ url: string; cancels(): number }> {
  const sockets = new Set<Socket>();
  let cancels = 0;
  const server = createServer((client) => {
    sockets.add(client);
    client.on('error', () => undefined);
    client.once('data', (first) => {
      if (isCancelRequest(first)) cancels++;
      if (isCancelRequest(first) && options.loseCancels) return;
      const upstream = connect(Number(target.port || 5432), target.hostname);
      upstream.write(first);
      client.pipe(upstream).pipe(client);
      join(client, upstream);
    });
  });
  const join = (client: Socket, upstream: Socket) => {
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
  };
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((closed) => server.close(closed));
  });
  const address = new URL(target);
  address.hostname = '127.0.0.1';
  address.port = String((server.address() as AddressInfo).port);
  return { url: address.toString(), cancels: () => cancels };
}

describe.skipIf(!url)('cancelling research queries on PostgreSQL', () => {
  it('cancels a query on the replica when its request goes away, and the replica keeps answering', async () => {
    const created = await createPostgresDatabase(url!);
    cleanups.push(() => created.drop());
    const database = await openPostgres(created.url);
    cleanups.push(() => database.close());
    await seedDemoUsers(database.db);
    await generateMarket(database, { products: 200 });
    const replica = await forwarder(new URL(created.url));
    const app = await buildApp(testConfig({ DATABASE_URL: created.url, DATABASE_READ_URL: replica.url }), { database, logger: false });
    cleanups.push(() => app.close());
    await app.listen({ port: 0, host: '127.0.0.1' });
    const analyst = await login(app, 'analyst', 'analyst123');

    // Holds the research query at its first read of the market: it waits for this lock until cancelled.
    const locker = new pg.Client({ connectionString: created.url });
    await locker.connect();
    cleanups.push(() => locker.end());
    await locker.query('begin');
    await locker.query('lock table market_products in access exclusive mode');
    const waiting = async () =>
      (await database.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`))[0]!.n;

    const body = JSON.stringify({});
    const browser = request({
      host: '127.0.0.1',
      port: (app.server.address() as AddressInfo).port,
      method: 'POST',
      path: '/api/search/hotProductPro',
      headers: { ...analyst.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    browser.on('error', () => undefined);
    browser.end(body);
    await vi.waitFor(async () => expect(await waiting()).toBe(1), { timeout: 15_000, interval: 50 });

    // The analyst leaves the page: the query stops in the database while the lock is still held.
    browser.destroy();
    await vi.waitFor(async () => expect(await waiting()).toBe(0), { timeout: 15_000, interval: 50 });
    expect(replica.cancels()).toBe(1);

    await locker.query('rollback');
    const again = await app.inject({ method: 'POST', url: '/api/search/hotProductPro', headers: analyst.headers, payload: {} });
    expect(again.statusCode).toBe(200);
    expect(again.json<{ data: { rows: unknown[] } }>().data.rows.length).toBeGreaterThan(0);
  });

  it('closes, not reuses, a connection whose cancel request was not seen to arrive', async () => {
    const created = await createPostgresDatabase(url!);
    cleanups.push(() => created.drop());
    const lost = await forwarder(new URL(created.url), { loseCancels: true });
    const database = await openPostgres(lost.url);
    cleanups.push(() => database.close());
    const controller = new AbortController();
    const query = database.cancellableQuery(`select pg_sleep(1), 'lost-cancel-probe'`, [], controller.signal);
    const probe = () => database.query<{ pid: number }>(`select pid from pg_stat_activity where query like '%lost-cancel-' || 'probe%'`);
    await vi.waitFor(async () => expect(await probe()).toHaveLength(1), { timeout: 15_000, interval: 50 });
    const [{ pid }] = (await probe()) as [{ pid: number }];

    controller.abort();
    await expect(query).rejects.toBeInstanceOf(QueryCancelled);
    expect(lost.cancels()).toBe(1);
    // The statement ran to its end; a cancel that may still arrive must not meet another statement on that backend.
    await vi.waitFor(async () => expect(await database.query(`select count(*)::int as n from pg_stat_activity where pid = $1`, [pid])).toEqual([{ n: 0 }]), {
      timeout: 15_000,
      interval: 50,
    });
    expect(await database.query(`select 1 as one`)).toEqual([{ one: 1 }]);
  });
});
