import {
  RETURN_ENDPOINTS as E,
  RETURN_LIST,
  type ReturnDetail,
  type ReturnFilters,
  type ReturnListPage,
  type ReturnListQuery,
  type ReturnRow,
  type RfbsActionBody,
} from '../../contract/returns';
import type { ApiFailure } from '../api';
import type { EventBus } from '../events';
import type { HttpClient } from '../http/client';
import { createListArea, receiveFrame, type ListAreaApi, type ListChangedEvent, type ListSyncProgressEvent } from '../lists/area';
import { ListCache } from '../lists/cache';
import { ListEngine, type ListEngineOptions } from '../lists/engine';
import type { ListQuery } from '../lists/types';

export type ReturnQuery = ListQuery<ReturnFilters, keyof ReturnList & string>;
type ReturnList = (typeof RETURN_LIST)['columns'];

/** Values the filter bar offers, read from the cached rows. */
export type ReturnFacets = { shops: { id: number; name: string }[]; statuses: { status: string; name: string }[]; reasons: string[] };

/**
 * The worker's `returns` area: the cached return list (workers/lists/area.ts over RETURN_LIST), kept fresh by
 * GET /api/return/sync and the 'returns.changed' push; plus one return's details, the server-paged lists (a posting's
 * returns for the order drawer) and decisions on rFBS return requests.
 */
export type ReturnsApi = ListAreaApi<ReturnRow, ReturnQuery> & {
  facets(): Promise<ReturnFacets>;
  detail(id: string): Promise<ReturnDetail>;
  /** GET /api/ozonReturnNew/list: returns of every scheme filtered by the server (a posting's returns). */
  listNew(query: ReturnListQuery): Promise<ReturnListPage>;
  /** One decision on an rFBS request; the row in the list follows at once. */
  rfbsAction(body: RfbsActionBody): Promise<ReturnDetail>;
};

export type ReturnsEvents = {
  'returns.syncProgress': ListSyncProgressEvent;
  'returns.changed': ListChangedEvent;
  'returns.syncFailed': { failure: ApiFailure };
};

export class ReturnEngine extends ListEngine<ReturnRow, ReturnQuery> {
  constructor(options: ListEngineOptions = {}) {
    super(RETURN_LIST, options);
  }
}

export type ReturnsAreaDeps = {
  client: HttpClient;
  events: Pick<EventBus, 'emit' | 'on'>;
  engine?: ListEngineOptions;
  openCache?: (userId: number) => ListCache<ReturnRow>;
};

export function createReturnsArea({ client, events, engine: engineOptions, openCache = (id) => new ListCache<ReturnRow>(RETURN_LIST, id) }: ReturnsAreaDeps): ReturnsApi {
  const engine = new ReturnEngine(engineOptions);
  const list = createListArea<ReturnRow, ReturnQuery>({
    engine,
    openCache,
    removeCache: (id) => ListCache.remove(RETURN_LIST, id),
    fetchFrame: async (request, signal) =>
      receiveFrame(RETURN_LIST, await client.call(E.sync, { ...request, format: 'binary' }, { signal }), (error) => client.contractFailure(E.sync, error, true)),
    notify: {
      changed: (event) => events.emit('returns.changed', event),
      progress: (event) => events.emit('returns.syncProgress', event),
      failed: (failure) => events.emit('returns.syncFailed', { failure }),
    },
    tabColumn: 'scheme',
    engineOptions,
  });
  events.on('push.message', ({ message }) => {
    if (message.type === 'returns.changed') list.syncSoon();
  });

  return {
    ...list.api,
    async facets() {
      const shops = engine.pairs('shopId', 'shopName').map(([id, name]) => ({ id: Number(id), name })).sort((a, b) => a.id - b.id);
      const statuses = engine.pairs('status', 'statusName').map(([status, name]) => ({ status: String(status), name }));
      const reasons = [...new Set(engine.pairs('reason', 'reason').map(([reason]) => String(reason)))].filter(Boolean).sort();
      return { shops, statuses, reasons };
    },
    detail: (id) => client.call(E.get, { id }),
    listNew: (query) => client.call(E.listNew, query),
    async rfbsAction(body) {
      // The action shows its own failure: the worker adds no toast.
      const detail = await client.call(E.rfbsAction, body, { silent: true });
      await list.afterEdit();
      return detail;
    },
  };
}
