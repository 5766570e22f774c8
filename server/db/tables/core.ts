import { sql } from 'drizzle-orm';
import { bigint, boolean, date, index, integer, jsonb, numeric, pgTable, primaryKey, serial, text, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { ORDER_COPY } from '../../areas/orders/frame';
import { packedRowSql } from '../../lists/copyFrame';
import { bytea, timestamptz } from '../columns';


export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    /** `scrypt$N$r$p$salt$hash`, see server/areas/session/passwords.ts. */
    passwordHash: text('password_hash').notNull(),
    /** Assigned roles (admin, follow, search, keyword); a paid role counts only while its validity time is ahead. */
    roles: text('roles').array().notNull().default(sql`'{}'::text[]`),
    followValidTime: timestamptz('follow_valid_time'),
    plugValidTime: timestamptz('plug_valid_time'),
    searchWordValidTime: timestamptz('search_word_valid_time'),
    keyWordValidTime: timestamptz('key_word_valid_time'),
    avatar: text('avatar').notNull().default(''),
    introduction: text('introduction').notNull().default(''),
    /** Extra right flag of the original back end; login answers "1" for admins regardless. */
    right: text('right').notNull().default('0'),
    /** A staff account attached to another seller's account. */
    isAp: boolean('is_ap').notNull().default(false),
    relativeId: integer('relative_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    /** The `auto` password token; regenerated on every password change so older sessions' login checks answer 0. */
    passwordStamp: text('password_stamp').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    /** When the password was last set; null: at created_at (server/areas/signin/passwordPolicy.ts). */
    passwordChangedAt: timestamptz('password_changed_at'),
    /** 'expired' | 'policy' once a sign-in found the password so: every call but the change is refused until then. */
    passwordChange: text('password_change'),
    /** What a password may not contain under a policy that says so. */
    email: text('email'),
    phone: text('phone'),
  },
  (table) => [uniqueIndex('users_username_lower_idx').on(sql`lower(${table.username})`)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessTokenHash: text('access_token_hash').notNull(),
    accessExpiresAt: timestamptz('access_expires_at').notNull(),
    refreshTokenHash: text('refresh_token_hash').notNull(),
    refreshExpiresAt: timestamptz('refresh_expires_at').notNull(),
    /**
     * The refresh credential this session's current one replaced (rotated on every refresh): presented again after
     * the grace of a concurrent refresh, it means a copy is in other hands, and the session ends.
     */
    previousRefreshTokenHash: text('previous_refresh_token_hash'),
    refreshRotatedAt: timestamptz('refresh_rotated_at'),
    createdAt: timestamptz('created_at').notNull(),
    lastSeenAt: timestamptz('last_seen_at').notNull(),
    ip: text('ip').notNull().default(''),
    /** Set by logout, or by a password change for the user's other sessions. */
    endedAt: timestamptz('ended_at'),
    /** The last one-time code the person gave in this session (login or step-up): what access policies' multi-factor asks for. */
    stepUpAt: timestamptz('step_up_at'),
  },
  (table) => [
    uniqueIndex('sessions_access_token_idx').on(table.accessTokenHash),
    uniqueIndex('sessions_refresh_token_idx').on(table.refreshTokenHash),
    index('sessions_previous_refresh_token_idx').on(table.previousRefreshTokenHash),
    index('sessions_user_idx').on(table.userId),
  ],
);

export const captchas = pgTable('captchas', {
  uuid: uuid('uuid').primaryKey(),
  answerHash: text('answer_hash').notNull(),
  expiresAt: timestamptz('expires_at').notNull(),
});

export const loginFailures = pgTable(
  'login_failures',
  {
    id: serial('id').primaryKey(),
    /** Lower-cased, so the limit cannot be dodged by changing case. */
    username: text('username').notNull(),
    ip: text('ip').notNull(),
    at: timestamptz('at').notNull(),
  },
  (table) => [index('login_failures_lookup_idx').on(table.username, table.ip, table.at)],
);

export const notices = pgTable(
  'notices',
  {
    id: serial('id').primaryKey(),
    text: text('text').notNull(),
    updateTime: timestamptz('update_time').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [index('notices_update_time_idx').on(table.updateTime)],
);

/** A zh / en text pair, as stored in the feature-update announcements. */
export type LocalizedText = { zh: string; en: string };
/** An announcement's line, with the page it is about (contract/notice.ts featureUpdateItemSchema). */
type FeatureUpdateItem = LocalizedText & { path?: string };

/** The feature-update dialog's announcements (seller-tool §2.4): the newest active one whose start has come is shown. */
export const featureUpdates = pgTable(
  'feature_updates',
  {
    id: serial('id').primaryKey(),
    /** yyyy-mm-dd, China date: the dialog shows for 30 days from here. */
    startDate: date('start_date', { mode: 'string' }).notNull(),
    title: jsonb('title').$type<LocalizedText>().notNull(),
    items: jsonb('items').$type<FeatureUpdateItem[]>().notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: timestamptz('created_at').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (table) => [index('feature_updates_start_idx').on(table.startDate)],
);

/**
 * Marketplace shops (issue 4): a seller's shop bound by Client-Id + Api-Key. The key is AES-256-GCM encrypted under
 * SECRET_KEY (server/marketplace/crypto.ts) and never leaves the server. `status` is 'active' or 'keyFailed'
 * (sync stopped until the seller re-authorizes; `status_reason` holds the zh / en reason).
 */
export const mpShops = pgTable(
  'mp_shops',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    marketplace: text('marketplace').notNull().default('ozon'),
    clientId: text('client_id').notNull(),
    apiKeyEnc: text('api_key_enc').notNull(),
    /** null: OZON_API_URL, else the embedded simulator when it runs, else Ozon's production API. */
    baseUrl: text('base_url'),
    status: text('status').notNull().default('active'),
    statusReason: jsonb('status_reason').$type<LocalizedText>(),
    keyExpiresAt: timestamptz('key_expires_at'),
    roles: jsonb('roles').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    lastSyncAt: timestamptz('last_sync_at'),
  },
  (table) => [uniqueIndex('mp_shops_user_client_idx').on(table.userId, table.clientId)],
);

/**
 * One sync job per shop and entity. A run claims it with a lease (several server instances never run the same job;
 * a killed run's lease runs out and the next run resumes from `cursor`); `watermark` makes the next run incremental.
 */
export const mpSyncJobs = pgTable(
  'mp_sync_jobs',
  {
    shopId: integer('shop_id')
      .notNull()
      .references(() => mpShops.id, { onDelete: 'cascade' }),
    entity: text('entity').notNull(),
    status: text('status').notNull().default('idle'),
    cursor: jsonb('cursor'),
    watermark: timestamptz('watermark'),
    done: integer('done').notNull().default(0),
    error: jsonb('error'),
    leaseUntil: timestamptz('lease_until'),
    finishedAt: timestamptz('finished_at'),
    /** Consecutive failed runs: the scheduler backs off a failing shop by this. */
    failures: integer('failures').notNull().default(0),
    /**
     * The run holding the lease, and how many claims the job has seen: every write of a run names both, so a run
     * whose lease was taken over (another instance claimed it after it ran out) has its late writes refused.
     */
    owner: text('owner'),
    generation: integer('generation').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.shopId, table.entity] })],
);

/**
 * Leases of background work that must run on one server instance at a time (the buyer-chat poller ...): held by
 * `owner` until `lease_until`, renewed while the work goes on; `generation` counts the takeovers, and writes made
 * under a lease name it, so a holder that lost its lease cannot write any more (server/db/leases.ts).
 */
export const jobLeases = pgTable('job_leases', {
  name: text('name').primaryKey(),
  owner: text('owner').notNull(),
  generation: integer('generation').notNull().default(1),
  leaseUntil: timestamptz('lease_until').notNull(),
});

/**
 * Where the buyer-chat poller got to in each shop: chat id → the last message id it pushed or took as seen, written
 * under its lease after each pass, so an instance taking the poller over resumes from here (server/areas/chat/watcher.ts).
 */
export const buyerChatPositions = pgTable('buyer_chat_positions', {
  shopId: integer('shop_id')
    .primaryKey()
    .references(() => mpShops.id, { onDelete: 'cascade' }),
  seen: jsonb('seen').notNull(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

/**
 * Pushes too large for a PostgreSQL notification (8000 bytes) are kept here for the other instances to read; the
 * notification carries the row's id. Rows are deleted a minute later (server/plugins/pushFanout.ts).
 */
export const pushOutbox = pgTable('push_outbox', {
  id: serial('id').primaryKey(),
  payload: text('payload').notNull(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});

/**
 * Every synced marketplace record, keyed by the marketplace's own id (upserts are idempotent by construction), with
 * Ozon's answer kept as jsonb for the areas that read it (orders projection, products, buyer chat ...).
 */
export const mpRecords = pgTable(
  'mp_records',
  {
    shopId: integer('shop_id')
      .notNull()
      .references(() => mpShops.id, { onDelete: 'cascade' }),
    entity: text('entity').notNull(),
    externalId: text('external_id').notNull(),
    data: jsonb('data').notNull(),
    syncedAt: timestamptz('synced_at').notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.shopId, table.entity, table.externalId] }),
    index('mp_records_synced_idx').on(table.shopId, table.entity, table.syncedAt),
    // The sales rollups look a posting's finance transactions up by its number (server/areas/analysis/rollups.ts).
    index('mp_records_finance_posting_idx')
      .on(table.shopId, sql`(${table.data} #>> '{posting,posting_number}')`)
      .where(sql`${table.entity} = 'finance'`),
  ],
);

/** Marketplace settings that outlive a restart, e.g. the simulator's demo scale chosen by `npm run seed -- --orders N`. */
export const mpSettings = pgTable('mp_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

/**
 * Orders as the lists show them (contract/orders.ts OrderRow), flattened: one row per product line of a synced FBS
 * posting (projected from mp_records by server/areas/orders/projection.ts) or per entered ("manual") order.
 * Rows are never removed: `deleted` is a tombstone that the browser's incremental sync carries to its cache.
 * `updated_at` moves only when a row's data changes; (user_id, updated_at, id) is the sync cursor's order.
 * `shop_id` has no foreign key: a deleted shop's rows stay as tombstones for the caches that still hold them.
 */
export const orders = pgTable(
  'orders',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    shopId: integer('shop_id').notNull().default(0),
    shopName: text('shop_name').notNull().default(''),
    postingNumber: text('posting_number').notNull().default(''),
    orderNumber: text('order_number').notNull().default(''),
    orderId: text('order_id').notNull().default(''),
    status: text('status').notNull(),
    substatus: text('substatus').notNull().default(''),
    warehouseId: text('warehouse_id').notNull().default(''),
    warehouseName: text('warehouse_name').notNull().default(''),
    inProcessAt: timestamptz('in_process_at').notNull(),
    shipmentDate: timestamptz('shipment_date'),
    deliveringDate: timestamptz('delivering_date'),
    trackingNumber: text('tracking_number').notNull().default(''),
    sku: text('sku').notNull().default(''),
    offerId: text('offer_id').notNull().default(''),
    productName: text('product_name').notNull().default(''),
    quantity: integer('quantity').notNull().default(1),
    amount: numeric('amount', { precision: 14, scale: 2, mode: 'number' }).notNull().default(0),
    currency: text('currency').notNull().default('CNY'),
    /** 'ozon' (projected from a synced posting) or 'manual' (entered by the seller). */
    source: text('source').notNull(),
    deleted: boolean('deleted').notNull().default(false),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    /**
     * An entered order's person who entered it (users.id: the owner or a member), for a role that keeps a member to
     * their own records; null for synced orders and for those entered before it was kept. No foreign key: a removed
     * member's orders stay the owner's.
     */
    createdBy: integer('created_by'),
    /** The row's list columns as the sync's binary copy sends them, kept by Postgres (server/lists/copyFrame.ts). */
    syncRow: bytea('sync_row').generatedAlwaysAs(sql.raw(packedRowSql(ORDER_COPY))),
  },
  (table) => [
    index('orders_sync_idx').on(table.userId, table.updatedAt, table.id),
    index('orders_user_in_process_idx').on(table.userId, table.inProcessAt),
    index('orders_shop_posting_idx').on(table.shopId, table.postingNumber),
    index('orders_user_source_idx').on(table.userId, table.source),
    // A seller's own posting found by its tracking number (parcel tracking, server/areas/tracking).
    index('orders_user_tracking_idx').on(table.userId, table.trackingNumber).where(sql`${table.trackingNumber} <> ''`),
  ],
);

/**
 * How many live (not deleted) orders each user has per shop, kept by statement triggers on `orders` (migrations 0026,
 * 0039): a first visit's list answers its total from here instead of counting a million rows, the owner's as the sum
 * of their shops and a member scoped to some shops (or a list filtered by shop) as the sum of those. No foreign key:
 * a deleted user's or shop's cascade runs the orders' delete trigger after the user or shop is gone.
 */
export const orderCounts = pgTable(
  'order_counts',
  {
    userId: integer('user_id').notNull(),
    shopId: integer('shop_id').notNull().default(0),
    live: bigint('live', { mode: 'number' }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.shopId] })],
);

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;

// ---- Team contacts and messages (issue 6; server/areas/contacts). Friendships are stored once per side, so each
// user's sections and remarks are their own.

export const chatFriendSections = pgTable(
  'chat_friend_sections',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [uniqueIndex('chat_friend_sections_user_name_idx').on(table.userId, table.name)],
);

export const chatFriendships = pgTable(
  'chat_friendships',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    friendId: integer('friend_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sectionId: integer('section_id')
      .notNull()
      .references(() => chatFriendSections.id, { onDelete: 'cascade' }),
    remark: text('remark').notNull().default(''),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.friendId] })],
);

export const chatGroups = pgTable('chat_groups', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  introduction: text('introduction').notNull().default(''),
  ownerId: integer('owner_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamptz('created_at').notNull(),
});

export const chatGroupMembers = pgTable(
  'chat_group_members',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => chatGroups.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<'owner' | 'member'>().notNull().default('member'),
    joinedAt: timestamptz('joined_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.groupId, table.userId] }), index('chat_group_members_user_idx').on(table.userId)],
);

export const chatGroupNotices = pgTable(
  'chat_group_notices',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => chatGroups.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    title: text('title').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [index('chat_group_notices_group_idx').on(table.groupId)],
);

/** Friend applications (group_id null) and applications to join a group. */
export const chatRequests = pgTable(
  'chat_requests',
  {
    id: serial('id').primaryKey(),
    fromUserId: integer('from_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The person asked: the friend, or the group's owner. */
    toUserId: integer('to_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    groupId: integer('group_id').references(() => chatGroups.id, { onDelete: 'cascade' }),
    /** The applicant's section for the new friend. */
    fromSectionId: integer('from_section_id').references(() => chatFriendSections.id, { onDelete: 'set null' }),
    message: text('message').notNull().default(''),
    status: text('status').$type<'pending' | 'accepted' | 'rejected'>().notNull().default('pending'),
    createdAt: timestamptz('created_at').notNull(),
    decidedAt: timestamptz('decided_at'),
  },
  (table) => [index('chat_requests_to_idx').on(table.toUserId), index('chat_requests_from_idx').on(table.fromUserId)],
);

/**
 * One-to-one and group messages. A one-to-one conversation is keyed by its two user ids in order (low, high), so
 * both sides page the same index; history pages go backwards by id.
 */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: serial('id').primaryKey(),
    senderId: integer('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    groupId: integer('group_id').references(() => chatGroups.id, { onDelete: 'cascade' }),
    userLow: integer('user_low'),
    userHigh: integer('user_high'),
    content: text('content').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [
    index('chat_messages_pair_idx').on(table.userLow, table.userHigh, table.id),
    index('chat_messages_group_idx').on(table.groupId, table.id),
  ],
);

/** How far each user has read each conversation (`friend:<id>` / `group:<id>`). */
export const chatReads = pgTable(
  'chat_reads',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    conversation: text('conversation').notNull(),
    lastReadId: integer('last_read_id').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.conversation] })],
);

/**
 * The Bank of Russia's official rates (server/integrations/cbr), kept so conversion works when the service cannot be
 * reached: one row per currency and date the rate was set for. `value` roubles buy `nominal` units (four decimals,
 * exact); `fetched_at` says when this server last read it from the bank.
 */
export const fxRates = pgTable(
  'fx_rates',
  {
    date: date('date', { mode: 'string' }).notNull(),
    code: text('code').notNull(),
    cbrId: text('cbr_id').notNull(),
    numCode: text('num_code').notNull(),
    nominal: integer('nominal').notNull(),
    name: text('name').notNull(),
    value: numeric('value', { precision: 18, scale: 4 }).notNull(),
    fetchedAt: timestamptz('fetched_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.date, table.code] }), index('fx_rates_code_date').on(table.code, table.date)],
);
