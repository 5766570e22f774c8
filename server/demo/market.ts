import type { Database } from '../db/database';
import { generateMarket } from '../areas/research/generate';

/** The demo's market: small enough to generate at the first start; `npm run seed -- --market N` makes a bigger one. */
export const DEMO_MARKET_PRODUCTS = 10_000;

/** Generates the demo market when the store holds none (a market loaded or imported before is kept). */
export async function seedDemoMarket(database: Database): Promise<void> {
  const [meta] = await database.query<{ n: number }>(`select count(*)::int as n from market_meta`);
  if ((meta?.n ?? 0) > 0) return;
  await generateMarket(database, { products: DEMO_MARKET_PRODUCTS });
}
