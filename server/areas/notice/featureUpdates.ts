import { and, count, desc, eq, inArray, lte } from 'drizzle-orm';
import { NOTICE_MESSAGES, type CurrentFeatureUpdate, type FeatureUpdate, type FeatureUpdateItem, type FeatureUpdatePage, type LocalizedText } from '../../../contract/notice';
import { featureUpdates } from '../../db/schema';
import { ApiError } from '../../http/errors';
import type { ServiceDeps } from '../session/deps';
import { formatNoticeTime } from '../session/service';

type FeatureUpdateRow = typeof featureUpdates.$inferSelect;

function toFeatureUpdate(row: FeatureUpdateRow): FeatureUpdate {
  return { id: row.id, startDate: row.startDate, title: row.title, items: row.items, active: row.active, updatedAt: row.updatedAt.getTime() };
}

/** Today in China (UTC+8), the sellers' calendar the start dates are written in. */
function chinaToday(now: Date): string {
  return formatNoticeTime(now).slice(0, 10);
}

/** The newest active announcement whose start date has come; announcements can be prepared ahead of their day. */
export async function currentFeatureUpdate(deps: ServiceDeps): Promise<CurrentFeatureUpdate | null> {
  const [row] = await deps.db
    .select()
    .from(featureUpdates)
    .where(and(eq(featureUpdates.active, true), lte(featureUpdates.startDate, chinaToday(deps.now()))))
    .orderBy(desc(featureUpdates.startDate), desc(featureUpdates.id))
    .limit(1);
  return row ? { id: row.id, startDate: row.startDate, title: row.title, items: row.items } : null;
}

export async function listFeatureUpdates(deps: ServiceDeps, query: { page: number; rows: number }): Promise<FeatureUpdatePage> {
  const [rows, [total]] = await Promise.all([
    deps.db
      .select()
      .from(featureUpdates)
      .orderBy(desc(featureUpdates.startDate), desc(featureUpdates.id))
      .limit(query.rows)
      .offset((query.page - 1) * query.rows),
    deps.db.select({ n: count() }).from(featureUpdates),
  ]);
  return { list: rows.map(toFeatureUpdate), total: total?.n ?? 0 };
}

export type FeatureUpdateInput = { startDate: string; title: LocalizedText; items: FeatureUpdateItem[]; active: boolean };

export async function addFeatureUpdate(deps: ServiceDeps, input: FeatureUpdateInput): Promise<FeatureUpdate> {
  const now = deps.now();
  const [row] = await deps.db
    .insert(featureUpdates)
    .values({ ...input, createdAt: now, updatedAt: now })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return toFeatureUpdate(row);
}

export async function updateFeatureUpdate(deps: ServiceDeps, id: number, changes: Partial<FeatureUpdateInput>): Promise<FeatureUpdate> {
  const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<FeatureUpdateInput>;
  const [row] = await deps.db
    .update(featureUpdates)
    .set({ ...defined, updatedAt: deps.now() })
    .where(eq(featureUpdates.id, id))
    .returning();
  if (!row) throw new ApiError(404, NOTICE_MESSAGES.featureUpdateNotFound, 'id');
  return toFeatureUpdate(row);
}

/** Deletes all of `ids` or none (404 when one is unknown). */
export async function deleteFeatureUpdates(deps: ServiceDeps, ids: readonly number[]): Promise<{ deleted: number }> {
  const unique = [...new Set(ids)];
  return deps.db.transaction(async (tx) => {
    const gone = await tx.delete(featureUpdates).where(inArray(featureUpdates.id, unique)).returning({ id: featureUpdates.id });
    if (gone.length !== unique.length) throw new ApiError(404, NOTICE_MESSAGES.featureUpdateNotFound, 'ids');
    return { deleted: gone.length };
  });
}
