import { randomUUID } from 'node:crypto';
import type { SyncEntity, SyncProgress } from '../../../contract/store';
import type { Database } from '../../db/database';
import type { OzonClient } from '../../marketplace/ozon/client';
import { KEY_FAILURE_KINDS, isOzonError } from '../../marketplace/ozon/errors';

/**
 * Marketplace sync, one job per shop and entity, kept in Postgres (mp_sync_jobs):
 * - a job is claimed with one atomic UPDATE that takes a lease (several server instances never run the same job;
 *   a crashed run's lease runs out and the next run resumes it);
 * - every page is upserted by the marketplace's own id first, and only then is the cursor saved, so a crash between
 *   the two re-reads one page and changes nothing: nothing lost, nothing duplicated;
 * - a finished run leaves a watermark; the next run of postings asks only for what changed since (minus an overlap).
 */
export type SyncOptions = {
  /** How long a claim holds without a heartbeat (a page saved renews it). */
  leaseMs?: number;
  onProgress?: (progress: SyncProgress) => void;
  /** Stops between pages (tests use it to "kill" a run mid-way). */
  signal?: AbortSignal;
  now?: () => Date;
  /** Page sizes (tests shrink them). */
  pageSize?: number;
  /**
   * Runs after each page has been committed (records upserted, cursor saved): the orders area projects synced
   * postings into its own table here. Must be idempotent; its failure fails the run, which resumes from the cursor.
   * `syncedAt` is the page's `synced_at`, in the database's clock: what it stored is what was synced at or after it.
   */
  afterChunk?: (records: number, syncedAt: Date) => Promise<void>;
};

type Page = { records: { id: string; data: unknown }[]; next: unknown; finished: boolean };
type Fetcher = (client: OzonClient, cursor: unknown, window: { since: Date; to: Date; changedSince: Date | null }, pageSize: number) => Promise<Page>;

const DAY = 86_400_000;
/** Ozon sellers look 90 days back; two more days cover history that ends at a day's start rather than now. */
const HISTORY_DAYS = 92;
/** Postings changed this long before the last watermark are read again: Ozon's status dates can lag. */
const OVERLAP_MS = 10 * 60_000;

const FETCHERS: Record<SyncEntity, Fetcher> = {
  async warehouses(client, cursor, _w, pageSize) {
    const page = await client.warehouseList({ limit: Math.min(200, pageSize), cursor: (cursor as string) || undefined });
    return { records: page.warehouses.map((w) => ({ id: String(w.warehouse_id), data: w })), next: page.cursor, finished: !page.has_next };
  },
  async products(client, cursor, _w, pageSize) {
    const page = await client.productList({ limit: Math.min(1000, pageSize), last_id: (cursor as string) || '' });
    const details = page.items.length ? await client.productInfoList({ product_id: page.items.map((i) => i.product_id) }) : [];
    const byId = new Map(details.map((d) => [d.id, d]));
    return {
      records: page.items.map((i) => ({ id: String(i.product_id), data: { ...i, info: byId.get(i.product_id) ?? null } })),
      next: page.last_id,
      finished: !page.last_id || page.items.length === 0,
    };
  },
  async postings(client, cursor, window, pageSize) {
    const page = await client.postingFbsList({
      filter: {
        since: window.since.toISOString(),
        to: window.to.toISOString(),
        ...(window.changedSince ? { last_changed_status_date: { from: window.changedSince.toISOString(), to: window.to.toISOString() } } : {}),
      },
      limit: Math.min(100, pageSize),
      cursor: (cursor as string) || undefined,
      with: { analytics_data: true, financial_data: true },
    });
    return { records: page.postings.map((p) => ({ id: p.posting_number, data: p })), next: page.cursor, finished: !page.has_next };
  },
  async returns(client, cursor, _w, pageSize) {
    const page = await client.returnsList({ limit: Math.min(500, pageSize), last_id: (cursor as number) || undefined });
    const last = page.returns[page.returns.length - 1];
    return { records: page.returns.map((r) => ({ id: String(r.id), data: r })), next: last?.id ?? cursor, finished: !page.has_next };
  },
  async chats(client, cursor, _w, pageSize) {
    const page = await client.chatList({ limit: Math.min(1000, pageSize), cursor: (cursor as string) || undefined });
    return { records: page.chats.map((c) => ({ id: c.chat.chat_id, data: c })), next: page.cursor, finished: !page.has_next };
  },
  async promotions(client) {
    const actions = await client.actions();
    return { records: actions.map((a) => ({ id: String(a.id), data: a })), next: null, finished: true };
  },
};

export type SyncResult = { status: 'done' | 'busy' | 'failed' | 'stopped'; stored: number; error?: unknown };

type JobRow = { cursor: unknown; done: number; watermark: string | Date | null; status: string };

/** Stores a page; answers its `synced_at` (the database's clock), or null for an empty page. */
async function upsert(database: Database, shopId: number, entity: SyncEntity, records: Page['records']): Promise<Date | null> {
  if (records.length === 0) return null;
  // One statement per page; jsonb_to_recordset keeps the parameter count fixed whatever the page size.
  const [row] = await database.query<{ at: string | Date }>(
    `with stored as (
       insert into mp_records (shop_id, entity, external_id, data, synced_at)
       select $1, $2, r.id, r.data, now() from jsonb_to_recordset($3::jsonb) as r(id text, data jsonb)
       on conflict (shop_id, entity, external_id) do update set data = excluded.data, synced_at = excluded.synced_at
       returning synced_at
     )
     select min(synced_at) as at from stored`,
    [shopId, entity, JSON.stringify(records)],
  );
  return row?.at ? new Date(row.at) : null;
}

export async function syncEntity(database: Database, shopId: number, client: OzonClient, entity: SyncEntity, options: SyncOptions = {}): Promise<SyncResult> {
  const now = options.now ?? (() => new Date());
  const leaseMs = options.leaseMs ?? 60_000;
  const pageSize = options.pageSize ?? 1000;
  const owner = randomUUID();
  await database.query(`insert into mp_sync_jobs (shop_id, entity) values ($1, $2) on conflict do nothing`, [shopId, entity]);
  const claimed = await database.query<JobRow>(
    `update mp_sync_jobs set status = 'running', lease_until = $3::timestamptz + ($4 || ' milliseconds')::interval, error = jsonb_build_object('owner', $5::text)
     where shop_id = $1 and entity = $2 and (status <> 'running' or lease_until < $3::timestamptz)
     returning cursor, done, watermark, status`,
    [shopId, entity, now().toISOString(), String(leaseMs), owner],
  );
  const job = claimed[0];
  if (!job) return { status: 'busy', stored: 0 };

  // A run that resumes keeps its window (saved with the cursor); a fresh run opens a new one.
  const saved = job.cursor as { window?: { since: string; to: string; changedSince: string | null }; page?: unknown; done?: number } | null;
  const watermark = job.watermark ? new Date(job.watermark) : null;
  const window = saved?.window
    ? { since: new Date(saved.window.since), to: new Date(saved.window.to), changedSince: saved.window.changedSince ? new Date(saved.window.changedSince) : null }
    : { since: new Date(now().getTime() - HISTORY_DAYS * DAY), to: now(), changedSince: watermark ? new Date(watermark.getTime() - OVERLAP_MS) : null };
  let page: unknown = saved?.page ?? null;
  let stored = saved?.done ?? 0;
  const report = (status: SyncProgress['status'], message: string | null = null) =>
    options.onProgress?.({ storeId: shopId, entity, status, done: stored, message });

  try {
    for (;;) {
      if (options.signal?.aborted) return { status: 'stopped', stored };
      const result = await FETCHERS[entity](client, page, window, pageSize);
      const syncedAt = await upsert(database, shopId, entity, result.records);
      stored += result.records.length;
      page = result.next;
      if (result.finished) {
        if (options.afterChunk && syncedAt) await options.afterChunk(result.records.length, syncedAt);
        break;
      }
      // Before the cursor moves: a crash in between re-fetches this page and runs the (idempotent) hook again,
      // instead of leaving the page stored but never projected.
      if (options.afterChunk && syncedAt) await options.afterChunk(result.records.length, syncedAt);
      await database.query(
        `update mp_sync_jobs set cursor = $3::jsonb, done = $4, lease_until = $5::timestamptz + ($6 || ' milliseconds')::interval where shop_id = $1 and entity = $2`,
        [shopId, entity, JSON.stringify({ window: { since: window.since.toISOString(), to: window.to.toISOString(), changedSince: window.changedSince?.toISOString() ?? null }, page, done: stored }), stored, now().toISOString(), String(leaseMs)],
      );
      report('running');
    }
    await database.query(
      `update mp_sync_jobs set status = 'done', cursor = null, done = $3, watermark = $4::timestamptz, error = null, failures = 0, lease_until = null, finished_at = $5::timestamptz where shop_id = $1 and entity = $2`,
      [shopId, entity, stored, window.to.toISOString(), now().toISOString()],
    );
    await database.query(`update mp_shops set last_sync_at = $2::timestamptz where id = $1`, [shopId, now().toISOString()]);
    report('done');
    return { status: 'done', stored };
  } catch (error) {
    const texts = isOzonError(error) ? error.texts : { zh: '同步失败', en: 'Sync failed' };
    await database.query(
      `update mp_sync_jobs set status = 'failed', error = $3::jsonb, failures = failures + 1, lease_until = null, finished_at = $4::timestamptz where shop_id = $1 and entity = $2`,
      [shopId, entity, JSON.stringify(texts), now().toISOString()],
    );
    // A key that no longer works stops the whole shop until the seller re-authorizes it (POST /api/store/apply).
    if (isOzonError(error) && KEY_FAILURE_KINDS.has(error.kind)) {
      await database.query(`update mp_shops set status = 'keyFailed', status_reason = $2::jsonb where id = $1`, [shopId, JSON.stringify(texts)]);
    }
    report('failed', texts.zh);
    return { status: 'failed', stored, error };
  }
}
