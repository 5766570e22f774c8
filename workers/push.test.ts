import { describe, expect, it, vi } from 'vitest';
import { createEventBus } from './events';
import { HttpClient } from './http/client';
import { createPushConnection, type PushSocket } from './push';
import type { DataEvents } from './api';

class FakeSocket implements PushSocket {
  readyState = 0;
  onopen: PushSocket['onopen'] = null;
  onclose: PushSocket['onclose'] = null;
  onmessage: PushSocket['onmessage'] = null;
  onerror: PushSocket['onerror'] = null;
  closedWith: number | null = null;
  constructor(readonly url: string) {}
  close(code?: number) {
    this.closedWith = code ?? 1000;
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  receive(data: unknown) {
    this.onmessage?.({ data: typeof data === 'string' ? data : JSON.stringify(data) } as MessageEvent);
  }
  drop(code: number) {
    this.readyState = 3;
    this.onclose?.({ code } as CloseEvent);
  }
}

function setup() {
  vi.useFakeTimers();
  const events = createEventBus();
  const fetch = vi.fn(async () => new Response(JSON.stringify({ code: 200, msg: 'ok', data: null }), { status: 200 }));
  const client = new HttpClient({ events, fetch, baseUrl: 'http://app.test' });
  const sockets: FakeSocket[] = [];
  const sessionEnded = vi.fn();
  const push = createPushConnection({
    client,
    events,
    origin: 'https://app.test',
    openSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    onSessionEnded: sessionEnded,
    random: () => 1,
  });
  client.onCredentialsChange((credentials) => push.setCredentials(credentials));
  const seen: DataEvents['push.message'][] = [];
  events.on('push.message', (payload) => seen.push(payload));
  return { events, client, fetch, sockets, sessionEnded, push, seen };
}

describe('push connection', () => {
  afterEach(() => vi.useRealTimers());

  it('opens a wss socket with the session credentials and re-emits contract messages, dropping unknown ones', () => {
    const { client, sockets, seen, push } = setup();
    client.setCredentials({ token: 'tok-1', userId: 7 });
    expect(sockets).toHaveLength(1);
    const url = new URL(sockets[0]!.url);
    expect(url.protocol).toBe('wss:');
    expect(url.pathname).toBe('/api/ws');
    expect(url.searchParams.get('token')).toBe('tok-1');
    expect(url.searchParams.get('userId')).toBe('7');

    sockets[0]!.open();
    expect(push.isOpen()).toBe(true);
    sockets[0]!.receive({ type: 'notice', notice: { text: '维护通知', updateTime: '2026-11-21 10:00:00' } });
    sockets[0]!.receive({ type: 'from-the-future', x: 1 });
    sockets[0]!.receive('not json');
    expect(seen).toEqual([{ message: { type: 'notice', notice: { text: '维护通知', updateTime: '2026-11-21 10:00:00' } } }]);
  });

  it('reconnects after a dropped connection, with backoff', () => {
    const { client, sockets } = setup();
    client.setCredentials({ token: 'tok-1', userId: 7 });
    sockets[0]!.open();
    sockets[0]!.drop(1006);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(999);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
  });

  it('does not reconnect when the server ends the session, and reports it', () => {
    const { client, sockets, sessionEnded } = setup();
    client.setCredentials({ token: 'tok-1', userId: 7 });
    sockets[0]!.open();
    sockets[0]!.drop(4001);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    expect(sessionEnded).toHaveBeenCalledTimes(1);
  });

  it('after two failed opens makes one authenticated call so an expired token gets refreshed', () => {
    const { client, sockets, fetch } = setup();
    client.setCredentials({ token: 'tok-1', userId: 7 });
    sockets[0]!.drop(1006);
    expect(fetch).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2_000);
    sockets[1]!.drop(1006);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(String((fetch.mock.calls[0] as unknown[])[0])).toContain('/api/getInfo');
  });

  it('re-opens with the new token after a refresh, and closes for good at logout', () => {
    const { client, events, sockets } = setup();
    client.setCredentials({ token: 'tok-1', userId: 7 });
    sockets[0]!.open();
    events.emit('session.tokenRefreshed', { token: 'tok-2' });
    expect(sockets[0]!.closedWith).toBe(1000);
    expect(new URL(sockets[1]!.url).searchParams.get('token')).toBe('tok-2');
    client.setCredentials(null);
    expect(sockets[1]!.closedWith).toBe(1000);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(2);
  });
});
