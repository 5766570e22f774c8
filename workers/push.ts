import { PUSH_ENDPOINTS, PUSH_PATH, pushMessageSchema } from '../contract/push';
import type { Credentials } from './api';
import type { EventBus } from './events';
import type { HttpClient } from './http/client';

export type PushSocket = Pick<WebSocket, 'close' | 'readyState'> & {
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
};

export type PushDeps = {
  client: HttpClient;
  events: EventBus;
  /** The page's origin (http or https); the socket goes to the same host. */
  origin: string;
  openSocket?: (url: string) => PushSocket;
  /** Called when the server ends this session's socket (logout or password change elsewhere). */
  onSessionEnded?: () => void;
  random?: () => number;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
};

export type PushConnection = {
  /** Opens (or re-opens) the socket for these credentials; null closes it for good. */
  setCredentials(credentials: Credentials | null): void;
  isOpen(): boolean;
};

const SESSION_ENDED = 4001;
const BACKOFF_MIN_MS = 1_000;
const BACKOFF_MAX_MS = 30_000;

/**
 * The server's push channel (WebSocket at /api/ws). Every frame is checked against the contract and re-emitted on
 * the worker's bus as 'push.message', where the worker's areas (sync progress, orders, chat, notices) and the app
 * listen. Each open first asks for a single-use ticket (POST /api/ws/ticket) with the session's token, so the token
 * never travels in the socket's URL; that call is an ordinary authenticated one, so an expired token is refreshed
 * by the HTTP client on the way. The socket reconnects with capped exponential backoff and jitter.
 */
export function createPushConnection({
  client,
  events,
  origin,
  openSocket = (url) => new WebSocket(url) as unknown as PushSocket,
  onSessionEnded,
  random = Math.random,
  setTimer = (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimer = (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
}: PushDeps): PushConnection {
  let credentials: Credentials | null = null;
  let socket: PushSocket | null = null;
  let timer: unknown = null;
  let failedOpens = 0;
  let opened = false;

  /** Counts opens and closes: a ticket that arrives after its open was superseded is dropped. */
  let attempt = 0;

  const url = (ticket: string) => {
    const base = new URL(PUSH_PATH, origin);
    base.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
    base.searchParams.set('ticket', ticket);
    return base.toString();
  };

  const close = () => {
    attempt += 1;
    if (timer !== null) clearTimer(timer);
    timer = null;
    if (socket) {
      const old = socket;
      socket = null;
      old.onopen = old.onclose = old.onmessage = old.onerror = null;
      old.close(1000, 'client closing');
    }
    if (opened) events.emit('push.status', { connected: false });
    opened = false;
  };

  const scheduleReconnect = () => {
    if (!credentials || timer !== null) return;
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** Math.min(failedOpens, 5));
    timer = setTimer(() => {
      timer = null;
      open();
    }, delay / 2 + random() * (delay / 2));
  };

  const open = () => {
    if (!credentials) return;
    const mine = ++attempt;
    client.call(PUSH_ENDPOINTS.ticket, undefined).then(
      ({ ticket }) => {
        if (mine === attempt && credentials) connect(ticket);
      },
      () => {
        // No ticket (offline, server down, or the session is over: then credentials go and nothing reconnects).
        if (mine !== attempt) return;
        failedOpens += 1;
        scheduleReconnect();
      },
    );
  };

  const connect = (ticket: string) => {
    const current = openSocket(url(ticket));
    socket = current;
    current.onopen = () => {
      failedOpens = 0;
      opened = true;
      events.emit('push.status', { connected: true });
    };
    current.onmessage = (event) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(String(event.data));
      } catch {
        return;
      }
      const message = pushMessageSchema.safeParse(parsed);
      // Unknown types come from a newer server: ignore them rather than break the channel.
      if (message.success) events.emit('push.message', { message: message.data });
    };
    current.onclose = (event) => {
      if (socket !== current) return;
      socket = null;
      const wasOpen = opened;
      opened = false;
      if (wasOpen) events.emit('push.status', { connected: false });
      if (event.code === SESSION_ENDED) {
        // The server ended this session: no reconnect with a dead token; the login check decides what the page shows.
        onSessionEnded?.();
        return;
      }
      if (!wasOpen) failedOpens += 1;
      scheduleReconnect();
    };
    current.onerror = () => undefined; // onclose follows and decides
  };

  // An open socket stays open across a token refresh (it was let in once); one waiting to reconnect tries now.
  events.on('session.tokenRefreshed', ({ token }) => {
    if (!credentials) return;
    credentials = { ...credentials, token };
    if (socket || timer === null) return;
    clearTimer(timer);
    timer = null;
    failedOpens = 0;
    open();
  });

  return {
    setCredentials(next) {
      const same = next && credentials && next.token === credentials.token && next.userId === credentials.userId;
      if (same && socket) return;
      close();
      credentials = next;
      failedOpens = 0;
      if (next) open();
    },
    isOpen: () => opened,
  };
}
