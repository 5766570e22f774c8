import type { Database } from '../../db/database';
import { projectPostings } from '../orders/projection';

/**
 * What runs after each committed chunk of synced postings: the orders area flattens mp_records' postings into its
 * own table, for the records synced at or after `since` (the page's own). Idempotent by contract (a resumed run may
 * hand it the same postings again). When rows changed, the sync service pushes 'orders.changed' to `userId` so open
 * order lists catch up.
 */
export type PostingsProjection = (database: Database, shopId: number, options: { since: Date }) => Promise<{ changed: number; userId: number | null }>;

export const POSTINGS_PROJECTIONS: readonly PostingsProjection[] = [projectPostings];
