import pg from 'pg';
import { writeListFrame, type EncodedListChunk } from '../../contract/listFrame';
import type { Database } from '../db/database';
import { SERVER_MESSAGES, ValidationFailure } from '../http/errors';
import { copySelect, readCopyFrame, type ListCopy } from './copyFrame';
import { shopScopeKey, shopScopeSql } from '../areas/team/shopScope';

/**
 * The browser cache's incremental sync of any big list, served from the list's table: its rows carry `user_id`,
 * `id` and `updated_at`, the cursor is `<updated_at in µs>:<id>`, changes go oldest first, tombstones included.
 * Orders and products both serve their `…/sync` calls with this.
 */

/** Changes younger than this are sent again by the next sync: a transaction that began earlier may commit later. */
export const SYNC_SETTLE_MS = 10_000;

export type ListCursor = { micros: bigint; id: string };
/** The times a cursor may name: what Postgres's timestamps hold, around 1200 BC to year 287,000. */
const MIN_CURSOR_MICROS = -100_000_000_000_000_000n;
const MAX_CURSOR_MICROS = 9_000_000_000_000_000_000n;

export function parseListCursor(text: string | undefined): ListCursor {
  if (!text) return { micros: -1n, id: '' };
  const match = /^(-?\d{1,20}):(.*)$/s.exec(text);
  // A time and an id Postgres can hold (text holds no NUL character).
  const micros = match ? BigInt(match[1]!) : 0n;
  if (!match || micros < MIN_CURSOR_MICROS || micros > MAX_CURSOR_MICROS || match[2]!.includes('\0')) throw new ValidationFailure('cursor', SERVER_MESSAGES.invalid);
  return { micros, id: match[2]! };
}

const formatCursor = (cursor: ListCursor) => `${cursor.micros}:${cursor.id}`;
const isAfter = (a: ListCursor, b: ListCursor) => a.micros > b.micros || (a.micros === b.micros && a.id > b.id);

/**
 * Where the next sync starts after a chunk that ended at `lastText` (null: the chunk was empty). The last chunk's
 * cursor steps back to SYNC_SETTLE_MS ago, so a change that commits late is still fetched; the repeats are harmless
 * (the cache upserts by id).
 */
export function nextListCursor(now: Date, from: ListCursor, lastText: string | null, hasMore: boolean): string {
  let next = lastText ? parseListCursor(lastText) : from;
  if (!hasMore) {
    const settled: ListCursor = { micros: BigInt(now.getTime() - SYNC_SETTLE_MS) * 1000n, id: '' };
    if (isAfter(next, settled)) next = isAfter(settled, from) ? settled : from;
  }
  return formatCursor(next);
}

/**
 * A list's table for the sync: its binary copy, the table's name and the largest frame a request may ask for.
 * `callerSql`: what else narrows the rows to the caller's, as ` and …` (entered orders: a person's own).
 */
export type ListSyncSource = { copy: ListCopy; table: string; maxLimit: number; callerSql?: () => string };

const scopeOf = (source: ListSyncSource) => `${shopScopeSql('shop_id')}${source.callerSql?.() ?? ''}`;

const changedSql = (source: ListSyncSource) =>
  `from ${source.table} where user_id = $1 and (updated_at, id) > (timestamptz 'epoch' + $2::bigint * interval '1 microsecond', $3)${scopeOf(source)}`;

/**
 * The select of a frame's copy: the user's first `limit` changes after the cursor (microseconds since 1970 and id),
 * oldest first, in the order readCopyFrame reads. Ask for one row more than a frame holds to learn whether more wait.
 */
export function listFrameSelect(source: ListSyncSource, userId: number, micros: bigint, id: string, limit: number): string {
  if (!Number.isSafeInteger(userId) || !Number.isSafeInteger(limit) || limit < 0) throw new Error('frame select: bad user or limit');
  return `${copySelect(source.copy, source.table)}
    where user_id = ${userId} and (updated_at, id) > (timestamptz 'epoch' + ${micros.toString()}::bigint * interval '1 microsecond', ${pg.escapeLiteral(id)})${scopeOf(source)}
    order by updated_at, id limit ${limit}`;
}

type BuiltFrame = { bytes: Uint8Array; cursor: string; hasMore: boolean };
export type ListFrameSyncDeps = { database: Database; now: () => Date };

/** One frame of the changes after `cursorText` (contract/listFrame.ts). */
async function buildFrame(
  deps: ListFrameSyncDeps,
  source: ListSyncSource,
  userId: number,
  cursorText: string | undefined,
  limit: number,
  options: { count?: boolean } = {},
): Promise<BuiltFrame> {
  const from = parseListCursor(cursorText);
  const take = Math.min(limit, source.maxLimit);
  // The count reads only the index, on a connection of its own where there is one (Postgres), beside the frame.
  const [{ chunk, hasMore, last }, counted] = await Promise.all([
    deps.database.copyBinary(listFrameSelect(source, userId, from.micros, from.id, take + 1), (bytes) => readCopyFrame(source.copy, bytes, take)),
    options.count
      ? deps.database.query<{ n: number | string }>(`select count(*) as n ${changedSql(source)}`, [userId, from.micros.toString(), from.id])
      : null,
  ]);
  const cursor = nextListCursor(deps.now(), from, last, hasMore);
  // A row changed between the two reads could make the count fall short of the frame: never claim fewer than it holds.
  const remaining = counted ? Math.max(Number(counted[0]!.n), chunk.n) : undefined;
  return { bytes: writeListFrame(source.copy.schema, chunk as EncodedListChunk, { cursor, hasMore, remaining }), cursor, hasMore };
}

/** How long a frame built ahead waits for the browser to ask for it. */
const FRAME_READ_AHEAD_MS = 5_000;

/**
 * The binary sync with read-ahead: when a frame says more follow, the next one is built at once, while this one
 * travels and the browser stores it, so a full sync of twenty frames does not wait for Postgres twenty times in a
 * row. One frame ahead per user, used only by a request for exactly its cursor and limit within
 * FRAME_READ_AHEAD_MS (older ones are dropped: a frame read a moment earlier is one the sync could have had then).
 */
export function createListFrameSync(deps: ListFrameSyncDeps, source: ListSyncSource) {
  /** The frame a user's sync asks for next: built ahead, or (after a sync's small first frame) only expected. */
  const ahead = new Map<number, { key: string; depth: number; frame: Promise<BuiltFrame | null> | null }>();
  // An account's people may sync at once with different shops: the read-ahead is per account and scope.
  const keyOf = (cursor: string | undefined, limit: number) => `${shopScopeKey()}:${limit}:${cursor ?? ''}`;
  /** `nextLimit`: the limit the next request will ask with (the frame ahead is built at that size). */
  return async function syncFrame(userId: number, cursor: string | undefined, limit: number, nextLimit = limit): Promise<Uint8Array> {
    const waiting = ahead.get(userId);
    ahead.delete(userId);
    const expected = waiting?.key === keyOf(cursor, limit) ? waiting : null;
    const early = expected?.frame ? await expected.frame : null;
    const frame = early ?? (await buildFrame(deps, source, userId, cursor, limit));
    if (frame.hasMore) {
      // How many frames of this sync came before the next (a frame not expected starts a sync, as far as we
      // know). The third says how many rows are left, so a full sync's browser makes room for a million rows
      // once instead of growing its columns chunk by chunk; the count waits until rows are on screen (the first
      // two frames), on a 2-core machine it would compete with showing them.
      const depth = expected ? expected.depth + 1 : 1;
      // After a sync's small first frame (a first visit: its rows are about to be shown) the next, twenty times
      // larger, is built when the browser asks for it, which it does once the list has its first rows: built at
      // once, it took the CPU from showing them (a cold load's first rows, medians of nine, with the worker's side: 1130 -> 928 ms).
      // A failure ahead is nobody's yet: the request that asks for this cursor builds the frame again.
      const next = limit < nextLimit ? null : buildFrame(deps, source, userId, frame.cursor, nextLimit, { count: depth === 2 }).catch(() => null);
      const entry = { key: keyOf(frame.cursor, nextLimit), depth, frame: next };
      ahead.set(userId, entry);
      // Unasked for (a sync that stopped, a closed tab), it is dropped: nothing stays behind, nothing stale is used.
      setTimeout(() => ahead.get(userId) === entry && ahead.delete(userId), FRAME_READ_AHEAD_MS).unref();
    }
    return frame.bytes;
  };
}
