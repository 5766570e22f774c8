import { STORE_ENDPOINTS as E } from '../contract/store';
import type { StoreApi } from './api';
import type { HttpClient } from './http/client';

/** Shops (seller-tool §7 "Shops"), sync triggers and the one-click archives; settings come from the endpoints. */
export function createStoreApi(client: HttpClient): StoreApi {
  return {
    list: () => client.call(E.list),
    add: (body) => client.call(E.add, body),
    update: (body) => client.call(E.update, body),
    remove: (id) => client.call(E.delete, { id }),
    multiDelete: (ids) => client.call(E.multiDelete, { ids }),
    apply: (id) => client.call(E.apply, { id }),
    syncNow: (id) => client.call(E.syncNow, { id }),
    removeDownToArch: (id) => client.call(E.removeDownToArch, { id }),
    removeFailToArch: (id) => client.call(E.removeFailToArch, { id }),
  };
}
