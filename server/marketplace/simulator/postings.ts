import type { FbsStatus } from '../ozon/schemas';
import { randomFor } from './random';

/**
 * FBS postings generated on demand: posting i of a shop is a pure function of (seed, shop, i), with times spread
 * evenly over the 90 days before the anchor, so a shop can "hold" a million postings as a count, and only the
 * postings the seller changed (ship, cancel, tracking number) are kept, as overrides.
 */
export const DAY_MS = 86_400_000;
export const HISTORY_DAYS = 90;

export const UNFULFILLED: ReadonlySet<string> = new Set([
  'awaiting_registration',
  'acceptance_in_progress',
  'awaiting_approve',
  'awaiting_packaging',
  'awaiting_deliver',
]);
export const SHIPPED: ReadonlySet<string> = new Set(['awaiting_deliver', 'delivering', 'driver_pickup', 'delivered', 'sent_by_seller', 'arbitration', 'client_arbitration']);

/** Only postings this recent can be unfulfilled when generated (lets unfulfilled lists skip the long tail). */
export const UNFULFILLED_MAX_AGE_MS = 7 * DAY_MS;

type Weighted = readonly (readonly [FbsStatus, number])[];
const FRESH: Weighted = [
  ['awaiting_packaging', 0.55],
  ['awaiting_deliver', 0.2],
  ['awaiting_registration', 0.05],
  ['acceptance_in_progress', 0.05],
  ['awaiting_approve', 0.05],
  ['cancelled', 0.1],
];
const RECENT: Weighted = [
  ['delivering', 0.38],
  ['awaiting_deliver', 0.12],
  ['driver_pickup', 0.05],
  ['delivered', 0.25],
  ['cancelled', 0.1],
  ['arbitration', 0.04],
  ['sent_by_seller', 0.03],
  ['not_accepted', 0.03],
];
const OLD: Weighted = [
  ['delivered', 0.84],
  ['cancelled', 0.11],
  ['client_arbitration', 0.02],
  ['not_accepted', 0.03],
];

/** RECENT rolls from this one up to the end of its 'delivering' share are overdue postings instead (see generatedCore). */
const OVERDUE_ROLL = 0.33;

function weighted(table: Weighted, roll: number): FbsStatus {
  let acc = 0;
  for (const [status, weight] of table) {
    acc += weight;
    if (roll < acc) return status;
  }
  return table[table.length - 1]![0];
}

export type PostingCore = {
  index: number;
  inProcessAt: number;
  status: FbsStatus;
  warehouseIndex: number;
  /** When the status last changed (ms). */
  lastChangedAt: number;
};

/** The cheap part of a generated posting: what list filters look at. */
export function generatedCore(seed: string, clientId: string, index: number, start: number, step: number, anchor: number): PostingCore {
  const r = randomFor(seed, clientId, 'posting', index);
  const inProcessAt = Math.floor(start + (index + 0.5) * step);
  const age = anchor - inProcessAt;
  const table = age < 2 * DAY_MS ? FRESH : age < UNFULFILLED_MAX_AGE_MS ? RECENT : OLD;
  const roll = r.next();
  // A few postings of two to four days ago were never packed: overdue on the desk (rolls that would be 'delivering').
  const status = table === RECENT && age < 4 * DAY_MS && roll >= OVERDUE_ROLL && roll < RECENT[0]![1] ? 'awaiting_packaging' : weighted(table, roll);
  const warehouseIndex = r.int(0, 7);
  const hours = status === 'delivered' ? r.int(72, 200) : status === 'cancelled' ? r.int(1, 48) : r.int(1, 30);
  return { index, inProcessAt, status, warehouseIndex, lastChangedAt: Math.min(anchor, inProcessAt + hours * 3_600_000) };
}

/** Products of a generated posting: 1 to 3 lines from the shop's sellable cards. */
export function generatedLines(seed: string, clientId: string, index: number, sellableCount: number) {
  const r = randomFor(seed, clientId, 'lines', index);
  const count = r.chance(0.75) ? 1 : r.int(2, 3);
  const picked = new Set<number>();
  while (picked.size < Math.min(count, sellableCount)) picked.add(r.int(0, sellableCount - 1));
  return [...picked].map((productIndex) => ({ productIndex, quantity: r.chance(0.8) ? 1 : r.int(2, 4) }));
}

export const orderNumberOf = (clientId: string, index: number) => `${clientId}${String(index).padStart(7, '0')}-0001`;

/** Parses `<clientId><7 digits>-0001-<n>` back to the posting index and package number. */
export function parsePostingNumber(clientId: string, postingNumber: string): { index: number; part: number } | undefined {
  const m = /^(\d+)-0001-(\d+)$/.exec(postingNumber);
  if (!m || !m[1]!.startsWith(clientId) || m[1]!.length !== clientId.length + 7) return undefined;
  return { index: Number(m[1]!.slice(clientId.length)), part: Number(m[2]) };
}

export const CANCEL_REASONS = [
  { id: 352, title: 'Товар закончился на складе продавца', type_id: 'seller' },
  { id: 400, title: 'Только FBS: товар невозможно отправить', type_id: 'seller' },
  { id: 401, title: 'Продавец отклонил арбитраж', type_id: 'seller' },
  { id: 402, title: 'Другое (вина продавца)', type_id: 'seller' },
  { id: 665, title: 'Покупатель не забрал заказ', type_id: 'buyer' },
] as const;
