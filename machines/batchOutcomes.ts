/**
 * The per-item bookkeeping every batch action machine shares (orders, products, promotions): each item of a run is
 * pending, done, or failed with the reason the user reads; a retry runs again what is not done, in the selection's
 * order; a whole chunk that fails fails each of its items with the call's reason.
 */

export type ItemOutcome = { status: 'pending' } | { status: 'done' } | { status: 'failed'; reason: string };
export type ItemOutcomes = Record<string, ItemOutcome>;

/** A failure's text; a typed failure without one (the worker's `{ type: 'StaleHandle' }`) by its type, for the page to word. */
export function reasonOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error) return String((error as { message: unknown }).message);
  if (typeof error === 'object' && error !== null && 'type' in error) return String((error as { type: unknown }).type);
  return String(error);
}

/** Failed, or not run yet (a cancel or a crash left it pending): what a retry sends again. */
export const isRetryable = (outcome: ItemOutcome | undefined) => outcome !== undefined && outcome.status !== 'done';

/** A new run: every item pending. */
export const allPending = (keys: readonly string[]): ItemOutcomes => Object.fromEntries(keys.map((key) => [key, { status: 'pending' } as ItemOutcome]));

/** The items of `keys` failed with one reason (a chunk whose call failed, labels Ozon never made). */
export function failAll(outcomes: ItemOutcomes, keys: readonly string[], reason: string): ItemOutcomes {
  const next = { ...outcomes };
  for (const key of keys) next[key] = { status: 'failed', reason };
  return next;
}

/** A retry: what is not done (in the order of `keys`), pending again and queued. */
export function requeueUndone(keys: readonly string[], outcomes: ItemOutcomes): { outcomes: ItemOutcomes; queue: string[] } {
  const queue = keys.filter((key) => isRetryable(outcomes[key]));
  return { outcomes: { ...outcomes, ...allPending(queue) }, queue };
}

/** How the run stands: items in all, done, failed and still pending. */
export function countOutcomes(outcomes: ItemOutcomes): { total: number; done: number; failed: number; pending: number } {
  const all = Object.values(outcomes);
  const done = all.filter((o) => o.status === 'done').length;
  const failed = all.filter((o) => o.status === 'failed').length;
  return { total: all.length, done, failed, pending: all.length - done - failed };
}
