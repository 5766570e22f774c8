import type { OrderRow } from '@contract/orders';
import type { OrdersOpenResult } from '@workers/orders/area';
import type { OrderQuery } from '@workers/orders/types';
import type { DataClient } from '@workers/client';
import { initialOrderQuery, ORDER_PAGE_PATHS, ORDER_VIEWS, ORDER_WINDOW_ROWS, type OrdersMode } from './query';

/**
 * An order page opened by a reload or a link gets its first rows asked for while the app starts: the worker opens
 * the cache and answers the page's first query and window during the session check and the shell's first render,
 * and the page shows them in its first render instead of asking only once it is there (issue 5, warm open).
 */

export type FirstAnswer = {
  userId: number;
  view: string;
  key: string;
  askedAt: number;
  opened: Promise<OrdersOpenResult>;
  /** The first query's handle and total with the rows of its first window; null when it was superseded. */
  answer: Promise<{ handle: number; total: number; rows: OrderRow[] } | null>;
  /** Both, once they are here. */
  settled: { opened: OrdersOpenResult; handle: number; total: number; rows: OrderRow[] } | null;
};

/** Older than this, an answer is not taken: the page came later than start-up (another login, another visit). */
const FRESH_MS = 15_000;

let pending: FirstAnswer | null = null;

const modeOf = (pathname: string) => (Object.keys(ORDER_PAGE_PATHS) as OrdersMode[]).find((mode) => ORDER_PAGE_PATHS[mode] === pathname.replace(/\/$/, ''));

/** Opens the user's orders in the worker and, on a list page, asks for that list's first answer. */
export function askFirstAnswer(client: DataClient, userId: number, pathname: string): void {
  const mode = modeOf(pathname);
  if (!mode) {
    client.orders.open(userId).catch(() => undefined);
    return;
  }
  const view = ORDER_VIEWS[mode];
  const query = initialOrderQuery(mode);
  const call = client.orders.first(userId, query, view, ORDER_WINDOW_ROWS);
  const entry: FirstAnswer = {
    userId,
    view,
    key: JSON.stringify(query),
    askedAt: Date.now(),
    opened: call.then((answer) => answer.opened),
    answer: call.then(({ opened, result, rows }) => {
      if (result.status !== 'done') return null;
      entry.settled = { opened, handle: result.handle, total: result.total, rows };
      return { handle: result.handle, total: result.total, rows };
    }),
    settled: null,
  };
  entry.opened.catch(() => undefined);
  entry.answer.catch(() => undefined);
  pending = entry;
}

/**
 * The answer for this list's first query, while it is still to be taken: only the page that start-up asked for gets
 * it, and only soon after (its handle is the view's current one until the page queries again). Read during render, it
 * stays until `takenFirstAnswer` (a render React throws away, interrupted by an urgent update, must not lose it: the
 * render after it found nothing and opened the list the slow way, half a second later).
 */
export function peekFirstAnswer(userId: number, view: string, query: OrderQuery): FirstAnswer | null {
  const entry = pending;
  if (!entry || entry.userId !== userId || entry.view !== view || entry.key !== JSON.stringify(query) || Date.now() - entry.askedAt > FRESH_MS) return null;
  return entry;
}

/** The page that read `entry` is on screen: no later page takes it. */
export function takenFirstAnswer(entry: FirstAnswer): void {
  if (pending === entry) pending = null;
}
