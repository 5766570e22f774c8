import { count, desc, eq, inArray } from 'drizzle-orm';
import { NOTICE_MESSAGES, type NoticePage, type NoticeRow } from '../../../contract/notice';
import type { Notice } from '../../../contract/session';
import type { Db } from '../../db/database';
import { notices, users } from '../../db/schema';
import { ApiError } from '../../http/errors';
import type { ServiceDeps } from '../session/deps';
import { formatNoticeTime, newestNotice } from '../session/service';

const noticeColumns = { id: notices.id, text: notices.text, updateTime: notices.updateTime, author: users.username };

function toRow(row: { id: number; text: string; updateTime: Date; author: string | null }): NoticeRow {
  return { id: row.id, text: row.text, updateTime: formatNoticeTime(row.updateTime), author: row.author };
}

async function rowById(db: Db, id: number): Promise<NoticeRow> {
  const [row] = await db.select(noticeColumns).from(notices).leftJoin(users, eq(users.id, notices.createdBy)).where(eq(notices.id, id));
  if (!row) throw new ApiError(404, NOTICE_MESSAGES.noticeNotFound, 'id');
  return toRow(row);
}

export async function listNotices(deps: ServiceDeps, query: { page: number; rows: number }): Promise<NoticePage> {
  const [rows, [total]] = await Promise.all([
    deps.db
      .select(noticeColumns)
      .from(notices)
      .leftJoin(users, eq(users.id, notices.createdBy))
      .orderBy(desc(notices.updateTime), desc(notices.id))
      .limit(query.rows)
      .offset((query.page - 1) * query.rows),
    deps.db.select({ n: count() }).from(notices),
  ]);
  return { list: rows.map(toRow), total: total?.n ?? 0 };
}

/**
 * The time a notice is published with: now, or just after the newest notice when the clock has not moved past it
 * (same millisecond, or a clock set back), so the notice just published is always the one /api/noticeCheck serves.
 */
async function publishTime(deps: ServiceDeps): Promise<Date> {
  const now = deps.now();
  const [newest] = await deps.db.select({ updateTime: notices.updateTime }).from(notices).orderBy(desc(notices.updateTime)).limit(1);
  return newest && newest.updateTime.getTime() >= now.getTime() ? new Date(newest.updateTime.getTime() + 1) : now;
}

export function asNotice(row: NoticeRow): Notice {
  return { text: row.text, updateTime: row.updateTime };
}

export async function addNotice(deps: ServiceDeps, authorId: number, text: string): Promise<NoticeRow> {
  const [row] = await deps.db
    .insert(notices)
    .values({ text, updateTime: await publishTime(deps), createdBy: authorId })
    .returning({ id: notices.id });
  if (!row) throw new Error('insert returned no row');
  return rowById(deps.db, row.id);
}

export async function updateNotice(deps: ServiceDeps, id: number, text: string): Promise<NoticeRow> {
  const updated = await deps.db
    .update(notices)
    .set({ text, updateTime: await publishTime(deps) })
    .where(eq(notices.id, id))
    .returning({ id: notices.id });
  if (updated.length === 0) throw new ApiError(404, NOTICE_MESSAGES.noticeNotFound, 'id');
  return rowById(deps.db, id);
}

/**
 * Deletes all of `ids` or none (404 when one is unknown). Answers the notice now served when deleting changed it,
 * so the banner can move on without waiting for the next notice check.
 */
export async function deleteNotices(deps: ServiceDeps, ids: readonly number[]): Promise<{ deleted: number; newNewest: Notice | null }> {
  const unique = [...new Set(ids)];
  const before = await newestNotice(deps);
  const deleted = await deps.db.transaction(async (tx) => {
    const gone = await tx.delete(notices).where(inArray(notices.id, unique)).returning({ id: notices.id });
    if (gone.length !== unique.length) throw new ApiError(404, NOTICE_MESSAGES.noticeNotFound, 'ids');
    return gone.length;
  });
  const after = await newestNotice(deps);
  const changed = after !== null && (before === null || before.text !== after.text || before.updateTime !== after.updateTime);
  return { deleted, newNewest: changed ? after : null };
}
