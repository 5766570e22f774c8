import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DataEvents } from './api';
import { createEventBus } from './events';
import { HttpClient } from './http/client';
import { createPollers } from './pollers';
import { createFakeServer, fail, ok, type Handler } from './testing/fakeServer';

function setup(routes: Record<string, Handler>) {
  const server = createFakeServer(routes);
  const events = createEventBus();
  const loginChecks: DataEvents['session.loginChecked'][] = [];
  const notices: DataEvents['notice.checked'][] = [];
  const messages: DataEvents['http.message'][] = [];
  events.on('session.loginChecked', (payload) => loginChecks.push(payload));
  events.on('notice.checked', (payload) => notices.push(payload));
  events.on('http.message', (payload) => messages.push(payload));
  const client = new HttpClient({ events, fetch: server.fetch });
  client.setCredentials({ token: 't', userId: 1 });
  const pollers = createPollers({ client, events });
  return { server, pollers, loginChecks, notices, messages };
}

const body = { username: 'seller', auto: 'auto-1' };
const notice = { text: '系统维护', updateTime: '2025-06-05 10:00:00' };

describe('pollers', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('posts the login check every 75 s and reports whether the session is still valid', async () => {
    let answer: 0 | 1 = 1;
    const { server, pollers, loginChecks } = setup({ '/loginCheck': () => ok(answer) });
    await pollers.startLoginCheck(body);

    await vi.advanceTimersByTimeAsync(74_999);
    expect(server.to('/loginCheck')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.to('/loginCheck')).toHaveLength(1);
    expect(server.to('/loginCheck')[0]).toMatchObject({ method: 'POST', body });
    expect(loginChecks).toEqual([{ valid: true }]);

    answer = 0;
    await vi.advanceTimersByTimeAsync(75_000);
    expect(loginChecks).toEqual([{ valid: true }, { valid: false }]);
    await pollers.stopAll();
  });

  it('fetches the notice every 65 s', async () => {
    const { server, pollers, notices } = setup({ '/noticeCheck': () => ok(notice) });
    await pollers.startNoticeCheck();
    await vi.advanceTimersByTimeAsync(65_000 * 3);
    expect(server.to('/noticeCheck')).toHaveLength(3);
    expect(notices).toEqual([{ notice }, { notice }, { notice }]);
    await pollers.stopAll();
  });

  it('checks at once on runNow, and does nothing for a poller that was not started', async () => {
    const { server, pollers, loginChecks } = setup({ '/loginCheck': () => ok(1), '/noticeCheck': () => ok(null) });
    await pollers.runNow('loginCheck');
    expect(server.requests).toHaveLength(0);

    await pollers.startLoginCheck(body);
    await pollers.runNow('loginCheck');
    expect(loginChecks).toEqual([{ valid: true }]);
    await pollers.stopAll();
  });

  it('stops: no check after stop, and the other poller keeps going', async () => {
    const { server, pollers } = setup({ '/loginCheck': () => ok(1), '/noticeCheck': () => ok(null) });
    await pollers.startLoginCheck(body);
    await pollers.startNoticeCheck();
    await pollers.stop('loginCheck');
    await vi.advanceTimersByTimeAsync(150_000);
    expect(server.to('/loginCheck')).toHaveLength(0);
    expect(server.to('/noticeCheck')).toHaveLength(2);

    await pollers.stopAll();
    await vi.advanceTimersByTimeAsync(150_000);
    expect(server.to('/noticeCheck')).toHaveLength(2);
  });

  it('cancels a check still in flight when the next one starts', async () => {
    let calls = 0;
    const { server, pollers, loginChecks } = setup({ '/loginCheck': () => (++calls === 1 ? 'hang' : ok(1)) });
    await pollers.startLoginCheck(body);
    const first = pollers.runNow('loginCheck');
    await vi.advanceTimersByTimeAsync(0);
    await pollers.runNow('loginCheck');
    await first;
    expect(server.to('/loginCheck')[0]?.signal?.aborted).toBe(true);
    expect(loginChecks).toEqual([{ valid: true }]);
    await pollers.stopAll();
  });

  it('reports nothing when a check fails, and a 504 stays silent', async () => {
    const { pollers, loginChecks, notices, messages } = setup({ '/loginCheck': () => fail(504), '/noticeCheck': () => fail(504) });
    await pollers.startLoginCheck(body);
    await pollers.startNoticeCheck();
    await pollers.runNow('loginCheck');
    await pollers.runNow('noticeCheck');
    expect(loginChecks).toEqual([]);
    expect(notices).toEqual([]);
    expect(messages).toEqual([]);
    await pollers.stopAll();
  });

  it('sends no answer after stop for a check that was in flight', async () => {
    let release: () => void = () => undefined;
    const { pollers, loginChecks } = setup({
      '/loginCheck': () => new Promise((resolve) => (release = () => resolve(ok(1)))),
    });
    await pollers.startLoginCheck(body);
    const running = pollers.runNow('loginCheck');
    await vi.advanceTimersByTimeAsync(0);
    await pollers.stop('loginCheck');
    release();
    await running;
    expect(loginChecks).toEqual([]);
  });
});
