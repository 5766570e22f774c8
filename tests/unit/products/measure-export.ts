/**
 * Timing of the product list's export on generated rows (a measurement script, not a test):
 *   node --import tsx tests/unit/products/measure-export.ts [rows] [csv|xlsx|both]
 * Prints the whole export's time, the longest slice (the worker answers nothing else meanwhile) and the file's size.
 */
import { PRODUCT_STATUSES, PRODUCT_VISIBILITIES, type ProductRow } from '../../../contract/products';
import { exportCsv, exportXlsx, type ProductExportColumn } from '../../../workers/products/export';
import { ProductEngine } from '../../../workers/products/area';

const count = Number(process.argv[2] ?? 500_000);
const formats = process.argv[3] === 'csv' || process.argv[3] === 'xlsx' ? [process.argv[3]] : ['csv', 'xlsx'];

const NAMES = ['手机壳 透明 防摔', 'Чехол для iPhone 15, кабель', '儿童玩具车 "遥控"', 'USB-C кабель 2 м', '不锈钢保温杯 500ml'];
const rows: ProductRow[] = Array.from({ length: count }, (_, i) => ({
  id: `${1001 + (i % 3)}:${3_000_000 + i}`,
  productId: String(3_000_000 + i),
  offerId: `SEED-${String(i).padStart(7, '0')}`,
  sku: String(1_500_000_000 + i),
  name: `${NAMES[i % NAMES.length]} ${i}`,
  barcode: `OZN${1_000_000_000 + i}`,
  image: `https://cdn1.ozone.ru/s3/multimedia-${i % 9}/${6_000_000_000 + i}.jpg`,
  shopId: 1001 + (i % 3),
  shopName: ['义乌小店', 'Shop Moscow', '深圳电子'][i % 3]!,
  status: PRODUCT_STATUSES[i % PRODUCT_STATUSES.length]!,
  moderation: 'approved',
  visibility: PRODUCT_VISIBILITIES[i % PRODUCT_VISIBILITIES.length]!,
  currency: i % 2 ? 'CNY' : 'RUB',
  price: 100 + (i % 9_000) + 0.5,
  oldPrice: i % 4 ? 0 : 20_000.25,
  minPrice: 0,
  fbsStock: i % 70,
  fboStock: i % 13,
  errorCount: i % 10 ? 0 : 2,
  units30d: i % 40,
  revenue30d: (i % 40) * 123.45,
  createdAt: Date.UTC(2025, 0, 1) + i * 61_000,
  changedAt: Date.UTC(2026, 5, 1) + i * 7_000,
  updatedAt: Date.UTC(2026, 10, 1) + i,
  deleted: false,
}));
const engine = new ProductEngine();
engine.load(rows);
rows.length = 0;
const result = await engine.query({ sort: { column: 'price', direction: 'asc' } });
if (result.status !== 'done') throw new Error('superseded');

// The columns the product list exports (its columns but the thumbnail), with the status and visibility labels.
const columns: ProductExportColumn[] = (
  ['name', 'offerId', 'status', 'price', 'oldPrice', 'minPrice', 'fbsStock', 'fboStock', 'units30d', 'revenue30d', 'shopName', 'sku', 'visibility', 'moderation', 'createdAt', 'changedAt'] as const
).map((id) => ({
  id,
  header: id,
  labels: id === 'status' ? Object.fromEntries(PRODUCT_STATUSES.map((s) => [s, `状态 ${s}`])) : id === 'visibility' ? Object.fromEntries(PRODUCT_VISIBILITIES.map((v) => [v, `可见 ${v}`])) : undefined,
}));

for (const format of formats) {
  let last = performance.now();
  let longest = 0;
  const progress = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  };
  const started = performance.now();
  const blob = format === 'csv' ? await exportCsv(engine, result.handle, columns, progress) : await exportXlsx(engine, result.handle, columns, '商品', progress);
  const ms = performance.now() - started;
  console.log(`${format}: ${count} rows in ${ms.toFixed(0)} ms, longest slice ${longest.toFixed(0)} ms, ${(blob.size / 2 ** 20).toFixed(1)} MB`);
}
