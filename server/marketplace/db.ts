import type { Database } from '../db/database';

/**
 * The marketplace tables. Kept here, as idempotent SQL run at start, because the Drizzle schema and its migrations
 * (server/db/schema.ts) belong to the foundation; moving these into a drizzle schema file is a mechanical follow-up.
 * Records of every entity share one table keyed by the marketplace's own id, so upserts are idempotent by
 * construction; the raw answer is kept as jsonb for the areas that read it (orders, products, chat ...).
 */
export const MARKETPLACE_DDL = [
  `create table if not exists mp_shops (
    id serial primary key,
    user_id integer not null,
    name text not null,
    marketplace text not null default 'ozon',
    client_id text not null,
    api_key_enc text not null,
    base_url text,
    status text not null default 'active',
    status_reason jsonb,
    key_expires_at timestamptz,
    roles jsonb not null default '[]'::jsonb,
    created_at timestamptz not null default now(),
    last_sync_at timestamptz,
    unique (user_id, client_id)
  )`,
  `create table if not exists mp_sync_jobs (
    shop_id integer not null references mp_shops(id) on delete cascade,
    entity text not null,
    status text not null default 'idle',
    cursor jsonb,
    watermark timestamptz,
    done integer not null default 0,
    error jsonb,
    lease_until timestamptz,
    finished_at timestamptz,
    primary key (shop_id, entity)
  )`,
  `create table if not exists mp_records (
    shop_id integer not null references mp_shops(id) on delete cascade,
    entity text not null,
    external_id text not null,
    data jsonb not null,
    synced_at timestamptz not null default now(),
    primary key (shop_id, entity, external_id)
  )`,
];

export async function ensureMarketplaceSchema(database: Database): Promise<void> {
  for (const statement of MARKETPLACE_DDL) await database.query(statement);
}
