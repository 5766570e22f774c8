import { anyOf, defineListSchema, dict, dictInt, epochMs, int, money, number, range, text, type RowOf } from '../../../contract/listSchema';
import { seededRandom } from '../orders/generate';

/**
 * A products-like list, unlike orders in its columns: a nullable plain number, a money column that is not whole
 * kopecks everywhere, a dictionary of numbers that is not the first dictionary, a search over one text and one
 * dictionary column. It proves the list layer names no order field.
 */
export const PRODUCT_LIST = defineListSchema({
  name: 'products',
  columns: {
    category: dict<'phone' | 'toy' | 'cable' | 'bag'>(),
    sku: text(),
    price: money(),
    title: text(),
    brandId: dictInt(),
    stock: int(),
    rating: number({ nullable: true }),
    listedAt: epochMs(),
    brand: dict(),
  },
  key: 'sku',
  searchFields: ['title', 'brand'],
  filters: { categories: anyOf('category'), brandIds: anyOf('brandId'), price: range('price'), rating: range('rating') },
  indexAhead: ['category'],
  sortAhead: ['title'],
  sorts: ['price', 'stock', 'rating', 'listedAt', 'title', 'brand', 'category', 'sku'],
});
export type ProductRow = RowOf<(typeof PRODUCT_LIST)['columns']>;

const CATEGORIES = ['phone', 'toy', 'cable', 'bag'] as const;
const BRANDS = ['Anker', 'Baseus', '小米', 'Ugreen', 'Сбер', 'Xiaomi'];
const WORDS = ['чехол', '手机壳', 'кабель', '玩具车', 'bag', 'mini'];

export function generateProducts(count: number, seed = 1, prefix = 'p'): ProductRow[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  return Array.from({ length: count }, (_, i) => {
    const brandId = Math.floor(random() * BRANDS.length);
    return {
      category: pick(CATEGORIES),
      sku: `${prefix}${i}`,
      // Tenths of a unit and whole hundreds, and the odd third: the frame picks a width per column and frame.
      price: i % 17 === 0 ? 1 / 3 + i : Math.round(random() * 100_000) / 10,
      title: `${pick(WORDS)} ${pick(WORDS)} ${i}`,
      brandId: 900 + brandId,
      stock: Math.floor(random() * 50),
      rating: i % 5 === 0 ? null : Math.round(random() * 50) / 10,
      listedAt: Date.UTC(2025, 0, 1) + Math.floor(random() * 400) * 3_600_000,
      brand: BRANDS[brandId]!,
      deleted: false,
    };
  });
}
