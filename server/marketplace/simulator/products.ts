import { BRAND_VALUE_BASE, BRANDS, COLORS, COLOUR_VALUE_BASE, LEAF_TYPES, type LeafType } from './catalog';
import { randomFor } from './random';

/**
 * A simulated product card and how the generator makes one. Cards are few enough (thousands per shop) to hold as
 * objects, unlike postings.
 */
export type ProductState = 'onSale' | 'removed' | 'failed' | 'moderating';

export type SimProduct = {
  id: number;
  offerId: string;
  /** 0 until moderation gives the card an Ozon SKU. */
  sku: number;
  name: string;
  categoryId: number;
  typeId: number;
  price: number;
  oldPrice: number;
  minPrice: number;
  currency: string;
  vat: string;
  /** `local:<name>` for the simulator's own pictures, or a full URL given by an import. */
  images: string[];
  archived: boolean;
  autoArchived: boolean;
  state: ProductState;
  /** When a card under moderation becomes sellable (ms). */
  readyAt: number;
  stocks: Map<number, number>;
  fboPresent: number;
  reserved: number;
  attributes: { id: number; complex_id: number; values: { dictionary_value_id?: number; value: string }[] }[];
  barcode: string;
  depth: number;
  width: number;
  height: number;
  weight: number;
  createdAt: number;
  updatedAt: number;
};

export function buildAttributes(leaf: LeafType, brand: string, model: string, name: string, colour: string, weight: number) {
  return [
    { id: 85, complex_id: 0, values: [{ dictionary_value_id: BRAND_VALUE_BASE + BRANDS.indexOf(brand), value: brand }] },
    { id: 8229, complex_id: 0, values: [{ dictionary_value_id: leaf.typeId, value: leaf.names.ru }] },
    { id: 9048, complex_id: 0, values: [{ value: model }] },
    { id: 4180, complex_id: 0, values: [{ value: name }] },
    { id: 4191, complex_id: 0, values: [{ value: `${name}. Доставка из Китая.` }] },
    { id: 10096, complex_id: 0, values: [{ dictionary_value_id: COLOUR_VALUE_BASE + COLORS.findIndex((c) => c.ru === colour), value: colour }] },
    { id: 4383, complex_id: 0, values: [{ value: String(weight) }] },
  ];
}

export function generateProduct(seed: string, clientId: string, k: number, warehouseIds: number[], anchor: number): SimProduct {
  const r = randomFor(seed, clientId, 'product', k);
  const leaf = r.pick(LEAF_TYPES);
  const brand = r.pick(BRANDS);
  const colour = r.pick(COLORS).ru;
  const model = `${String.fromCharCode(65 + r.int(0, 25))}${r.int(10, 999)}`;
  const name = `${r.pick(leaf.productWords)} ${brand === 'Нет бренда' ? '' : brand + ' '}${model}, ${colour}`.replace(/\s+/g, ' ');
  const price = r.chance(0.3) ? r.int(30, 399) : r.chance(0.9) ? r.int(400, 9_999) : r.int(10_000, 40_000);
  const roll = r.next();
  const state: ProductState = roll < 0.06 ? 'failed' : roll < 0.09 ? 'moderating' : roll < 0.14 ? 'removed' : 'onSale';
  const archivedRoll = r.next();
  const archived = state !== 'moderating' && archivedRoll < 0.09;
  const autoArchived = archived && archivedRoll < 0.045;
  const id = Number(clientId) * 100_000 + k + 1;
  const createdAt = anchor - r.int(30, 400) * 86_400_000;
  const weight = r.int(50, 2_000);
  const stocks = new Map<number, number>();
  for (const w of warehouseIds) stocks.set(w, state === 'onSale' && !archived && r.chance(0.85) ? r.int(1, 300) : 0);
  const pictureCount = r.int(2, 5);
  return {
    id,
    offerId: `SKU-${clientId}-${String(k + 1).padStart(5, '0')}`,
    sku: state === 'failed' || state === 'moderating' ? 0 : 1_000_000_000 + id,
    name,
    categoryId: leaf.categoryId,
    typeId: leaf.typeId,
    price,
    oldPrice: r.chance(0.7) ? Math.round(price * 1.3 + 20) : 0,
    minPrice: r.chance(0.3) ? Math.round(price * 0.8) : 0,
    currency: 'CNY',
    vat: '0',
    images: Array.from({ length: pictureCount }, (_, i) => `local:p${id}-${i + 1}`),
    archived,
    autoArchived,
    state,
    readyAt: createdAt,
    stocks,
    fboPresent: r.chance(0.2) ? r.int(1, 100) : 0,
    reserved: r.chance(0.3) ? r.int(1, 5) : 0,
    attributes: buildAttributes(leaf, brand, model, name, colour, weight),
    barcode: `OZN${id}`,
    depth: r.int(50, 400),
    width: r.int(50, 300),
    height: r.int(10, 200),
    weight,
    createdAt,
    updatedAt: createdAt + r.int(0, 20) * 86_400_000,
  };
}

export const fbsStock = (p: SimProduct) => [...p.stocks.values()].reduce((a, b) => a + b, 0);

/** Ozon's visibility filter over a card. */
export function matchesVisibility(p: SimProduct, visibility: string | undefined): boolean {
  const visible = p.state === 'onSale' && !p.archived && fbsStock(p) + p.fboPresent > 0;
  switch (visibility ?? 'ALL') {
    case 'ALL':
      return true;
    case 'ARCHIVED':
      return p.archived;
    case 'VISIBLE':
    case 'IN_SALE':
      return visible;
    case 'INVISIBLE':
      return !p.archived && !visible;
    case 'EMPTY_STOCK':
      return !p.archived && p.state === 'onSale' && fbsStock(p) + p.fboPresent === 0;
    case 'STATE_FAILED':
    case 'VALIDATION_STATE_FAIL':
      return !p.archived && p.state === 'failed';
    case 'REMOVED_FROM_SALE':
      return !p.archived && p.state === 'removed';
    case 'NOT_MODERATED':
      return p.state === 'moderating';
    case 'MODERATED':
      return p.sku > 0;
    default:
      return !p.archived;
  }
}

const STATUS_NAMES: Record<ProductState, { status: string; name: string; moderate: string; validation: string }> = {
  onSale: { status: 'price_sent', name: 'Продается', moderate: 'approved', validation: 'success' },
  removed: { status: 'price_sent', name: 'Не продается', moderate: 'approved', validation: 'success' },
  failed: { status: 'failed_moderation', name: 'Ошибка', moderate: 'declined', validation: 'fail' },
  moderating: { status: 'moderating', name: 'На модерации', moderate: 'moderating', validation: 'pending' },
};

export function productStatuses(p: SimProduct) {
  const s = STATUS_NAMES[p.state];
  return {
    is_created: p.state !== 'moderating',
    moderate_status: s.moderate,
    status: p.archived ? 'archived' : s.status,
    status_description: '',
    status_failed: p.state === 'failed' ? 'failed_moderation' : '',
    status_name: p.archived ? 'Архив' : s.name,
    status_tooltip: '',
    status_updated_at: new Date(p.updatedAt).toISOString(),
    validation_status: s.validation,
  };
}

export function productErrors(p: SimProduct) {
  if (p.state !== 'failed') return [];
  return [
    {
      attribute_id: 85,
      code: 'error_attribute_values_empty',
      field: 'attribute',
      level: 'ERROR_LEVEL_ERROR',
      state: 'declined',
      texts: {
        attribute_name: 'Бренд',
        description: 'Заполните обязательную характеристику «Бренд»',
        hint_code: '',
        message: 'Не заполнена обязательная характеристика',
        params: [],
        short_description: 'Не заполнен бренд',
      },
    },
  ];
}
