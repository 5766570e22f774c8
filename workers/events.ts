import { proxy, releaseProxy } from 'comlink';
import type { DataEvents, Topic, Unsubscribe } from './api';

export type Listener<T extends Topic> = (payload: DataEvents[T]) => void;

export type EventBus = {
  emit<T extends Topic>(topic: T, payload: DataEvents[T]): void;
  /** In-worker listening (pollers, other areas); returns a plain unsubscribe. */
  on<T extends Topic>(topic: T, listener: Listener<T>): () => void;
  /** The DataApi's `subscribe`: the callback arrives as a Comlink proxy and the unsubscribe goes back as one. */
  subscribe<T extends Topic>(topic: T, callback: Listener<T>): Promise<Unsubscribe>;
};

type AnyListener = (payload: unknown) => unknown;

/** A callback that came over Comlink is a remote proxy: releasing it frees its MessagePort on both sides. */
function release(callback: unknown): void {
  const releasable = callback as { [releaseProxy]?: () => void };
  try {
    releasable[releaseProxy]?.();
  } catch {
    // Already released, or the other side is gone: nothing left to free.
  }
}

/**
 * Topics whose events wait for a listener when none is there yet: a message for the user from a call made while
 * the page was starting (a reload's session check) was otherwise lost, its page not yet listening.
 */
const KEPT_UNTIL_HEARD: ReadonlySet<Topic> = new Set<Topic>(['http.message']);
const KEPT_AT_MOST = 5;
const KEPT_MS = 10_000;

export function createEventBus(options: { now?: () => number } = {}): EventBus {
  const now = options.now ?? Date.now;
  const listeners = new Map<Topic, Set<AnyListener>>();
  const unheard = new Map<Topic, { payload: unknown; at: number }[]>();

  const deliver = (listener: AnyListener, payload: unknown) => {
    // A remote callback answers with a promise that rejects when its page is gone; one broken subscriber must
    // neither stop the others nor surface as an unhandled rejection in the worker.
    try {
      const result = listener(payload);
      if (result instanceof Promise) result.catch(() => undefined);
    } catch {
      // Same reason as above.
    }
  };

  const on = <T extends Topic>(topic: T, listener: Listener<T>): (() => void) => {
    let set = listeners.get(topic);
    if (!set) {
      set = new Set();
      listeners.set(topic, set);
    }
    set.add(listener as AnyListener);
    const kept = unheard.get(topic);
    if (kept) {
      unheard.delete(topic);
      const fresh = kept.filter((event) => now() - event.at <= KEPT_MS);
      // After the subscription's own answer: the listener is in place on the other side by then.
      if (fresh.length > 0) setTimeout(() => fresh.forEach((event) => deliver(listener as AnyListener, event.payload)), 0);
    }
    return () => {
      listeners.get(topic)?.delete(listener as AnyListener);
    };
  };

  return {
    emit(topic, payload) {
      const heard = listeners.get(topic);
      if ((!heard || heard.size === 0) && KEPT_UNTIL_HEARD.has(topic)) {
        const kept = unheard.get(topic) ?? [];
        kept.push({ payload, at: now() });
        unheard.set(topic, kept.slice(-KEPT_AT_MOST));
        return;
      }
      for (const listener of [...(heard ?? [])]) {
        deliver(listener, payload);
      }
    },
    on,
    async subscribe(topic, callback) {
      const off = on(topic, callback);
      let done = false;
      return proxy(() => {
        if (done) return;
        done = true;
        off();
        release(callback);
      });
    },
  };
}
