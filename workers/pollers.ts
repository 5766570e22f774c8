import { SESSION_ENDPOINTS, type LoginCheckBody } from '../contract/session';
import { LOGIN_CHECK_INTERVAL_MS, NOTICE_CHECK_INTERVAL_MS, type PollerApi, type PollerName } from './api';
import type { EventBus } from './events';
import type { HttpClient } from './http/client';

export type PollerTimer = {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
};

/** Looked up at call time so that vitest's fake timers, installed after import, are the ones used. */
export const globalTimer: PollerTimer = {
  setInterval: (callback, ms) => globalThis.setInterval(callback, ms),
  clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
};

type Poller = { handle: unknown; check: () => Promise<void>; controller: AbortController | null };

export type PollerDeps = { client: HttpClient; events: EventBus; timer?: PollerTimer };

/**
 * The login check (75 s) and the notice check (65 s). A start schedules the first check one interval later, as the
 * original did; `runNow` checks at once. Failures are kept quiet: a network blip must not end anyone's session,
 * and the next tick tries again.
 */
export function createPollers({ client, events, timer = globalTimer }: PollerDeps): PollerApi {
  const pollers = new Map<PollerName, Poller>();

  const stop = (name: PollerName) => {
    const poller = pollers.get(name);
    if (!poller) return;
    pollers.delete(name);
    timer.clearInterval(poller.handle);
    poller.controller?.abort();
  };

  const start = (name: PollerName, call: (signal: AbortSignal) => Promise<void>, intervalMs: number) => {
    stop(name);
    const poller: Poller = {
      handle: undefined,
      controller: null,
      check: async () => {
        // A check still in flight is cancelled by the next one through the path's cancel key; this controller
        // covers `stop`, so that no answer arrives after it.
        const controller = new AbortController();
        poller.controller = controller;
        try {
          await call(controller.signal);
        } catch {
          // See above: pollers report answers, not failures.
        } finally {
          if (poller.controller === controller) poller.controller = null;
        }
      },
    };
    poller.handle = timer.setInterval(() => void poller.check(), intervalMs);
    pollers.set(name, poller);
  };

  const isCurrent = (name: PollerName, signal: AbortSignal) => !signal.aborted && pollers.has(name);

  return {
    async startLoginCheck(body: LoginCheckBody) {
      start(
        'loginCheck',
        async (signal) => {
          const data = await client.call(SESSION_ENDPOINTS.loginCheck, body, { signal });
          if (isCurrent('loginCheck', signal)) events.emit('session.loginChecked', { valid: data === 1 });
        },
        LOGIN_CHECK_INTERVAL_MS,
      );
    },
    async startNoticeCheck() {
      start(
        'noticeCheck',
        async (signal) => {
          const notice = await client.call(SESSION_ENDPOINTS.noticeCheck, undefined, { signal });
          if (isCurrent('noticeCheck', signal)) events.emit('notice.checked', { notice });
        },
        NOTICE_CHECK_INTERVAL_MS,
      );
    },
    async runNow(name) {
      await pollers.get(name)?.check();
    },
    async stop(name) {
      stop(name);
    },
    async stopAll() {
      for (const name of [...pollers.keys()]) stop(name);
    },
  };
}
