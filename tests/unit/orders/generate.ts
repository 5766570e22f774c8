import { FBS_STATUSES, type OrderRow } from '../../../contract/orders';

/** Deterministic PRNG (mulberry32): the same seed gives the same orders on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type GenerateOptions = { count: number; seed?: number; shops?: number; warehouses?: number; products?: number; idPrefix?: string };

const PRODUCT_WORDS = ['手机壳', 'Чехол', 'LED灯带', 'Кабель USB-C', '蓝牙耳机', 'Наушники', '儿童玩具', 'Игрушка', 'İstanbul', 'Сумка', '数据线', 'Коврик'];
const DAY = 86_400_000;
const START = Date.UTC(2024, 0, 1);

/**
 * Orders shaped like a seller's: a few shops and warehouses, a catalogue whose products repeat across orders,
 * postings with empty shipment and delivering dates and tracking numbers, equal values to exercise ties.
 */
export function generateOrders({ count, seed = 1, shops = 12, warehouses = 40, products = 5_000, idPrefix = 'o' }: GenerateOptions): OrderRow[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const catalogue = Array.from({ length: products }, (_, p) => ({
    sku: String(1_000_000_000 + p * 7919),
    offerId: `ART-${(p * 31) % 100_000}-${pick(['RED', 'blue', 'Xl', 'mini'])}`,
    productName: `${pick(PRODUCT_WORDS)} ${pick(PRODUCT_WORDS)} ${p % 997}`,
  }));
  const rows: OrderRow[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const shopId = 1 + Math.floor(random() * shops);
    const warehouse = Math.floor(random() * warehouses);
    const product = catalogue[Math.floor(random() * products)]!;
    const orderNumber = String(10_000_000 + Math.floor(random() * 89_999_999));
    const status = pick(FBS_STATUSES);
    const inProcessAt = START + Math.floor(random() * 730) * DAY + Math.floor(random() * 24) * 3_600_000;
    const shipped = random() < 0.7;
    const manual = random() < 0.05;
    rows[i] = {
      id: `${idPrefix}${i}`,
      shopId,
      shopName: `店铺${shopId}`,
      postingNumber: `${orderNumber}-${String(i % 10_000).padStart(4, '0')}-${1 + (i % 3)}`,
      orderNumber,
      orderId: String(30_000_000_000 + i),
      status,
      substatus: random() < 0.3 ? '' : `posting_${status}`,
      warehouseId: String(1_020_000_000_000_000 + warehouse),
      warehouseName: `Склад ${warehouse}`,
      inProcessAt,
      shipmentDate: shipped ? inProcessAt + Math.floor(random() * 5) * DAY : null,
      deliveringDate: shipped && random() < 0.6 ? inProcessAt + 6 * DAY : null,
      trackingNumber: shipped ? `RU${String(Math.floor(random() * 1e9)).padStart(9, '0')}CN` : '',
      sku: product.sku,
      offerId: product.offerId,
      productName: product.productName,
      quantity: 1 + Math.floor(random() * 4),
      amount: Math.round(random() * 50_000) / 100,
      currency: pick(['RUB', 'CNY', 'USD']),
      source: manual ? 'manual' : 'ozon',
      updatedAt: inProcessAt + Math.floor(random() * 10) * DAY,
      deleted: false,
    };
  }
  return rows;
}
