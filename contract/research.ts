/**
 * Market research (seller-tool /search/*): hot, new and Chinese-seller products, keywords and potential products over
 * the market data store (server/db/tables/market.ts).
 */

/** How the potential score weighs its parts (each 0-100); the weights add up to 1. */
export const POTENTIAL_WEIGHTS = { demand: 0.4, competition: 0.25, reviews: 0.2, price: 0.15 } as const;
export type PotentialPart = keyof typeof POTENTIAL_WEIGHTS;
