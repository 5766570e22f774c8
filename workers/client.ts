import { wrap, type Endpoint, type ProxyMethods } from 'comlink';
import type { DataApi } from './api';

/**
 * The app's handle on the data worker. Comlink's `Remote<DataApi>` would type the nested areas (`api.session`) as
 * promises of objects, although `api.session.login(...)` works at run time; every DataApi method already returns a
 * promise of plain data, so the DataApi type itself is what the page sees (plus Comlink's release).
 */
export type DataClient = DataApi & ProxyMethods;

export function createDataClient(): DataClient {
  // Rspack bundles the worker only when `new URL(..., import.meta.url)` is written inline in `new Worker(...)`.
  return wrap<DataApi>(new Worker(new URL('./data.worker.ts', import.meta.url), { type: 'module', name: 'data' })) as unknown as DataClient;
}

/** For tests and other hosts: wraps an api exposed on the other end of a MessageChannel. */
export function connectDataApi(port: Endpoint): DataClient {
  return wrap<DataApi>(port) as unknown as DataClient;
}
