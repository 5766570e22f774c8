import { randomUUID } from 'node:crypto';
import { localized } from '../../../contract/errors';
import type { SyncEntity, SyncProgress } from '../../../contract/store';
import type { Database } from '../../db/database';
import type { OzonClient } from '../../marketplace/ozon/client';
import { KEY_FAILURE_KINDS, isOzonError } from '../../marketplace/ozon/errors';

/**
 * Marketplace sync, one job per shop and entity, kept in Postgres (mp_sync_jobs):
 * - a job is claimed with one atomic UPDATE that takes a lease (several server instances never run the same job;
 *   a crashed run's lease runs out and the next run resumes it). The lease is renewed while the run works, and each
 *   claim names its owner and counts a generation that every later write of the run checks: a run that stalled past
 *   its lease and was taken over has its late writes (page, cursor, outcome) refused, and stops;
 * - every page is upserted by the marketplace's own id first, and only then is the cursor saved, so a crash between
 *   the two re-reads one page and changes nothing: nothing lost, nothing duplicated;
 * - a finished run leaves a watermark; the next run of postings asks only for what changed since (minus an overlap).
 */
export type SyncOptions = {
  /** How long a claim holds without renewal; the run renews it every third of this, and with every page saved. */
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
  /**
   * The job's generation when the scheduler found it due (0 for a job never run): the claim is made only if no run
   * claimed it since, so a job another instance ran meanwhile is not run again right after. A run asked for by hand
   * leaves it out.
   */
  seenGeneration?: number;
};

type Page = { records: { id: string; data: unknown }[]; next: unknown; finished: boolean };
type Fetcher = (client: OzonClient, cursor: unknown, window: { since: Date; to: Date; changedSince: Date | null }, pageSize: number) => Promise<Page>;

const DAY = 86_400_000;
/** Ozon sellers look 90 days back; two more days cover history that ends at a day's start rather than now. */
const HISTORY_DAYS = 92;
/** Postings changed this long before the last watermark are read again: Ozon's status dates can lag. */
const OVERLAP_MS = 10 * 60_000;
/** Ozon's finance transaction list takes at most a month per request. */
const FINANCE_SLICE_MS = 30 * DAY;
const FINANCE_LOOKBACK_MS = 7 * DAY;

/**
 * A claim's lease without renewal. Renewed every third of it (and with every page), so only a run whose process died
 * or stalled lets it run out; the scheduler looks again as it ends, so a killed run is taken over within this time.
 */
export const DEFAULT_LEASE_MS = 45_000;

/** rFBS return requests per page: each is read again with its details, so pages stay small. */
const RFBS_PAGE = 50;

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
  // FBS and FBO returns first (/v1/returns/list, cursor: the last id), then rFBS return requests (cursor
  // `{ rfbs: last id }`), each read with its details (/v2/returns/rfbs/get: reason, photos, the actions its state
  // allows) and stored as `rfbs:<return_id>` with the list's state beside the details.
  async returns(client, cursor, _w, pageSize) {
    const rfbsCursor = cursor && typeof cursor === 'object' ? (cursor as { rfbs: number }) : null;
    if (!rfbsCursor) {
      const page = await client.returnsList({ limit: Math.min(500, pageSize), last_id: (cursor as number) || undefined });
      const last = page.returns[page.returns.length - 1];
      const records = page.returns.map((r) => ({ id: String(r.id), data: r }));
      return { records, next: page.has_next ? (last?.id ?? cursor) : { rfbs: 0 }, finished: false };
    }
    const limit = Math.min(RFBS_PAGE, pageSize);
    const page = await client.rfbsReturnsList({ limit, last_id: rfbsCursor.rfbs || undefined });
    const details = await Promise.all(page.map((r) => client.rfbsReturnGet(r.return_id)));
    const records = page.map((r, i) => ({ id: `rfbs:${r.return_id}`, data: { ...details[i], ...r, rfbs: true } }));
    const last = page[page.length - 1];
    return { records, next: { rfbs: last?.return_id ?? rfbsCursor.rfbs }, finished: page.length < limit };
  },
  async finance(client, cursor, window, pageSize) {
    // Ozon answers at most a month per request: the window is read month by month, each month page by page. A later
    // run starts a week before the last one ended, as transactions of older postings are booked when they are delivered.
    const start = window.changedSince ? new Date(Math.max(window.since.getTime(), window.changedSince.getTime() - FINANCE_LOOKBACK_MS)) : window.since;
    const at = (cursor as { from: string; page: number } | null) ?? { from: start.toISOString(), page: 1 };
    const from = new Date(at.from);
    const to = new Date(Math.min(window.to.getTime(), from.getTime() + FINANCE_SLICE_MS));
    const result = await client.financeTransactionList({
      filter: { date: { from: from.toISOString(), to: to.toISOString() } },
      page: at.page,
      page_size: Math.min(1000, pageSize),
    });
    const more = at.page < result.page_count;
    return {
      records: result.operations.map((operation) => ({ id: String(operation.operation_id), data: operation })),
      next: more ? { from: at.from, page: at.page + 1 } : { from: to.toISOString(), page: 1 },
      finished: !more && to.getTime() >= window.to.getTime(),
    };
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

/** 'lost': another run claimed the job while this one worked (its lease ran out); this one's late writes were refused. */
export type SyncResult = { status: 'done' | 'busy' | 'failed' | 'stopped' | 'lost'; stored: number; error?: unknown };

type JobRow = { cursor: unknown; done: number; watermark: string | Date | null; status: string };

/** The run's claim on its job: every write of the run names it, and is refused once another run claimed the job. */
type Claim = { shopId: number; entity: SyncEntity; owner: string; generation: number };

/** Another run claimed the job (this one's lease ran out while it worked): this run writes nothing more. */
class LeaseLost extends Error {
  override name = 'LeaseLost';
}

const LEASE_HELD = `shop_id = $1 and entity = $2 and owner = $3 and generation = $4 and status = 'running'`;
const claimParams = (claim: Claim) => [claim.shopId, claim.entity, claim.owner, claim.generation];

/** An update of the run's job row, made only while the run holds the job's lease; LeaseLost otherwise. */
async function fenced(database: Database, claim: Claim, set: string, params: unknown[] = []): Promise<void> {
  const rows = await database.query(`update mp_sync_jobs set ${set} where ${LEASE_HELD} returning 1`, [...claimParams(claim), ...params]);
  if (rows.length === 0) throw new LeaseLost();
}

/**
 * Stores a page and renews the lease in one statement, only while the run holds the lease: a run that lost it does
 * not overwrite with its older page what its successor stored. Answers the page's `synced_at` (the database's
 * clock), or null for an empty page.
 */
async function upsert(database: Database, claim: Claim, records: Page['records'], leaseUntil: string): Promise<Date | null> {
  // One statement per page; jsonb_to_recordset keeps the parameter count fixed whatever the page size.
  const [row] = await database.query<{ held: boolean; at: string | Date | null }>(
    `with lease as (
       update mp_sync_jobs set lease_until = $6::timestamptz where ${LEASE_HELD} returning 1
     ), stored as (
       insert into mp_records (shop_id, entity, external_id, data, synced_at)
       select $1, $2, r.id, r.data, now() from jsonb_to_recordset($5::jsonb) as r(id text, data jsonb)
       where exists (select 1 from lease)
       on conflict (shop_id, entity, external_id) do update set data = excluded.data, synced_at = excluded.synced_at
       returning synced_at
     )
     select exists (select 1 from lease) as held, (select min(synced_at) from stored) as at`,
    [...claimParams(claim), JSON.stringify(records), leaseUntil],
  );
  if (!row?.held) throw new LeaseLost();
  return row.at ? new Date(row.at) : null;
}

/**
 * Claims the job (one atomic UPDATE: free, finished, failed, or running with its lease run out), counting the claim
 * in `generation`. Null while another run holds it, or, with `seenGeneration`, once any run claimed it since then.
 */
async function claimJob(
  database: Database,
  shopId: number,
  entity: SyncEntity,
  at: string,
  leaseUntil: string,
  seenGeneration: number | null,
): Promise<(JobRow & { claim: Claim }) | null> {
  const owner = randomUUID();
  await database.query(`insert into mp_sync_jobs (shop_id, entity) values ($1, $2) on conflict do nothing`, [shopId, entity]);
  const [job] = await database.query<JobRow & { generation: number }>(
    `update mp_sync_jobs set status = 'running', owner = $3, generation = generation + 1, lease_until = $5::timestamptz
     where shop_id = $1 and entity = $2 and (status <> 'running' or lease_until < $4::timestamptz)
       and ($6::int is null or generation = $6::int)
     returning cursor, done, watermark, status, generation`,
    [shopId, entity, owner, at, leaseUntil, seenGeneration],
  );
  return job ? { ...job, claim: { shopId, entity, owner, generation: job.generation } } : null;
}

export async function syncEntity(database: Database, shopId: number, client: OzonClient, entity: SyncEntity, options: SyncOptions = {}): Promise<SyncResult> {
  const now = options.now ?? (() => new Date());
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const pageSize = options.pageSize ?? 1000;
  const leaseUntil = () => new Date(now().getTime() + leaseMs).toISOString();
  const job = await claimJob(database, shopId, entity, now().toISOString(), leaseUntil(), options.seenGeneration ?? null);
  if (!job) return { status: 'busy', stored: 0 };
  const { claim } = job;

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

  // The lease is renewed while a page is fetched too (a slow marketplace page once outlived a 60 s lease, and a
  // second instance ran the job at the same time). A renewal refused means another run has the job: this one stops.
  const lost = new AbortController();
  const heartbeat = setInterval(() => {
    fenced(database, claim, 'lease_until = $5::timestamptz', [leaseUntil()]).catch((error: unknown) => {
      if (error instanceof LeaseLost) lost.abort();
    });
  }, leaseMs / 3);
  heartbeat.unref?.();

  try {
    for (;;) {
      if (options.signal?.aborted) {
        // Given back at once, so the next start (or another instance) resumes from the cursor.
        await fenced(database, claim, `status = 'idle', lease_until = null`);
        return { status: 'stopped', stored };
      }
      if (lost.signal.aborted) throw new LeaseLost();
      const result = await FETCHERS[entity](client, page, window, pageSize);
      const syncedAt = result.records.length ? await upsert(database, claim, result.records, leaseUntil()) : null;
      stored += result.records.length;
      page = result.next;
      if (result.finished) {
        if (options.afterChunk && syncedAt) await options.afterChunk(result.records.length, syncedAt);
        break;
      }
      // Before the cursor moves: a crash in between re-fetches this page and runs the (idempotent) hook again,
      // instead of leaving the page stored but never projected.
      if (options.afterChunk && syncedAt) await options.afterChunk(result.records.length, syncedAt);
      await fenced(database, claim, `cursor = $5::jsonb, done = $6, lease_until = $7::timestamptz`, [
        JSON.stringify({ window: { since: window.since.toISOString(), to: window.to.toISOString(), changedSince: window.changedSince?.toISOString() ?? null }, page, done: stored }),
        stored,
        leaseUntil(),
      ]);
      report('running');
    }
    await fenced(database, claim, `status = 'done', cursor = null, done = $5, watermark = $6::timestamptz, error = null, failures = 0, lease_until = null, finished_at = $7::timestamptz`, [
      stored,
      window.to.toISOString(),
      now().toISOString(),
    ]);
    await database.query(`update mp_shops set last_sync_at = $2::timestamptz where id = $1`, [shopId, now().toISOString()]);
    report('done');
    return { status: 'done', stored };
  } catch (error) {
    if (error instanceof LeaseLost) return { status: 'lost', stored };
    const texts = isOzonError(error) ? error.texts : localized('syncFailed');
    try {
      await fenced(database, claim, `status = 'failed', error = $5::jsonb, failures = failures + 1, lease_until = null, finished_at = $6::timestamptz`, [
        JSON.stringify(texts),
        now().toISOString(),
      ]);
    } catch (failure) {
      if (failure instanceof LeaseLost) return { status: 'lost', stored };
      throw failure;
    }
    // A key that no longer works stops the whole shop until the seller re-authorizes it (POST /api/store/apply).
    if (isOzonError(error) && KEY_FAILURE_KINDS.has(error.kind)) {
      await database.query(`update mp_shops set status = 'keyFailed', status_reason = $2::jsonb where id = $1`, [shopId, JSON.stringify(texts)]);
    }
    report('failed', texts.zh);
    return { status: 'failed', stored, error };
  } finally {
    clearInterval(heartbeat);
  }
}
