import { textIn, type Lang, type ZhEnText } from '../../../contract/errors';
import { requireShopInScope, shopScopeSql } from '../team/shopScope';
import { SYNC_ENTITIES, type AddStoreBody, type Store, type StoreStatus, type StoreSyncState, type UpdateStoreBody } from '../../../contract/store';
import type { Database } from '../../db/database';
import { ApiError } from '../../http/errors';
import { decryptSecret, encryptSecret } from '../../marketplace/crypto';
import type { OzonClient, Visibility } from '../../marketplace/ozon/client';
import { isOzonError } from '../../marketplace/ozon/errors';
import type { ClientFactory, ShopConnection } from '../../marketplace/plugin';
import { tombstoneShopOrders } from '../orders/projection';
import { tombstoneShopProducts } from '../products/projection';
import { tombstoneShopReturns } from '../returns/projection';

export type StoreDeps = {
  database: Database;
  secretKey: Buffer;
  clientFor: ClientFactory;
  /** Throws the 400 for a base URL the server must not call (server/marketplace/baseUrl.ts). */
  checkBaseUrl: (baseUrl: string) => Promise<void>;
};

type ShopRow = {
  id: number;
  name: string;
  client_id: string;
  base_url: string | null;
  status: StoreStatus;
  status_reason: ZhEnText | null;
  key_expires_at: Date | string | null;
  roles: string[];
  created_at: Date | string;
  last_sync_at: Date | string | null;
  api_key_enc: string;
};

const ms = (v: Date | string | null) => (v === null ? null : new Date(v).getTime());

type JobRow = { shop_id: number; entity: StoreSyncState['entity']; status: string; done: number; finished_at: Date | string | null; error: (ZhEnText & { owner?: string }) | null; total: number };

function syncStates(jobs: JobRow[], lang: Lang): StoreSyncState[] {
  return SYNC_ENTITIES.map((entity) => {
    const job = jobs.find((j) => j.entity === entity);
    const status = job && ['running', 'done', 'failed'].includes(job.status) ? (job.status as StoreSyncState['status']) : 'idle';
    return {
      entity,
      status,
      done: job?.done ?? 0,
      total: job?.total ?? 0,
      finishedAt: ms(job?.finished_at ?? null),
      error: status === 'failed' && job?.error ? textIn(job.error, lang) : null,
    };
  });
}

/** Each entity's job, with the count of records held (one grouped scan of the shop's primary-key range). */
async function jobsOf(database: Database, shopIds: number[]): Promise<JobRow[]> {
  if (shopIds.length === 0) return [];
  return database.query<JobRow>(
    `select j.shop_id, j.entity, j.status, j.done, j.finished_at, j.error, coalesce(c.total, 0)::int as total
     from mp_sync_jobs j
     left join (select shop_id, entity, count(*) as total from mp_records where shop_id = any($1::int[]) group by shop_id, entity) c
       on c.shop_id = j.shop_id and c.entity = j.entity
     where j.shop_id = any($1::int[])`,
    [shopIds],
  );
}

async function withSync(database: Database, rows: ShopRow[], lang: Lang): Promise<Store[]> {
  const jobs = await jobsOf(database, rows.map((r) => r.id));
  return rows.map((row) => toStore(row, lang, jobs.filter((j) => j.shop_id === row.id)));
}

function toStore(row: ShopRow, lang: Lang, jobs: JobRow[] = []): Store {
  return {
    id: row.id,
    name: row.name,
    marketplace: 'ozon',
    clientId: row.client_id,
    baseUrl: row.base_url,
    status: row.status,
    statusReason: row.status_reason ? textIn(row.status_reason, lang) : null,
    keyExpiresAt: ms(row.key_expires_at),
    roles: row.roles,
    createdAt: ms(row.created_at)!,
    lastSyncAt: ms(row.last_sync_at),
    sync: syncStates(jobs, lang),
  };
}

/** The key check of "add shop": Ozon's /v1/roles. Its failure becomes the envelope's error with Ozon's reason. */
async function checkKey(deps: StoreDeps, connection: ShopConnection) {
  try {
    const { roles, expiresAt } = await deps.clientFor(connection).roles();
    return { roles: roles.map((r) => r.name), expiresAt };
  } catch (error) {
    if (isOzonError(error)) throw new ApiError(error.code, error.texts, error.kind === 'invalidKey' ? 'apiKey' : null);
    throw error;
  }
}

export async function listStores(deps: StoreDeps, userId: number, lang: Lang): Promise<Store[]> {
  const rows = await deps.database.query<ShopRow>(`select * from mp_shops where user_id = $1${shopScopeSql('id')} order by id`, [userId]);
  return withSync(deps.database, rows, lang);
}

async function ownShop(deps: Pick<StoreDeps, 'database'>, userId: number, id: number): Promise<ShopRow> {
  const [row] = await deps.database.query<ShopRow>(`select * from mp_shops where id = $1 and user_id = $2`, [id, userId]);
  if (!row) throw new ApiError(404, 'shopNotFound', 'id');
  // Every marketplace call of every area goes through here: a member acts only on the shops of their scope.
  requireShopInScope(id);
  return row;
}

export async function addStore(deps: StoreDeps, userId: number, body: AddStoreBody, lang: Lang): Promise<Store> {
  const baseUrl = body.baseUrl ?? null;
  if (baseUrl) await deps.checkBaseUrl(baseUrl);
  const existing = await deps.database.query(`select 1 from mp_shops where user_id = $1 and client_id = $2`, [userId, body.clientId]);
  if (existing.length) throw new ApiError(400, 'shopDuplicate', 'clientId');
  const key = await checkKey(deps, { clientId: body.clientId, apiKey: body.apiKey, baseUrl });
  const [row] = await deps.database.query<ShopRow>(
    `insert into mp_shops (user_id, name, client_id, api_key_enc, base_url, key_expires_at, roles)
     values ($1, $2, $3, $4, $5, $6::timestamptz, $7::jsonb) returning *`,
    [userId, body.name, body.clientId, encryptSecret(deps.secretKey, body.apiKey), baseUrl, key.expiresAt, JSON.stringify(key.roles)],
  );
  return toStore(row!, lang);
}

export async function updateStore(deps: StoreDeps, userId: number, body: UpdateStoreBody, lang: Lang): Promise<Store> {
  const row = await ownShop(deps, userId, body.id);
  const baseUrl = body.baseUrl === undefined ? row.base_url : body.baseUrl;
  if (body.baseUrl) await deps.checkBaseUrl(body.baseUrl);
  let changes: { api_key_enc: string; key_expires_at: string | null; roles: string } | null = null;
  if (body.apiKey !== undefined || body.baseUrl !== undefined) {
    const apiKey = body.apiKey ?? decryptSecret(deps.secretKey, row.api_key_enc);
    const key = await checkKey(deps, { clientId: row.client_id, apiKey, baseUrl });
    changes = { api_key_enc: encryptSecret(deps.secretKey, apiKey), key_expires_at: key.expiresAt, roles: JSON.stringify(key.roles) };
  }
  const [updated] = await deps.database.query<ShopRow>(
    `update mp_shops set name = $3, base_url = $4,
       api_key_enc = coalesce($5, api_key_enc), key_expires_at = case when $5::text is null then key_expires_at else $6::timestamptz end,
       roles = coalesce($7::jsonb, roles),
       status = case when $5::text is null then status else 'active' end,
       status_reason = case when $5::text is null then status_reason else null end
     where id = $1 and user_id = $2 returning *`,
    [row.id, userId, body.name ?? row.name, baseUrl, changes?.api_key_enc ?? null, changes?.key_expires_at ?? null, changes?.roles ?? null],
  );
  return (await withSync(deps.database, [updated!], lang))[0]!;
}

export async function deleteStores(deps: StoreDeps, userId: number, ids: number[]): Promise<number> {
  // A member scoped to some shops names another: refused whole, nothing deleted (the ids are no `storeId`, so the
  // route's own check does not see them).
  for (const id of ids) requireShopInScope(id);
  // One transaction: a shop is never gone with its rows still live. The delete waits for the shop's running
  // projections (they hold its row) and a projection starting after it writes nothing (orders/projection.ts).
  return deps.database.transaction(async (tx) => {
    const rows = await tx.query<{ id: number }>(`delete from mp_shops where user_id = $1 and id = any($2::int[]) returning id`, [userId, ids]);
    if (!rows.length) return 0;
    const shopIds = rows.map((row) => row.id);
    // The shop's synced records went with it; its order, product and return rows become tombstones so browser
    // caches drop them.
    await tombstoneShopOrders(tx, shopIds);
    await tombstoneShopProducts(tx, shopIds);
    await tombstoneShopReturns(tx, shopIds);
    return rows.length;
  });
}

/** Re-authorize a shop (its key checked again); sync may resume. */
export async function applyStore(deps: StoreDeps, userId: number, id: number, lang: Lang): Promise<Store> {
  const row = await ownShop(deps, userId, id);
  const apiKey = decryptSecret(deps.secretKey, row.api_key_enc);
  const key = await checkKey(deps, { clientId: row.client_id, apiKey, baseUrl: row.base_url });
  const [updated] = await deps.database.query<ShopRow>(
    `update mp_shops set status = 'active', status_reason = null, key_expires_at = $2::timestamptz, roles = $3::jsonb where id = $1 returning *`,
    [row.id, key.expiresAt, JSON.stringify(key.roles)],
  );
  // A failed job restarts at once rather than after its back-off: the seller just fixed the cause.
  await deps.database.query(`update mp_sync_jobs set failures = 0, finished_at = null where shop_id = $1 and status = 'failed'`, [row.id]);
  return (await withSync(deps.database, [updated!], lang))[0]!;
}

export type ArchiveKind = 'removed' | 'failed';
const VISIBILITY: Record<ArchiveKind, Visibility> = { removed: 'REMOVED_FROM_SALE', failed: 'STATE_FAILED' };
/** Ozon's /v1/product/archive takes at most 100 product ids a call. */
const ARCHIVE_BATCH = 100;

/**
 * Seller-tool §2.4's one-click archive: every product of the shop that is taken down from sale ('removed') or in
 * error state ('failed'), as Ozon lists them now, goes to Ozon's archive. Ids are gathered first: archiving while
 * paging by last_id would move the listing under the cursor.
 */
export async function archiveProducts(deps: StoreDeps, userId: number, id: number, kind: ArchiveKind): Promise<{ archived: number }> {
  const { client } = await clientForShop(deps, userId, id);
  try {
    const ids: number[] = [];
    let lastId = '';
    for (;;) {
      const page = await client.productList({ filter: { visibility: VISIBILITY[kind] }, last_id: lastId, limit: 1000 });
      ids.push(...page.items.filter((item) => !item.archived).map((item) => item.product_id));
      if (!page.last_id || page.items.length === 0) break;
      lastId = page.last_id;
    }
    for (let start = 0; start < ids.length; start += ARCHIVE_BATCH) await client.productArchive(ids.slice(start, start + ARCHIVE_BATCH));
    return { archived: ids.length };
  } catch (error) {
    if (isOzonError(error)) throw new ApiError(error.code, error.texts, null);
    throw error;
  }
}

/** The shop's client with its decrypted key: only for the server's own sync, never sent anywhere else. */
export async function clientForShop(deps: Omit<StoreDeps, 'checkBaseUrl'>, userId: number, id: number): Promise<{ client: OzonClient; shop: ShopRow }> {
  const shop = await ownShop(deps, userId, id);
  return { shop, client: deps.clientFor({ clientId: shop.client_id, apiKey: decryptSecret(deps.secretKey, shop.api_key_enc), baseUrl: shop.base_url }) };
}
