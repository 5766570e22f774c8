import {
  COLLECTION_ENDPOINTS,
  type CollectAnswer,
  type CollectBody,
  type CollectionItem,
  type CollectionPage,
  type CollectionQuery,
  type CollectionUpdate,
  type CollectionUploadBody,
  type UploadPage,
  type UploadQuery,
  type UploadRecord,
} from '../contract/collection';
import type { HttpClient } from './http/client';

/** The collection and its uploads (workers side of contract/collection.ts). */
export type CollectionApi = {
  list(query: CollectionQuery): Promise<CollectionPage>;
  update(body: CollectionUpdate): Promise<CollectionItem>;
  remove(ids: number[]): Promise<number>;
  /** Silent: the collect action shows its own outcome. */
  collect(body: CollectBody): Promise<CollectAnswer>;
  /** Silent: the upload action shows its own outcome. */
  upload(body: CollectionUploadBody): Promise<UploadRecord[]>;
  uploads(query: UploadQuery): Promise<UploadPage>;
  removeUploads(ids: number[]): Promise<number>;
  formatUrls(urls: string[], base?: string): Promise<(string | null)[]>;
};

export function createCollectionApi(client: HttpClient): CollectionApi {
  const E = COLLECTION_ENDPOINTS;
  return {
    list: (query) => client.call(E.list, query),
    update: (body) => client.call(E.update, body),
    remove: async (ids) => (await client.call(E.delete, { ids })).count,
    collect: (body) => client.call(E.collect, body, { silent: true }),
    upload: async (body) => (await client.call(E.upload, body, { silent: true })).list,
    uploads: (query) => client.call(E.uploadList, query),
    removeUploads: async (ids) => (await client.call(E.uploadDelete, { ids })).count,
    formatUrls: async (urls, base) => (await client.call(E.formatUrl, { urls, ...(base ? { base } : {}) })).urls,
  };
}
