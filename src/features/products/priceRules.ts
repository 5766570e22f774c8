import { message as catalogue, type Lang } from '@contract/errors';
import { checkPrice } from '@contract/productRules';

/**
 * Ozon's price rules (contract/productRules.ts: the price above 0, the old price's gap above it, the minimum price
 * not above it) as the seller types: the broken rule named in the user's language, or null.
 */
export function priceProblem(price: number | null, oldPrice: number | null, minPrice: number | null, lang: Lang): string | null {
  if (price === null) return null;
  const refusal = checkPrice({ price, oldPrice: oldPrice ?? 0, minPrice: minPrice ?? 0 });
  return refusal ? catalogue(refusal.key, lang, refusal.params) : null;
}
