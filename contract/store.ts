import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { rowId } from './fields';
import { lazySchema } from './lazySchema';


export const STORE_STATUSES = ['active', 'keyFailed', 'syncing'] as const;
export type StoreStatus = (typeof STORE_STATUSES)[number];

export const SYNC_ENTITIES = ['warehouses', 'products', 'postings', 'returns', 'finance', 'chats', 'promotions'] as const;
export type SyncEntity = (typeof SYNC_ENTITIES)[number];

/** One entity's sync job as the shop page shows it. */
export const storeSyncStateSchema = lazySchema(() => z.object({
  entity: z.enum(SYNC_ENTITIES),
  status: z.enum(['idle', 'running', 'done', 'failed']),
  /** Records stored by the last (or current) run. */
  done: z.number().int(),
  /** Records of this entity held for the shop. */
  total: z.number().int(),
  finishedAt: z.number().nullable(),
  /** The last failure's reason in the caller's language. */
  error: z.string().nullable(),
}));
export type StoreSyncState = z.infer<typeof storeSyncStateSchema>;

export const storeSchema = lazySchema(() => z.object({
  id: z.number().int(),
  name: z.string(),
  marketplace: z.literal('ozon'),
  clientId: z.string(),
  /** null: the server's configured Ozon API (or the embedded simulator). */
  baseUrl: z.string().nullable(),
  status: z.enum(STORE_STATUSES),
  /** Why sync stopped (the key's failure, in the caller's language), or null. */
  statusReason: z.string().nullable(),
  /** When Ozon says the key expires (epoch ms), or null when Ozon does not say. */
  keyExpiresAt: z.number().nullable(),
  roles: z.array(z.string()),
  createdAt: z.number(),
  lastSyncAt: z.number().nullable(),
  /** Per entity, in SYNC_ENTITIES order; entities never synced yet are 'idle'. */
  sync: z.array(storeSyncStateSchema),
}));
export type Store = z.infer<typeof storeSchema>;
export const storeListSchema = lazySchema(() => z.array(storeSchema));

const name = z.string().trim().min(1).max(64);
const clientId = z.string().trim().regex(/^\d{1,20}$/, 'invalid');
/** Ozon's keys are printable ASCII (a uuid); anything else cannot travel in the Api-Key header. */
const apiKey = z.string().trim().min(1).max(200).regex(/^[\x21-\x7e]+$/, 'invalid');
const baseUrl = z.url({ protocol: /^https?$/ }).max(300).optional();

export const addStoreBodySchema = lazySchema(() => z.object({ name, clientId, apiKey, baseUrl }));
export type AddStoreBody = z.input<typeof addStoreBodySchema>;
export const updateStoreBodySchema = lazySchema(() => z.object({ id: rowId(), name: name.optional(), apiKey: apiKey.optional(), baseUrl }));
export type UpdateStoreBody = z.input<typeof updateStoreBodySchema>;
export const storeIdBodySchema = lazySchema(() => z.object({ id: rowId() }));
export const storeIdsBodySchema = lazySchema(() => z.object({ ids: z.array(rowId()).min(1).max(200) }));

// POST /api/syncOrderList: start (or resume) postings sync for one shop, or for every shop of the user.
export const syncOrderListBodySchema = lazySchema(() => z.object({ storeId: rowId().optional() }));
export const syncStartedSchema = lazySchema(() => z.object({ storeIds: z.array(z.number().int()) }));

/** Answer of /removeDownToArch and /removeFailToArch: how many products were sent to the archive. */
export const archiveResultSchema = lazySchema(() => z.object({ archived: z.number().int() }));
export type ArchiveResult = z.infer<typeof archiveResultSchema>;
export const deletedCountSchema = lazySchema(() => z.number().int());

/** Pushed as `{ type: 'sync.progress', ... }` over the WebSocket while a shop syncs. */
export const syncProgressSchema = lazySchema(() => z.object({
  storeId: z.number().int(),
  entity: z.enum(SYNC_ENTITIES),
  status: z.enum(['running', 'done', 'failed']),
  /** Records stored so far in this run. */
  done: z.number().int(),
  message: z.string().nullable(),
}));
export type SyncProgress = z.infer<typeof syncProgressSchema>;

/** The spec's archive calls: 1 retry after 800 ms, 10 s timeout (seller-tool §7). */
const ARCHIVE_SETTINGS = { timeout: 10_000, retries: 1, retryDelay: 800 } as const;

/**
 * Shops (seller-tool §7 "Shops"): a seller's Ozon shops, bound by Client-Id + Api-Key (the key never comes back);
 * the sync triggers and the one-click archives (§2.4). Adding and editing are silent: the key check's refusal is
 * shown in the dialog itself, next to the field to fix, and never retried.
 */
export const STORE_ENDPOINTS = {
  list: defineEndpoint({ method: 'GET', path: '/store/list', summary: "The user's shops with their sync state.", access: 'store', answer: storeListSchema }),
  add: defineEndpoint({
    method: 'POST',
    path: '/store/add',
    summary: 'Binds a shop after checking its key with Ozon; starts its first sync.',
    access: 'store',
    action: 'edit',
    input: addStoreBodySchema,
    answer: storeSchema,
    settings: { silent: true, retries: 0 },
  }),
  update: defineEndpoint({
    method: 'POST',
    path: '/store/update',
    summary: "Renames a shop or changes its key or base URL (a new key is checked and synced).",
    access: 'store',
    action: 'edit',
    input: updateStoreBodySchema,
    answer: storeSchema,
    settings: { silent: true, retries: 0 },
  }),
  delete: defineEndpoint({ method: 'POST', path: '/store/delete', summary: 'Removes one shop and its data.', access: 'store', action: 'delete', input: storeIdBodySchema, answer: deletedCountSchema }),
  multiDelete: defineEndpoint({
    method: 'POST',
    path: '/store/multiDelete',
    summary: 'Removes several shops and their data.',
    access: 'store',
    action: 'delete',
    input: storeIdsBodySchema,
    answer: deletedCountSchema,
  }),
  apply: defineEndpoint({
    method: 'POST',
    path: '/store/apply',
    summary: 'Checks the key of a shop whose key failed again and resumes its sync.',
    access: 'store',
    action: 'edit',
    input: storeIdBodySchema,
    answer: storeSchema,
  }),
  syncNow: defineEndpoint({
    method: 'POST',
    path: '/store/sync',
    summary: 'Syncs every entity of one shop now; progress arrives as sync.progress pushes.',
    access: 'store',
    action: 'edit',
    input: storeIdBodySchema,
    answer: syncStartedSchema,
  }),
  syncOrderList: defineEndpoint({
    method: 'POST',
    path: '/syncOrderList',
    summary: 'Starts (or resumes) the postings sync of one shop, or of every shop of the user.',
    access: 'orders',
    action: 'view',
    input: syncOrderListBodySchema,
    answer: syncStartedSchema,
    settings: { timeout: 250_000 },
  }),
  removeDownToArch: defineEndpoint({
    method: 'POST',
    path: '/removeDownToArch',
    summary: "Archives the shop's taken-down products in one click.",
    access: 'store',
    action: 'edit',
    input: storeIdBodySchema,
    answer: archiveResultSchema,
    settings: ARCHIVE_SETTINGS,
  }),
  removeFailToArch: defineEndpoint({
    method: 'POST',
    path: '/removeFailToArch',
    summary: "Archives the shop's products in error state in one click.",
    access: 'store',
    action: 'edit',
    input: storeIdBodySchema,
    answer: archiveResultSchema,
    settings: ARCHIVE_SETTINGS,
  }),
} as const;

/**
 * Under this many days a shop's API key is flagged in the list and mailed to its owner once (server/areas/store/keyExpiry.ts):
 * time enough to make a new key in the Ozon seller account.
 */
export const KEY_EXPIRY_WARNING_DAYS = 14;
