import { fromPromise } from 'xstate';
import { LABELS_NOT_READY_FIELD } from '@contract/orderActions';
import { CANCELLABLE_STATUSES, type OrderRow } from '@contract/orders';
import type { DataClient } from '@workers/client';
import { isApiFailure } from '@workers/api';
import {
  orderActionsMachine,
  type ActionChoice,
  type ActionSubject,
  type OrderActionKind,
  type OrderActionSelection,
  type PrepareSubjectsInput,
  type PrepareSubjectsOutput,
  type RunChunkInput,
  type RunChunkOutput,
} from '@machines/orderActionsMachine';

/**
 * The order actions' two actors on the data worker: the selection read into postings (or offers), and one chunk of
 * them sent to the matching order call. The machine (machines/orderActionsMachine.ts) decides everything else.
 */

/** Rows one action reads from a whole-result selection; more are left out and the confirm step says so. */
const MAX_ROWS: Record<OrderActionKind, number> = { ship: 10_000, tracking: 10_000, stock: 10_000, labels: 1_000, cancel: 1_000, pickingPdf: 10_000, pickingXlsx: 10_000 };
/** Rows per window call when reading a whole-result selection. */
const READ_WINDOW = 1_000;

async function selectedRows(client: DataClient, selection: OrderActionSelection, limit: number): Promise<{ rows: OrderRow[]; more: number }> {
  if (selection.kind === 'ids') {
    const rows = (await Promise.all(selection.ids.slice(0, limit).map((id) => client.orders.get(id)))).filter((row): row is OrderRow => row !== null);
    return { rows, more: Math.max(0, selection.ids.length - limit) };
  }
  const except = new Set(selection.except);
  const rows: OrderRow[] = [];
  let start = 0;
  while (start < selection.total && rows.length < limit) {
    const window = await client.orders.window(selection.handle, start, READ_WINDOW);
    for (const row of window.rows) if (!except.has(row.id) && rows.length < limit) rows.push(row);
    if (window.rows.length === 0) break;
    start += window.rows.length;
  }
  return { rows, more: Math.max(0, selection.total - selection.except.length - rows.length) };
}

/** The posting a row belongs to, as the server names it in a failure (an entered order may have no posting number). */
const postingRef = (row: OrderRow) => row.postingNumber || row.orderNumber;

/** Rows grouped into subjects by `refOf`, in the order first met. */
function group(rows: readonly OrderRow[], refOf: (row: OrderRow) => string): ActionSubject[] {
  const subjects = new Map<string, ActionSubject>();
  for (const row of rows) {
    const ref = refOf(row);
    const key = `${row.shopId}:${ref}`;
    const subject = subjects.get(key);
    if (subject) subject.rowIds.push(row.id);
    else subjects.set(key, { key, ref, shopId: row.shopId, shopName: row.shopName, rowIds: [row.id] });
  }
  return [...subjects.values()];
}

const CANCELLABLE: ReadonlySet<string> = new Set(CANCELLABLE_STATUSES);

/** The reasons every posting is offered (Ozon refuses a reason it did not offer for that posting), in Ozon's order. */
function sharedReasons(lists: readonly ActionChoice[][]): ActionChoice[] {
  const [first = [], ...rest] = lists;
  return first.filter((reason) => rest.every((list) => list.some((r) => r.id === reason.id)));
}

/** Cancel: the Ozon postings still cancellable, with the reasons Ozon offers all of them. */
async function prepareCancel(client: DataClient, rows: readonly OrderRow[], more: number): Promise<PrepareSubjectsOutput> {
  const candidates = rows.filter((row) => row.source === 'ozon' && row.postingNumber !== '' && CANCELLABLE.has(row.status));
  if (candidates.length === 0) return { subjects: [], omitted: more + rows.length };
  const offered = await client.orders.cancelReasons(candidates.map((row) => row.id));
  const reasonsOf = new Map(offered.map((posting) => [`${posting.shopId}:${posting.postingNumber}`, posting.reasons]));
  const subjects = group(candidates, postingRef).filter((subject) => reasonsOf.has(subject.key));
  const choices = sharedReasons(subjects.map((subject) => reasonsOf.get(subject.key)!));
  if (subjects.length > 0 && choices.length === 0) throw { type: 'NoCommonReason' };
  const kept = subjects.reduce((sum, subject) => sum + subject.rowIds.length, 0);
  return { subjects, omitted: more + rows.length - kept, choices };
}

export async function prepareSubjects(client: DataClient, { kind, selection }: PrepareSubjectsInput): Promise<PrepareSubjectsOutput> {
  const { rows, more } = await selectedRows(client, selection, MAX_ROWS[kind]);
  if (kind === 'cancel') return prepareCancel(client, rows, more);
  // Entered orders have no Ozon label and no Ozon stock.
  const applicable = kind === 'labels' || kind === 'stock' ? rows.filter((row) => row.source === 'ozon') : rows;
  const subjects = kind === 'stock' ? group(applicable, (row) => row.offerId) : group(applicable, postingRef);
  return { subjects, omitted: more + rows.length - applicable.length };
}

const rowIdsOf = (subjects: readonly ActionSubject[]) => subjects.flatMap((subject) => subject.rowIds);

/** Texts an outcome needs that no server message carries, read when needed (in the language of that moment). */
export type OrderActionTexts = { noWarehouse: () => string };

function byShop(subjects: readonly ActionSubject[]): Map<number, ActionSubject[]> {
  const shops = new Map<number, ActionSubject[]>();
  for (const s of subjects) shops.set(s.shopId, [...(shops.get(s.shopId) ?? []), s]);
  return shops;
}

export async function runChunk(client: DataClient, texts: OrderActionTexts, { kind, subjects, params }: RunChunkInput): Promise<RunChunkOutput> {
  switch (kind) {
    case 'ship': {
      const result = await client.orders.ship({ kind: 'ids', ids: rowIdsOf(subjects) });
      return { status: 'done', failures: result.failures.map((f) => ({ ref: f.postingNumber, reason: f.message })) };
    }
    case 'tracking': {
      const trackingNumber = 'trackingNumber' in params ? params.trackingNumber : '';
      const result = await client.orders.setTrackingNumbers(rowIdsOf(subjects).map((id) => ({ id, trackingNumber })));
      return { status: 'done', failures: result.failures.map((f) => ({ ref: f.postingNumber, reason: f.message })) };
    }
    case 'stock': {
      if (!('warehouseByShop' in params)) throw new Error('stock: no warehouse');
      // Each shop's offers at that shop's own warehouse, one call per shop.
      const failures: { ref: string; reason: string }[] = [];
      for (const [shopId, shopSubjects] of byShop(subjects)) {
        const warehouseId = params.warehouseByShop[shopId];
        if (!warehouseId) {
          failures.push(...shopSubjects.map((s) => ({ ref: s.ref, reason: texts.noWarehouse() })));
          continue;
        }
        const result = await client.orders.updateStock(shopSubjects.map((s) => ({ storeId: shopId, offerId: s.ref, warehouseId, stock: params.stock })));
        failures.push(...result.failures.map((f) => ({ ref: f.offerId, reason: f.message })));
      }
      return { status: 'done', failures };
    }
    case 'cancel': {
      if (!('reasonId' in params)) throw new Error('cancel: no reason');
      const result = await client.orders.cancel({ ids: rowIdsOf(subjects), reasonId: params.reasonId, message: params.message || undefined });
      return { status: 'done', failures: result.failures.map((f) => ({ ref: f.postingNumber, reason: f.message })) };
    }
    case 'pickingPdf':
    case 'pickingXlsx': {
      const format = kind === 'pickingPdf' ? 'pdf' : 'xlsx';
      const bytes = await client.orders.pickingList({ kind: 'ids', ids: rowIdsOf(subjects) }, format);
      const type = format === 'pdf' ? 'application/pdf' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
      return { status: 'done', failures: [], file: { name: `picking-list.${format}`, type, bytes } };
    }
    case 'labels': {
      try {
        const bytes = await client.orders.labels({ kind: 'ids', ids: rowIdsOf(subjects) });
        return { status: 'done', failures: [], file: { name: 'labels.pdf', type: 'application/pdf', bytes } };
      } catch (error) {
        if (isApiFailure(error) && error.field === LABELS_NOT_READY_FIELD) return { status: 'notReady', reason: error.message };
        throw error;
      }
    }
  }
}

/** The machine with its actors on this data client (tests provide fakes instead). */
export function orderActionsOn(client: DataClient, texts: OrderActionTexts) {
  return orderActionsMachine.provide({
    actors: {
      prepareSubjects: fromPromise<PrepareSubjectsOutput, PrepareSubjectsInput>(({ input }) => prepareSubjects(client, input)),
      runChunk: fromPromise<RunChunkOutput, RunChunkInput>(({ input }) => runChunk(client, texts, input)),
    },
  });
}
