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

export function createEventBus(): EventBus {
  const listeners = new Map<Topic, Set<AnyListener>>();

  const on = <T extends Topic>(topic: T, listener: Listener<T>): (() => void) => {
    let set = listeners.get(topic);
    if (!set) {
      set = new Set();
      listeners.set(topic, set);
    }
    set.add(listener as AnyListener);
    return () => {
      listeners.get(topic)?.delete(listener as AnyListener);
    };
  };

  return {
    emit(topic, payload) {
      for (const listener of [...(listeners.get(topic) ?? [])]) {
        // A remote callback answers with a promise that rejects when its page is gone; one broken
        // subscriber must neither stop the others nor surface as an unhandled rejection in the worker.
        try {
          const result = listener(payload);
          if (result instanceof Promise) result.catch(() => undefined);
        } catch {
          // Same reason as above.
        }
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
