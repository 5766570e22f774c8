import { archiveResultSchema, deletedCountSchema, storeListSchema, storeSchema, syncStartedSchema } from '../contract/store';
import type { StoreApi } from './api';
import type { HttpClient } from './http/client';

/** The spec's archive calls: 1 retry after 800 ms, 10 s timeout (seller-tool §7). */
const ARCHIVE_CALL = { timeout: 10_000, retries: 1, retryDelay: 800 } as const;

/**
 * Shops (seller-tool §7 "Shops"), sync triggers and the one-click archives. Adding and editing are silent: the key
 * check's refusal is shown in the dialog itself, next to the field to fix, not as a passing message.
 */
export function createStoreApi(client: HttpClient): StoreApi {
  return {
    list: () => client.request('/store/list', { method: 'GET', schema: storeListSchema }),
    add: (body) => client.request('/store/add', { method: 'POST', body, silent: true, retries: 0, schema: storeSchema }),
    update: (body) => client.request('/store/update', { method: 'POST', body, silent: true, retries: 0, schema: storeSchema }),
    remove: (id) => client.request('/store/delete', { method: 'POST', body: { id }, schema: deletedCountSchema }),
    multiDelete: (ids) => client.request('/store/multiDelete', { method: 'POST', body: { ids }, schema: deletedCountSchema }),
    apply: (id) => client.request('/store/apply', { method: 'POST', body: { id }, schema: storeSchema }),
    syncNow: (id) => client.request('/store/sync', { method: 'POST', body: { id }, schema: syncStartedSchema }),
    removeDownToArch: (id) => client.request('/removeDownToArch', { method: 'POST', body: { id }, ...ARCHIVE_CALL, schema: archiveResultSchema }),
    removeFailToArch: (id) => client.request('/removeFailToArch', { method: 'POST', body: { id }, ...ARCHIVE_CALL, schema: archiveResultSchema }),
  };
}
