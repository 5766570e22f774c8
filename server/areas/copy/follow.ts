import type { ZhEnText } from '../../../contract/errors';
import type { CopyRecord } from '../../../contract/copy';
import type { Database } from '../../db/database';
import type { OzonClient } from '../../marketplace/ozon/client';
import { describeItemError, isOzonError } from '../../marketplace/ozon/errors';
import { shopScopeSql } from '../team/shopScope';

/**
 * Following Ozon's import of cards a seller sent (copies and collection uploads alike): an import task's item moves
 * importing → moderating (with its product id) or failed with Ozon's per-item errors; a card under moderation moves to
 * listed once Ozon gives it an SKU, or to failed when moderation declines it.
 */

/** An Ozon reason kept in both languages, so a record reads in whichever language the seller uses later. */
export type StoredError = { code: string; attributeId: number | null; attributeName: string | null } & ZhEnText;

export type ImportStatus = CopyRecord['status'];
export type PendingImport = { id: number; status: ImportStatus; taskId: number | null; offerId: string };
export type ImportChange = { status: ImportStatus; productId?: number | null; errors?: StoredError[] };

/** The info call takes at most 1,000 offer ids. */
const INFO_BATCH = 1_000;

/** An Ozon item error in both languages, with the attribute's name before the text when it concerns an attribute. */
export function storedError(error: { code: string; message: string; attribute_id?: number; attribute_name?: string }): StoredError {
  const { texts } = describeItemError(error);
  const name = error.attribute_name ?? null;
  return {
    code: error.code,
    attributeId: error.attribute_id ?? null,
    attributeName: name,
    zh: name ? `「${name}」${texts.zh}` : texts.zh,
    en: name ? `"${name}": ${texts.en}` : texts.en,
  };
}

/** A failed Ozon call as a stored reason; anything else is not Ozon's answer and is rethrown. */
export function failureOf(error: unknown): StoredError {
  if (isOzonError(error)) return { code: error.kind, attributeId: null, attributeName: null, ...error.texts };
  throw error;
}

/**
 * Asks one shop's Ozon where its unsettled imports stand; answers the changes by record id. When Ozon cannot be asked
 * just now the answer holds what was learnt so far, and the rest is asked again next time.
 */
export async function settleImports(client: OzonClient, pending: readonly PendingImport[]): Promise<Map<number, ImportChange>> {
  const changes = new Map<number, ImportChange>();
  try {
    const tasks = new Map<number, PendingImport[]>();
    for (const row of pending.filter((r) => r.status === 'importing' && r.taskId !== null)) {
      tasks.set(row.taskId!, [...(tasks.get(row.taskId!) ?? []), row]);
    }
    for (const [taskId, taskRows] of tasks) {
      const info = await client.productImportInfo(taskId);
      for (const row of taskRows) {
        const item = info.items.find((i) => i.offer_id === row.offerId);
        if (!item || item.status === 'pending') continue;
        if (item.status === 'failed') changes.set(row.id, { status: 'failed', errors: item.errors.map(storedError) });
        else changes.set(row.id, { status: 'moderating', productId: item.product_id || null });
      }
    }
    const moderating = pending.filter((r) => r.status === 'moderating' || changes.get(r.id)?.status === 'moderating');
    for (let start = 0; start < moderating.length; start += INFO_BATCH) {
      const batch = moderating.slice(start, start + INFO_BATCH);
      const infos = await client.productInfoList({ offer_id: batch.map((r) => r.offerId) });
      for (const row of batch) {
        const info = infos.find((p) => p.offer_id === row.offerId);
        if (!info) continue;
        const declined = info.statuses?.moderate_status === 'declined' || (info.statuses?.status_failed ?? '') !== '';
        if (declined) {
          const reasons = info.errors.flatMap((e) => {
            const error = e as { code?: string; attribute_id?: number; texts?: { attribute_name?: string; description?: string } };
            return error.code ? [storedError({ code: error.code, message: error.texts?.description ?? error.code, attribute_id: error.attribute_id, attribute_name: error.texts?.attribute_name })] : [];
          });
          changes.set(row.id, { status: 'failed', productId: info.id, errors: reasons.length ? reasons : [storedError({ code: 'failed_moderation', message: '' })] });
        } else if (Number(info.sku) > 0 && info.statuses?.moderate_status !== 'moderating') {
          changes.set(row.id, { status: 'listed', productId: info.id, errors: [] });
        } else {
          changes.set(row.id, { status: 'moderating', productId: info.id });
        }
      }
    }
  } catch (error) {
    if (!isOzonError(error)) throw error;
  }
  return changes;
}

/** A search text as an `ilike` pattern matching it anywhere, its wildcards taken literally. */
export const containsPattern = (search: string | undefined) => (search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null);

/**
 * One page of import records (copies or uploads), newest first, with the total and how many Ozon has not settled.
 * `where` is over the table aliased `r` with `params` as $1…; `select` selects the rows from `<table> r`.
 */
export async function importPage<Row extends Record<string, unknown>>(
  database: Database,
  query: { table: string; select: string; where: string; params: unknown[]; page: number; rows: number },
): Promise<{ rows: Row[]; total: number; unsettled: number }> {
  const [counts] = await database.query<{ total: number; unsettled: number }>(
    `select count(*)::int as total, count(*) filter (where r.status in ('importing', 'moderating'))::int as unsettled from ${query.table} r where ${query.where}`,
    query.params,
  );
  const n = query.params.length;
  const rows = await database.query<Row>(`${query.select} where ${query.where} order by r.id desc limit $${n + 1} offset $${n + 2}`, [
    ...query.params,
    query.rows,
    (query.page - 1) * query.rows,
  ]);
  return { rows, total: counts?.total ?? 0, unsettled: counts?.unsettled ?? 0 };
}

/**
 * Asks Ozon where a user's unsettled import records stand (the given ones, or all) and stores the answers. `table` is
 * one of the import record tables (copy_records, collection_uploads), which share the columns this reads and writes.
 */
export async function followImports(query: {
  database: Database;
  table: 'copy_records' | 'collection_uploads';
  userId: number;
  ids?: readonly number[];
  shopClient: (userId: number, shopId: number) => Promise<{ client: OzonClient }>;
}): Promise<void> {
  const { database, table, userId } = query;
  const rows = await database.query<{ id: number; shop_id: number; status: ImportStatus; task_id: number | string | null; offer_id: string }>(
    `select id, shop_id, status, task_id, offer_id from ${table} where user_id = $1 and status in ('importing', 'moderating') and ($2::int[] is null or id = any($2::int[]))${shopScopeSql('shop_id')}`,
    [userId, query.ids ?? null],
  );
  const byShop = new Map<number, typeof rows>();
  for (const row of rows) byShop.set(row.shop_id, [...(byShop.get(row.shop_id) ?? []), row]);
  for (const [shopId, shopRows] of byShop) {
    let client: OzonClient;
    try {
      ({ client } = await query.shopClient(userId, shopId));
    } catch {
      // The shop is gone or its key no longer works: its records wait until it is back.
      continue;
    }
    const changes = await settleImports(client, shopRows.map((r) => ({ id: r.id, status: r.status, taskId: r.task_id === null ? null : Number(r.task_id), offerId: r.offer_id })));
    for (const row of shopRows) {
      const change = changes.get(row.id);
      await database.query(
        `update ${table} set status = coalesce($2, status), product_id = coalesce($3, product_id), errors = coalesce($4::jsonb, errors),
           updated_at = case when $2::text is null or status = $2 then updated_at else now() end, checked_at = now() where id = $1`,
        [row.id, change?.status ?? null, change?.productId ?? null, change?.errors ? JSON.stringify(change.errors) : null],
      );
    }
  }
}
