import type { Database } from '../../db/database';
import { LEAF_TYPES } from '../../marketplace/simulator/catalog';
import { StageWriter, type MarketKeywordRecord, type MarketProductRecord } from './stage';
import { beginLoad, buildKeywords, buildProducts, discardLoad, indexNext, STAGE, swapIn, type LoadSummary } from './store';
import { chineseSellerName } from '../../demo/sellerNames';

/**
 * A deterministic market for the demo, the tests and the benchmark (`npm run seed -- --market N`): N products on the
 * simulator's Ozon category tree with 90 days of sales and prices, and 0.3 N keywords with 90 days of searches.
 *
 * - sales follow a power law (most products sell a few units a month, a few sell hundreds a day), with a trend per
 *   product, a season per leaf type, weekly promotions and daily noise; about one in ten products is new (first seen
 *   in the last 60 days);
 * - leaf types differ in size and in how many sellers crowd them; about 42 % of sellers are Chinese;
 * - keywords combine the types' product words with buyers' modifiers; about 30 % are strongly seasonal, some trend;
 *   each ranks ten of its type's 200 best sellers.
 * Every value derives from the row's number (`unit`), so the same N and day give the same market. It is staged and
 * swapped in like an import (./store.ts): the previous market stays until the new one is whole.
 */

export const MARKET_DAYS = 90;
const DAY_MS = 86_400_000;

/** A row number and salt's fixed pseudo-random value in [0, 1) (murmur3's finaliser). */
export function unit(i: number, salt: number): number {
  let h = Math.imul(i | 0, 0x9e3779b1) ^ Math.imul((salt + 0x632be5ab) | 0, 0x85ebca77);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4_294_967_296;
}

const BRANDS = ['Baseus', 'Ugreen', 'Xiaomi', 'Anker', 'Remax', 'Hoco', 'Joyroom', 'Borofone', 'Usams', 'Lenovo', 'Haylou', 'QCY',
  'Deerma', 'Xiaoda', 'Kuulaa', 'Mijia', 'Tuya', 'Sokany', 'Kiss Beauty', 'Ruhe', 'Maxwell', 'Polaris', 'Scarlett', 'Vitek',
  'Red Line', 'Zaryad', 'Solaris', 'Dekor', 'Lamoda', 'Gloria Jeans'];
export const NO_BRAND = 'Нет бренда';
const RU_WORDS = ['Торг', 'Маркет', 'Стиль', 'Дом', 'Техно', 'Мир', 'Альфа', 'Вектор', 'Простор', 'Лидер'];
const OTHER_COUNTRIES = ['TR', 'KZ', 'BY', 'UZ', 'AM', 'KG'];
const MODIFIERS = ['купить', 'недорого', 'женский', 'мужской', 'детский', 'для дома', 'для iphone', 'для samsung', 'набор',
  'большой', 'маленький', 'черный', 'белый', 'розовый', 'с доставкой', 'оптом', 'новинка', 'оригинал', 'складной',
  'беспроводной', 'силиконовый', 'кожаный', 'металлический', 'подарок', 'на день рождения', 'в машину', 'для офиса',
  'для кухни', 'для путешествий', 'зимний', 'летний', 'премиум', 'компактный', 'мощный', 'с подсветкой', 'влагозащитный',
  'универсальный', 'в подарочной коробке', 'со скидкой', 'хит продаж'];
const SUFFIXES = ['', ' pro', ' max', ' mini', ' plus', ' lite', ' 2026', ' 2025', ' xl', ' s'];
const BASE_PRICES = [1900, 2400, 450, 300, 900, 600, 350, 800, 500, 1500, 700, 2200, 1800, 1200];
export const FIRST_SKU = 1_600_000_000;

/** 1,000 buckets of leaf types, a type's share falling with its place (types differ in size), spread out. */
const TYPE_BUCKETS: number[] = (() => {
  const weights = LEAF_TYPES.map((_, t) => 1 / (1 + t * 0.35));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const buckets: number[] = [];
  LEAF_TYPES.forEach((_, t) => {
    const count = Math.round((weights[t]! / total) * 1000);
    for (let i = 0; i < count && buckets.length < 1000; i++) buckets.push(t);
  });
  while (buckets.length < 1000) buckets.push(0);
  return buckets.map((_, b) => buckets[(b * 617) % 1000]!);
})();

const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);
const dayOfYear = (time: number) => Math.floor((time - Date.UTC(new Date(time).getUTCFullYear(), 0, 1)) / DAY_MS);
const pick = <T>(items: readonly T[], u: number): T => items[Math.min(items.length - 1, Math.floor(u * items.length))]!;

export type MarketDays = { asOf: string; from: string; fromTime: number };

/** The market's as-of day is yesterday (UTC) of `now`; its series start 89 days before. */
export function marketDays(now: Date): MarketDays {
  const asOfTime = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - DAY_MS;
  const fromTime = asOfTime - (MARKET_DAYS - 1) * DAY_MS;
  return { asOf: isoDay(asOfTime), from: isoDay(fromTime), fromTime };
}

/** Product number i (1-based) of a market with `sellers` sellers. */
export function generateProduct(i: number, sellers: number, days: MarketDays): MarketProductRecord {
  const t = TYPE_BUCKETS[i % 1000]!;
  const type = LEAF_TYPES[t]!;
  const sellerId = 1 + Math.floor(sellers * unit(i, 2) ** 1.3);
  const countryDraw = unit(sellerId, 3);
  const sellerCountry = countryDraw < 0.42 ? 'CN' : countryDraw < 0.85 ? 'RU' : pick(OTHER_COUNTRIES, unit(sellerId, 4));
  const sellerName =
    sellerCountry === 'CN'
      ? chineseSellerName(sellerId)
      : sellerCountry === 'RU'
        ? `ООО «${RU_WORDS[sellerId % 10]}» ${sellerId}`
        : `Seller ${sellerId}`;
  const brand = unit(sellerId, 16) < 0.4 ? NO_BRAND : BRANDS[sellerId % BRANDS.length]!;
  const rate = Math.min(1500, 0.08 * Math.max(unit(i, 5), 1e-7) ** -0.9);
  const trend = -0.6 + 1.8 * unit(i, 6) ** 2;
  const age = unit(i, 7) < 0.1 ? Math.floor(unit(i, 8) * 60) : 60 + Math.floor(unit(i, 8) * 900);
  const listPrice = Math.round(BASE_PRICES[t % BASE_PRICES.length]! * (0.5 + 1.5 * unit(i, 9))) - 0.01;
  const phase = (2 * Math.PI * ((t * 41) % 365)) / 365;
  const sales: number[] = new Array(MARKET_DAYS);
  const prices: number[] = new Array(MARKET_DAYS);
  for (let d = 0; d < MARKET_DAYS; d++) {
    const time = days.fromTime + d * DAY_MS;
    const promoted = unit(i * 7 + Math.floor(d / 7), 12) < 0.2;
    prices[d] = promoted ? Math.round(listPrice * 85) / 100 : listPrice;
    if (d < MARKET_DAYS - 1 - age) {
      sales[d] = 0;
      continue;
    }
    const season = 1 + 0.3 * Math.sin(phase + (2 * Math.PI * dayOfYear(time)) / 365);
    const expected = rate * Math.max(0, 1 + (trend * (d - 45)) / 90) * season * (promoted ? 1.4 : 1);
    sales[d] = Math.floor(expected * (0.5 + unit(i * 131 + d, 10)) + unit(i * 137 + d, 11));
  }
  const reviews = Math.floor(rate * age * (0.01 + 0.04 * unit(i, 14)));
  const word = pick(type.productWords, unit(i, 13));
  return {
    sku: FIRST_SKU + i,
    name: `${word}${brand === NO_BRAND ? '' : ` ${brand}`} ${((Math.imul(i, 2654435761) >>> 0) % 1_048_576).toString(16).toUpperCase()}`,
    categoryId: type.categoryId,
    typeId: type.typeId,
    brand,
    sellerId,
    sellerName,
    sellerCountry,
    price: prices[MARKET_DAYS - 1]!,
    rating: reviews > 0 ? Math.round((3.6 + 1.4 * Math.sqrt(unit(i, 15))) * 10) / 10 : null,
    reviews,
    firstSeen: isoDay(days.fromTime + (MARKET_DAYS - 1 - age) * DAY_MS),
    from: days.from,
    sales,
    prices,
  };
}

export type GeneratedRecord = { product: MarketProductRecord; keyword?: undefined } | { keyword: MarketKeywordRecord; product?: undefined };

/** The market's records: its N products, then its keywords. */
export function* marketRecords(n: number, days: MarketDays): Generator<GeneratedRecord> {
  const sellers = Math.max(40, Math.round(n / 25));
  // Each type's products by 30-day units, for the keywords' top products.
  const byType = LEAF_TYPES.map(() => ({ skus: [] as number[], units: [] as number[] }));
  for (let i = 1; i <= n; i++) {
    const product = generateProduct(i, sellers, days);
    yield { product };
    const t = TYPE_BUCKETS[i % 1000]!;
    let units = 0;
    for (let d = MARKET_DAYS - 30; d < MARKET_DAYS; d++) units += product.sales[d]!;
    byType[t]!.skus.push(product.sku);
    byType[t]!.units.push(units);
  }
  const tops = byType.map(({ skus, units }) =>
    skus
      .map((sku, k) => [sku, units[k]!] as const)
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, 200)
      .map(([sku]) => sku),
  );
  const sizes = byType.map(({ skus }) => skus.length);
  for (const keyword of generateKeywords(Math.max(200, Math.round(n * 0.3)), days, tops, sizes)) yield { keyword };
}

export type GenerateOptions = { products: number; now?: Date; onProgress?: (step: string, done: number, total: number) => void };

/** Generates the market and swaps it in for the live one (the previous market stays if this fails). */
export async function generateMarket(database: Database, options: GenerateOptions): Promise<LoadSummary> {
  const n = options.products;
  const days = marketDays(options.now ?? new Date());
  const progress = options.onProgress ?? (() => undefined);
  await beginLoad(database);
  try {
    const writer = new StageWriter(database, STAGE);
    for (const record of marketRecords(n, days)) {
      if (record.product) {
        await writer.addProduct(record.product);
        if (writer.productCount % 100_000 === 0 || writer.productCount === n) progress('products', writer.productCount, n);
      } else await writer.addKeyword(record.keyword);
    }
    await writer.flush();
    progress('keywords', writer.keywordCount, writer.keywordCount);
    await buildProducts(database);
    await buildKeywords(database);
    progress('indexes', 0, 1);
    await indexNext(database);
    return await swapIn(database, `generated:${n}`, days.asOf);
  } catch (error) {
    await discardLoad(database).catch(() => undefined);
    throw error;
  }
}

/** Keyword k combines a product word, up to two modifiers and a suffix; the combinations are enumerated, so unique. */
function* generateKeywords(count: number, days: MarketDays, tops: number[][], sizes: number[]): Generator<MarketKeywordRecord> {
  const bases = LEAF_TYPES.flatMap((type, t) => type.productWords.map((word) => ({ word: word.toLowerCase(), t })));
  const seen = new Set<string>();
  const b = bases.length;
  const m = MODIFIERS.length;
  for (let k = 0; seen.size < count && k < b * m * m * SUFFIXES.length; k++) {
    const base = bases[k % b]!;
    const m1 = Math.floor(k / b) % m;
    const m2 = Math.floor(k / b / m) % m;
    const suffix = SUFFIXES[Math.floor(k / b / m / m) % SUFFIXES.length]!;
    const keyword = `${base.word}${k >= b ? ` ${MODIFIERS[m1]}` : ''}${k >= b * m && m2 !== m1 ? ` ${MODIFIERS[m2]}` : ''}${suffix}`;
    if (seen.has(keyword)) continue;
    seen.add(keyword);
    const rate = Math.min(200_000, 2 * Math.max(unit(k, 23), 1e-7) ** -1.2);
    const trend = -0.5 + 1.5 * unit(k, 24) ** 2;
    const season = unit(k, 25) < 0.3 ? 0.7 : 0.1;
    const phase = (2 * Math.PI * ((base.t * 53) % 365)) / 365;
    const frequency: number[] = new Array(MARKET_DAYS);
    for (let d = 0; d < MARKET_DAYS; d++) {
      const time = days.fromTime + d * DAY_MS;
      const seasonal = 1 + season * Math.sin(phase + (2 * Math.PI * dayOfYear(time)) / 365);
      frequency[d] = Math.max(0, Math.floor(rate * (1 + (trend * (d - 45)) / 90) * seasonal * (0.7 + 0.6 * unit(k * 97 + d, 21))));
    }
    const top = tops[base.t]!;
    const start = Math.floor(unit(k, 22) ** 2 * Math.max(0, top.length - 10));
    yield {
      keyword,
      categoryId: LEAF_TYPES[base.t]!.categoryId,
      results: Math.max(1, Math.floor(sizes[base.t]! * (0.05 + 0.9 * unit(k, 20)))),
      from: days.from,
      frequency,
      topSkus: top.slice(start, start + 10),
    };
  }
}
