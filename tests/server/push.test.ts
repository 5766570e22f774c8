import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { PUSH_TICKET_TTL_S, pushMessageSchema, type PushMessage } from '../../contract/push';
import { DATABASE_TARGETS, login, pushUrl, startTestApp, type TestApp } from './harness';

/** Collects frames from the moment the socket is created, so the greeting is not missed. */
function collect(ws: WebSocket) {
  const frames: PushMessage[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (data) => {
    frames.push(pushMessageSchema.parse(JSON.parse(String(data))));
    waiters.splice(0).forEach((wake) => wake());
  });
  const next = async (count: number) => {
    while (frames.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    return frames.slice(0, count);
  };
  return { next };
}

describe.each(DATABASE_TARGETS)('WebSocket push on $kind', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target);
    await t.app.ready();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('opens only with a fresh single-use ticket asked for with a valid token; a token in the URL opens nothing', async () => {
    const seller = await login(t.app, 'seller', 'seller123');
    // The old way, the access token in the query string (where proxies log it), is refused.
    await expect(t.app.injectWS(`/api/ws?token=${encodeURIComponent(seller.token)}&userId=${seller.id}`)).rejects.toThrow(/402/);
    await expect(t.app.injectWS('/api/ws?ticket=bogus')).rejects.toThrow(/402/);
    const noTicket = await t.app.inject({ method: 'POST', url: '/api/ws/ticket', headers: { 'x-token': 'bogus', 'x-user-id': String(seller.id) } });
    expect(noTicket.statusCode).toBe(402);

    const url = await pushUrl(t.app, seller);
    const ws = await t.app.injectWS(url);
    // Used once: the same ticket opens nothing more.
    await expect(t.app.injectWS(url)).rejects.toThrow(/402/);
    ws.terminate();

    const late = await pushUrl(t.app, seller);
    t.clock.advance(PUSH_TICKET_TTL_S * 1000 + 1000);
    await expect(t.app.injectWS(late)).rejects.toThrow(/402/);
    // Expired tickets do not pile up: the next issue clears them.
    await pushUrl(t.app, seller);
    const rows = await t.database.query<{ n: number }>(`select count(*)::int as n from push_tickets where expires_at < $1`, [t.clock.now()]);
    expect(rows[0]?.n).toBe(0);
  });

  it('a ticket of a session that ended meanwhile opens nothing', async () => {
    const session = await login(t.app, 'newbie', 'newbie123');
    const url = await pushUrl(t.app, session);
    await t.app.inject({ method: 'POST', url: '/api/logout', headers: session.headers, payload: {} });
    await expect(t.app.injectWS(url)).rejects.toThrow(/402/);
  });

  it('greets, then delivers a message pushed to the user and a broadcast, but not another user\'s', async () => {
    const seller = await login(t.app, 'seller', 'seller123');
    const analyst = await login(t.app, 'analyst', 'analyst123');
    let sellerFrames!: ReturnType<typeof collect>;
    let analystFrames!: ReturnType<typeof collect>;
    const sellerWs = await t.app.injectWS(await pushUrl(t.app, seller), {}, { onInit: (ws) => (sellerFrames = collect(ws)) });
    const analystWs = await t.app.injectWS(await pushUrl(t.app, analyst), {}, { onInit: (ws) => (analystFrames = collect(ws)) });
    expect(await sellerFrames.next(1)).toEqual([{ type: 'hello', userId: seller.id }]);
    await analystFrames.next(1);

    const notice = { type: 'notice', notice: { text: '系统维护', updateTime: '2025-06-10 16:00:00' } } as const;
    expect(t.app.push.toUser(seller.id, notice)).toBe(1);
    expect((await sellerFrames.next(2))[1]).toEqual(notice);

    expect(t.app.push.broadcast(notice)).toBe(2);
    expect((await analystFrames.next(2))[1]).toEqual(notice);
    expect((await sellerFrames.next(3))[2]).toEqual(notice);
    sellerWs.terminate();
    analystWs.terminate();
  });

  it('closes the socket when its session logs out', async () => {
    const session = await login(t.app, 'newbie', 'newbie123');
    const ws = await t.app.injectWS(await pushUrl(t.app, session));
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    await t.app.inject({ method: 'POST', url: '/api/logout', headers: session.headers, payload: {} });
    expect(await closed).toBe(4001);
  });
});
