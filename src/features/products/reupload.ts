import { fromPromise } from 'xstate';
import { REUPLOAD_MAX } from '@contract/reupload';
import type { DataClient } from '@workers/client';
import { reuploadMachine, type PrepareReuploadInput, type PrepareReuploadOutput } from '@machines/reuploadMachine';

/** The picked products a batch takes (the server refuses those under moderation with the reason), with the shops' quotas. */
export async function prepareReupload(client: DataClient, { selection }: PrepareReuploadInput): Promise<PrepareReuploadOutput> {
  const all = await client.products.rowsOf(selection.kind === 'ids' ? selection : { kind: 'all', handle: selection.handle, except: selection.except }, REUPLOAD_MAX);
  const rows = all.filter((row) => row.status !== 'moderating');
  const selected = selection.kind === 'ids' ? selection.ids.length : selection.total - selection.except.length;
  const shops = [...new Set(rows.map((row) => row.shopId))];
  const limits = shops.length ? (await client.products.limits()).filter((limit) => shops.includes(limit.shopId)) : [];
  return {
    subjects: rows.map((row) => ({ id: row.id, label: `${row.offerId} · ${row.name}`, shopId: row.shopId, offerId: row.offerId })),
    omitted: Math.max(0, selected - rows.length),
    limits,
  };
}

/** The re-upload machine with its actors on the data worker. */
export function reuploadOn(client: DataClient) {
  return reuploadMachine.provide({
    actors: {
      prepareReupload: fromPromise(({ input }) => prepareReupload(client, input)),
      startReupload: fromPromise(({ input }) => client.products.reupload(input.batchId, input.ids)),
      reuploadStatus: fromPromise(({ input }) => client.products.reuploadStatus(input.batchId)),
      retryReupload: fromPromise(({ input }) => client.products.reuploadRetry(input.batchId, input.ids)),
    },
  });
}
