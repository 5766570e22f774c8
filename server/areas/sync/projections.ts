import type { Database } from '../../db/database';

/**
 * What runs after each committed chunk of synced postings: the orders area flattens mp_records' postings into its
 * own table. Idempotent by contract (a resumed run may hand it the same postings again).
 */
export type PostingsProjection = (database: Database, shopId: number) => Promise<unknown>;

// TODO(orders): add the orders area's `projectPostings` (server/areas/orders/) here once it lands; until then synced
// postings stay in mp_records only.
export const POSTINGS_PROJECTIONS: readonly PostingsProjection[] = [];
