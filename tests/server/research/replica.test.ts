import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../../server/app';
import { openPostgres } from '../../../server/db/database';
import { seedDemoUsers } from '../../../server/demo/seed';
import { generateMarket } from '../../../server/areas/research/generate';
import { tcpProxy } from '../../support/tcpProxy';
import { createPostgresDatabase, login, testConfig } from '../harness';

/**
 * A read replica (DATABASE_READ_URL) that is away does not stop the server: research reads the primary meanwhile
 * and the replica again once it answers. The replica is the test's database behind a proxy the test cuts, so which
 * one a query read is seen by the connections made through the proxy. PostgreSQL only.
 */
const url = process.env.TEST_DATABASE_URL;
if (!url) console.warn('replica.test.ts: skipped, TEST_DATABASE_URL is not set (a read replica is a PostgreSQL server)');

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.skipIf(!url)('a read replica that is away', () => {
  it('starts without it, reads the primary, and reads the replica again once it is back', async () => {
    const created = await createPostgresDatabase(url!);
    cleanups.push(() => created.drop());
    const database = await openPostgres(created.url);
    cleanups.push(() => database.close());
    await seedDemoUsers(database.db);
    await generateMarket(database, { products: 50 });
    const target = new URL(created.url);
    const replica = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    cleanups.push(() => replica.close());
    await replica.cut();

    const app = await buildApp(testConfig({ DATABASE_URL: created.url, DATABASE_READ_URL: replica.url(created.url) }), { database, logger: false });
    cleanups.push(() => app.close());
    await app.ready();
    const analyst = await login(app, 'analyst', 'analyst123');
    const research = async () => {
      const answer = await app.inject({ method: 'POST', url: '/api/search/hotProductPro', headers: analyst.headers, payload: {} });
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json<{ data: { rows: unknown[] } }>().data.rows.length;
    };
    expect(await research()).toBeGreaterThan(0);
    expect(replica.accepted()).toBe(0);

    await replica.restore();
    // Its probe finds it back within its longest wait (5 s); then research goes there.
    await vi.waitFor(async () => {
      expect(await research()).toBeGreaterThan(0);
      expect(replica.accepted()).toBeGreaterThan(0);
    }, { timeout: 15_000, interval: 250 });

    // Away again under the running server: the query that meets it asks the primary instead of failing.
    await replica.cut();
    expect(await research()).toBeGreaterThan(0);
    expect(await research()).toBeGreaterThan(0);
  }, 60_000);
});
