import type { MessageKey, MessageParams } from './errors';

/**
 * Ozon's rules on prices and stocks (shared/reference/ozon-seller-api.md), checked before anything is sent: by the
 * page as the seller types (inline editing), by the server on every call, and by the simulator as Ozon does.
 * A refusal is a catalogue key with its parameters (contract/errors.ts), so each side shows it in the user's language.
 */
export type RuleRefusal = { key: MessageKey; params?: MessageParams };

/** At most this many price changes per product in an hour. */
export const PRICE_CHANGES_PER_HOUR = 10;
export const HOUR_MS = 3_600_000;
/** One stock change per product and warehouse in this time. */
export const STOCK_PAIR_INTERVAL_MS = 30_000;

/** How far above the price an old (crossed-out) price must be: 20 under 400, 5% from 400 to 10,000, 500 above. */
export function oldPriceGap(price: number): number {
  if (price < 400) return 20;
  if (price <= 10_000) return Math.ceil(price * 0.05 * 100) / 100;
  return 500;
}

/** A new price set (card currency; 0 old or minimum price: none). Null when Ozon would take it. */
export function checkPrice({ price, oldPrice = 0, minPrice = 0 }: { price: number; oldPrice?: number; minPrice?: number }): RuleRefusal | null {
  if (!(price > 0)) return { key: 'priceNotPositive' };
  if (oldPrice > 0) {
    const gap = oldPriceGap(price);
    // Cents compared as whole numbers: 420 - 400 must equal the gap of 20, whatever floating point makes of it.
    if (Math.round((oldPrice - price) * 100) < Math.round(gap * 100)) return { key: 'priceGapTooSmall', params: { gap: String(gap) } };
  }
  if (minPrice > 0 && minPrice > price) return { key: 'minPriceAbovePrice' };
  return null;
}

/** The hour's earlier price changes of a product (epoch ms): a refusal when one more would pass the limit. */
export function checkPriceRate(changes: readonly number[], now: number): RuleRefusal | null {
  const recent = changes.filter((at) => now - at < HOUR_MS).sort((a, b) => a - b);
  if (recent.length < PRICE_CHANGES_PER_HOUR) return null;
  const freeAt = recent[recent.length - PRICE_CHANGES_PER_HOUR]! + HOUR_MS;
  return { key: 'priceChangesPerHour', params: { count: String(recent.length), at: new Date(freeAt).toISOString().slice(11, 16) + ' UTC' } };
}

/** The last stock change of a product at a warehouse (epoch ms, or null): a refusal within STOCK_PAIR_INTERVAL_MS. */
export function checkStockRate(lastAt: number | null, now: number): RuleRefusal | null {
  if (lastAt === null || now - lastAt >= STOCK_PAIR_INTERVAL_MS) return null;
  return { key: 'stockTooSoon', params: { seconds: String(Math.ceil((STOCK_PAIR_INTERVAL_MS - (now - lastAt)) / 1000)) } };
}
