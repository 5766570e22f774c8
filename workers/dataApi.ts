import type { DataApi } from './api';
import { createEventBus, type EventBus } from './events';
import { HttpClient } from './http/client';
import { createPollers, type PollerTimer } from './pollers';
import { createSessionApi } from './session';

export type WorkerCoreOptions = {
  fetch?: typeof fetch;
  /** '' in the browser: the worker calls its page's own origin. */
  baseUrl?: string;
  random?: () => number;
};

/** What every area of the worker builds on: one client (one set of credentials, one refresh) and one event bus. */
export type WorkerCore = { client: HttpClient; events: EventBus };

export function createWorkerCore(options: WorkerCoreOptions = {}): WorkerCore {
  const events = createEventBus();
  const client = new HttpClient({ events, fetch: options.fetch, baseUrl: options.baseUrl ?? '', random: options.random });
  return { client, events };
}

export type DataApiOptions = { timer?: PollerTimer };

/** The worker's whole surface, composed per area. Areas are added here as they are built. */
export function createDataApi(core: WorkerCore, options: DataApiOptions = {}) {
  return {
    session: createSessionApi(core.client),
    pollers: createPollers({ client: core.client, events: core.events, timer: options.timer }),
    subscribe: core.events.subscribe,
  } satisfies DataApi;
}
