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
  let tickets = 0;
  /** The server: a ticket per POST /api/ws/ticket while `refuse` is empty; a refusal's status otherwise. */
  const refuse: number[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const status = refuse.shift();
    if (status) return new Response(JSON.stringify({ code: status, msg: 'no', data: null }), { status });
    const data = String(input).endsWith('/api/ws/ticket') ? { ticket: `ticket-${++tickets}`, expiresInS: 30 } : null;
    return new Response(JSON.stringify({ code: 200, msg: 'ok', data }), { status: 200 });
  });
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
  return { events, client, fetch, refuse, sockets, sessionEnded, push, seen };
}

/** Lets the ticket calls under way answer. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('push connection', () => {
  afterEach(() => vi.useRealTimers());

  it('opens a wss socket with a ticket asked for with the session token, never the token itself; re-emits contract messages', async () => {
    const { client, sockets, seen, push, fetch } = setup();
    client.setCredentials({ token: 'tok-1', userId: 7 });
    await settle();
    expect(sockets).toHaveLength(1);
    const ticketCall = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(ticketCall[0]).toBe('http://app.test/api/ws/ticket');
    expect(new Headers(ticketCall[1].headers).get('X-Token')).toBe('tok-1');
    const url = new URL(sockets[0]!.url);
    expect(url.protocol).toBe('wss:');
    expect(url.pathname).toBe('/api/ws');
    expect(url.searchParams.get('ticket')).toBe('ticket-1');
    expect(sockets[0]!.url).not.toContain('tok-1');

    sockets[0]!.open();
    expect(push.isOpen()).toBe(true);
    sockets[0]!.receive({ type: 'notice', notice: { text: '维护通知', updateTime: '2026-11-21 10:00:00' } });
    sockets[0]!.receive({ type: 'from-the-future', x: 1 });
    sockets[0]!.receive('not json');
    expect(seen).toEqual([{ message: { type: 'notice', notice: { text: '维护通知', updateTime: '2026-11-21 10:00:00' } } }]);
  });

  it('reconnects after a dropped connection, with backoff and a new ticket', async () => {
    const { client, sockets } = setup();
    client.setCredentials({ token: 'tok-1', userId: 7 });
    await settle();
    sockets[0]!.open();
    sockets[0]!.drop(1006);
    expect(sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets).toHaveLength(2);
    expect(new URL(sockets[1]!.url).searchParams.get('ticket')).toBe('ticket-2');
  });

  it('does not reconnect when the server ends the session, and reports it', async () => {
    const { client, sockets, sessionEnded } = setup();
    client.setCredentials({ token: 'tok-1', userId: 7 });
    await settle();
    sockets[0]!.open();
    sockets[0]!.drop(4001);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(1);
    expect(sessionEnded).toHaveBeenCalledTimes(1);
  });

  it('an expired token: the ticket call refreshes it and the socket opens with a ticket asked for with the new one', async () => {
    const { client, sockets, fetch } = setup();
    fetch.mockImplementationOnce(async () => new Response(JSON.stringify({ code: 402, msg: 'expired', data: null }), { status: 402 }));
    fetch.mockImplementationOnce(async () => new Response(JSON.stringify({ code: 200, msg: 'ok', data: { token: 'tok-2' } }), { status: 200 }));
    client.setCredentials({ token: 'tok-1', userId: 7 });
    await settle();
    expect((fetch.mock.calls as unknown as [string][]).map(([u]) => u)).toEqual([
      'http://app.test/api/ws/ticket',
      'http://app.test/api/refreshToken',
      'http://app.test/api/ws/ticket',
    ]);
    expect(new Headers((fetch.mock.calls[2] as unknown as [string, RequestInit])[1].headers).get('X-Token')).toBe('tok-2');
    expect(sockets).toHaveLength(1);
  });

  it('no ticket (server unreachable): tries again with backoff', async () => {
    const { client, sockets, refuse } = setup();
    refuse.push(503, 503);
    client.setCredentials({ token: 'tok-1', userId: 7 });
    await settle();
    expect(sockets).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets.length).toBeGreaterThan(0);
  });

  it('keeps an open socket across a token refresh, and closes for good at logout', async () => {
    const { client, events, sockets } = setup();
    client.setCredentials({ token: 'tok-1', userId: 7 });
    await settle();
    sockets[0]!.open();
    events.emit('session.tokenRefreshed', { token: 'tok-2' });
    await settle();
    expect(sockets[0]!.closedWith).toBeNull();
    expect(sockets).toHaveLength(1);
    client.setCredentials(null);
    expect(sockets[0]!.closedWith).toBe(1000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('a logout while the ticket is on its way opens nothing', async () => {
    const { client, sockets } = setup();
    client.setCredentials({ token: 'tok-1', userId: 7 });
    client.setCredentials(null);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(0);
  });
});
