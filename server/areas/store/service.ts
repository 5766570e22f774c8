import type { Lang, Localized } from '../../../contract/errors';
import type { AddStoreBody, Store, StoreStatus, UpdateStoreBody } from '../../../contract/store';
import type { Database } from '../../db/database';
import { ApiError } from '../../http/errors';
import { decryptSecret, encryptSecret } from '../../marketplace/crypto';
import type { OzonClient } from '../../marketplace/ozon/client';
import { isOzonError } from '../../marketplace/ozon/errors';

/** What a shop's Ozon client is made from; the route plugin decides where the requests go. */
export type ShopConnection = { clientId: string; apiKey: string; baseUrl: string | null };
export type ClientFactory = (connection: ShopConnection) => OzonClient;
export type StoreDeps = { database: Database; secretKey: Buffer; clientFor: ClientFactory };

type ShopRow = {
  id: number;
  name: string;
  client_id: string;
  base_url: string | null;
  status: StoreStatus;
  status_reason: Localized | null;
  key_expires_at: Date | string | null;
  roles: string[];
  created_at: Date | string;
  last_sync_at: Date | string | null;
  api_key_enc: string;
};

const ms = (v: Date | string | null) => (v === null ? null : new Date(v).getTime());
const DUPLICATE: Localized = { zh: '该店铺已添加', en: 'This shop has already been added' };
const NOT_FOUND: Localized = { zh: '店铺不存在', en: 'The shop does not exist' };

function toStore(row: ShopRow, lang: Lang): Store {
  return {
    id: row.id,
    name: row.name,
    marketplace: 'ozon',
    clientId: row.client_id,
    baseUrl: row.base_url,
    status: row.status,
    statusReason: row.status_reason ? row.status_reason[lang] : null,
    keyExpiresAt: ms(row.key_expires_at),
    roles: row.roles,
    createdAt: ms(row.created_at)!,
    lastSyncAt: ms(row.last_sync_at),
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
  const rows = await deps.database.query<ShopRow>(`select * from mp_shops where user_id = $1 order by id`, [userId]);
  return rows.map((r) => toStore(r, lang));
}

async function ownShop(deps: StoreDeps, userId: number, id: number): Promise<ShopRow> {
  const [row] = await deps.database.query<ShopRow>(`select * from mp_shops where id = $1 and user_id = $2`, [id, userId]);
  if (!row) throw new ApiError(404, NOT_FOUND, 'id');
  return row;
}

export async function addStore(deps: StoreDeps, userId: number, body: AddStoreBody, lang: Lang): Promise<Store> {
  const baseUrl = body.baseUrl ?? null;
  const existing = await deps.database.query(`select 1 from mp_shops where user_id = $1 and client_id = $2`, [userId, body.clientId]);
  if (existing.length) throw new ApiError(400, DUPLICATE, 'clientId');
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
  return toStore(updated!, lang);
}

export async function deleteStores(deps: StoreDeps, userId: number, ids: number[]): Promise<number> {
  const rows = await deps.database.query(`delete from mp_shops where user_id = $1 and id = any($2::int[]) returning id`, [userId, ids]);
  return rows.length;
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
  return toStore(updated!, lang);
}

/** The shop's client with its decrypted key: only for the server's own sync, never sent anywhere else. */
export async function clientForShop(deps: StoreDeps, userId: number, id: number): Promise<{ client: OzonClient; shop: ShopRow }> {
  const shop = await ownShop(deps, userId, id);
  return { shop, client: deps.clientFor({ clientId: shop.client_id, apiKey: decryptSecret(deps.secretKey, shop.api_key_enc), baseUrl: shop.base_url }) };
}
