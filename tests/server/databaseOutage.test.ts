import { WebSocket } from 'ws';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { message } from '../../contract/errors';
import { tcpProxy, type TcpProxy } from '../support/tcpProxy';
import { createPostgresDatabase } from './harness';
import { processLogin, serverProcess } from './processes';

/**
 * A running server process while its PostgreSQL database goes away and comes back, seen from outside: a TCP proxy
 * between the process and the test's database is cut (every connection drops, new ones are refused: what a stop or
 * a restart of the database does to the app) and restored. The shared test cluster itself is never restarted, so
 * the other test files using it run on. PostgreSQL only.
 */
const url = process.env.TEST_DATABASE_URL;
if (!url) console.warn('databaseOutage.test.ts: skipped, TEST_DATABASE_URL is not set (the outage is of a PostgreSQL server)');

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An empty database behind a proxy the test cuts: the server process migrates it at its start. */
async function databaseBehindProxy(): Promise<{ proxy: TcpProxy; databaseUrl: string }> {
  const created = await createPostgresDatabase(url!, { empty: true });
  cleanups.push(() => created.drop());
  const target = new URL(created.url);
  const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  cleanups.push(() => proxy.close());
  return { proxy, databaseUrl: proxy.url(created.url) };
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function json(response: Response): Promise<{ code: number; msg: string; data: unknown }> {
  return (await response.json()) as { code: number; msg: string; data: unknown };
}

describe.skipIf(!url)('the database goes away under a running server', () => {
  it('keeps running, answers 503 "degraded" and the retry message meanwhile, loses the write whole, and serves again when it is back', async () => {
    const { proxy, databaseUrl } = await databaseBehindProxy();
    const server = await serverProcess(databaseUrl, cleanups);
    await server.healthy();
    const admin = await processLogin(server.base);
    const post = (path: string, body: unknown) =>
      fetch(`${server.base}/api${path}`, { method: 'POST', headers: { ...admin.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const notices = async () => {
      const answer = await json(await fetch(`${server.base}/api/notice/list?page=1&rows=50`, { headers: admin.headers }));
      return (answer.data as { list: { text: string }[] }).list.map((row) => row.text).sort();
    };
    expect((await post('/notice/add', { text: 'before' })).status).toBe(200);

    // A page open: its user is online, so the buyer-chat poller reads the database every 3 s during the outage
    // (its first read outside a try ended the process within seconds).
    const ticket = await json(await fetch(`${server.base}/api/ws/ticket`, { method: 'POST', headers: admin.headers }));
    const ws = new WebSocket(`${server.base.replace('http', 'ws')}/api/ws?ticket=${encodeURIComponent((ticket.data as { ticket: string }).ticket)}`);
    cleanups.push(async () => ws.terminate());
    await new Promise((open) => ws.once('open', open));

    await proxy.cut();
    const health = await fetch(`${server.base}/api/health`);
    expect(health.status).toBe(503);
    expect(await json(health)).toEqual({ code: 503, msg: message('databaseUnavailable', 'zh'), data: { status: 'degraded' } });
    // A write during the outage: refused with the message a user reads, in their language, and not applied.
    const refused = await fetch(`${server.base}/api/notice/add`, {
      method: 'POST',
      headers: { ...admin.headers, 'content-type': 'application/json', 'accept-language': 'zh-CN' },
      body: JSON.stringify({ text: 'during' }),
    });
    expect(refused.status).toBe(503);
    expect((await json(refused)).msg).toBe('数据库暂不可用，正在重试');
    // A read, in English.
    const read = await fetch(`${server.base}/api/notice/list?page=1&rows=50`, { headers: { ...admin.headers, 'accept-language': 'en' } });
    expect(read.status).toBe(503);
    expect((await json(read)).msg).toBe(message('databaseUnavailable', 'en'));

    // Several passes of every background loop on a short timer (the chat poller's 3 s) meet the outage.
    await sleep(8_000);
    expect(server.alive(), server.output()).toBe(true);

    await proxy.restore();
    const back = Date.now();
    await server.healthy(30_000);
    const recoveredMs = Date.now() - back;
    console.log(`databaseOutage.test.ts: serving again ${recoveredMs} ms after the database returned`);
    // The health probe reads the database itself: it answers once the first connection is made.
    expect(recoveredMs).toBeLessThan(5_000);

    // The same session goes on (nothing was lost with the connections); the refused write is not there.
    expect((await post('/notice/add', { text: 'after' })).status).toBe(200);
    expect(await notices()).toEqual(['after', 'before']);
    expect(server.output()).toMatch(/database cannot be reached/);
    expect(server.output()).not.toMatch(/uncaught exception; the server stops/);
  }, 150_000);

  it('started while the database is down, waits for it (saying so) and serves once it is up', async () => {
    const { proxy, databaseUrl } = await databaseBehindProxy();
    await proxy.cut();
    const server = await serverProcess(databaseUrl, cleanups);
    await vi.waitFor(() => expect(server.output()).toMatch(/start: the database cannot be reached .*trying again in/), { timeout: 60_000, interval: 200 });
    await sleep(2_000);
    expect(server.alive(), server.output()).toBe(true);
    expect(await fetch(`${server.base}/api/health`).catch(() => null)).toBeNull();

    await proxy.restore();
    await server.healthy();
    expect(server.output()).toMatch(/start: the database answered after/);
    await processLogin(server.base);
  }, 150_000);
});
