import { request } from 'node:http';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { buildApp } from '../../../server/app';
import { openPostgres } from '../../../server/db/database';
import { seedDemoUsers } from '../../../server/demo/seed';
import { generateMarket } from '../../../server/areas/research/generate';
import { createPostgresDatabase, login, testConfig } from '../harness';

/**
 * A research query read from DATABASE_READ_URL's replica is cancelled on the replica when the browser goes away.
 * PostgreSQL only. The replica is the test's own database reached through a TCP forwarder of its own address, which
 * sees the cancel request pass.
 */
const url = process.env.TEST_DATABASE_URL;
if (!url) console.warn('replicaCancel.test.ts: skipped, TEST_DATABASE_URL is not set (a replica needs a PostgreSQL server)');

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** PostgreSQL's CancelRequest starts with its length (16) and the cancel code 1234 5678. */
const isCancelRequest = (first: Buffer) => first.length >= 8 && first.readInt32BE(0) === 16 && first.readInt32BE(4) === 80877102;

/** A second address of the PostgreSQL server at `target`: every connection forwarded, its cancel requests counted. */
async function forwarder(target: URL): Promise<{ port: number; cancels(): number }> {
  const sockets = new Set<Socket>();
  let cancels = 0;
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    client.once('data', (first) => void (isCancelRequest(first) && cancels++));
    client.pipe(upstream).pipe(client);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((closed) => server.close(closed));
  });
  return { port: (server.address() as AddressInfo).port, cancels: () => cancels };
}

describe.skipIf(!url)('market research on a read replica', () => {
  it('cancels a query on the replica when its request goes away, and the replica keeps answering', async () => {
    const created = await createPostgresDatabase(url!);
    cleanups.push(() => created.drop());
    const database = await openPostgres(created.url);
    cleanups.push(() => database.close());
    await seedDemoUsers(database.db);
    await generateMarket(database, { products: 200 });
    const replica = await forwarder(new URL(created.url));
    const replicaUrl = new URL(created.url);
    replicaUrl.hostname = '127.0.0.1';
    replicaUrl.port = String(replica.port);

    const app = await buildApp(testConfig({ DATABASE_URL: created.url, DATABASE_READ_URL: replicaUrl.toString() }), { database, logger: false });
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
});
