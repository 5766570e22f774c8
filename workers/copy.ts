import {
  COPY_ENDPOINTS,
  type CopyBody,
  type CopyPreviewAnswer,
  type CopyPreviewBody,
  type CopyRecord,
  type HistoryPage,
  type HistoryQuery,
  type PriceTemplate,
  type SaveTemplateBody,
} from '../contract/copy';
import type { HttpClient } from './http/client';

/** Copying cards between shops: pricing templates, preview, copy, and the copy history (workers side of contract/copy.ts). */
export type CopyApi = {
  templates(): Promise<PriceTemplate[]>;
  saveTemplate(body: SaveTemplateBody): Promise<PriceTemplate>;
  deleteTemplate(id: number): Promise<number>;
  preview(body: CopyPreviewBody): Promise<CopyPreviewAnswer>;
  /** Silent: the copy action shows its own outcome. */
  copy(body: CopyBody): Promise<CopyRecord[]>;
  history(query: HistoryQuery): Promise<HistoryPage>;
  allHistory(query: HistoryQuery): Promise<HistoryPage>;
  /** Asks Ozon about these copies now; silent (a poll). */
  status(ids: number[]): Promise<CopyRecord[]>;
  retry(ids: number[]): Promise<CopyRecord[]>;
  remove(ids: number[]): Promise<number>;
  removeAll(): Promise<number>;
};

export function createCopyApi(client: HttpClient): CopyApi {
  const E = COPY_ENDPOINTS;
  return {
    templates: () => client.call(E.templates),
    saveTemplate: (body) => client.call(E.saveTemplate, body),
    deleteTemplate: async (id) => (await client.call(E.deleteTemplate, { id })).count,
    preview: (body) => client.call(E.preview, body),
    copy: async (body) => (await client.call(E.copy, body, { silent: true })).list,
    history: (query) => client.call(E.list, query),
    allHistory: (query) => client.call(E.allList, query),
    status: async (ids) => (await client.call(E.status, { ids })).list,
    retry: async (ids) => (await client.call(E.retry, { ids }, { silent: true })).list,
    remove: async (ids) => (await client.call(E.delete, { ids })).count,
    removeAll: async () => (await client.call(E.deleteAll)).count,
  };
}
