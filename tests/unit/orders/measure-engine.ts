/**
 * Timing of the order list engine on generated rows (a measurement script, not a test):
 *   node --expose-gc --import tsx tests/unit/orders/measure-engine.ts [rows] [bench rounds]
 */
import { OrderEngine } from '../../../workers/orders/engine';
import type { OrderRow } from '../../../contract/orders';
import type { OrderQuery } from '../../../workers/orders/types';
import { generateOrders } from './generate';

const count = Number(process.argv[2] ?? 1_000_000);
const engine = new OrderEngine();

async function time<T>(label: string, work: () => T | Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  console.log(`${label.padEnd(52)} ${(performance.now() - started).toFixed(1).padStart(8)} ms`);
  return result;
}

async function run(label: string, query: OrderQuery) {
  const result = await time(label, () => engine.query(query));
  if (result.status !== 'done') throw new Error('superseded');
  return result;
}

// Rows arrive as JSON (sync chunks) or structured clones (the cache): parsed strings are flat, unlike the
// concatenations the generator builds, which would make every first character access pay for flattening.
// Only the engine keeps the rows: a million row objects held beside it would make every GC pause seconds long.
const chunks = Array.from({ length: Math.ceil(count / 5_000) }, (_, k) =>
  JSON.stringify(generateOrders({ count: Math.min(5_000, count - k * 5_000), seed: k + 1, idPrefix: `c${k}-` })),
);
let parsing = 0;
const rows: OrderRow[] = [];
await time('load (5,000-row upserts, parsing excluded)', () => {
  let loading = 0;
  for (const chunk of chunks) {
    let started = performance.now();
    const parsed = JSON.parse(chunk) as OrderRow[];
    parsing += performance.now() - started;
    if (rows.length < 1_000) rows.push(...parsed.slice(0, 1_000));
    started = performance.now();
    engine.upsert(parsed);
    loading += performance.now() - started;
  }
  console.log(`  of which upsert ${loading.toFixed(0)} ms, JSON.parse ${parsing.toFixed(0)} ms`);
});
chunks.length = 0;
await time('prepare search index (after load, before the first search)', () => engine.prepareSearch());

// The browser benchmark's actions (tests/bench/run.ts), in its order: the list opens sorted by inProcessAt desc;
// "7001" is typed and the keystroke "2" measured; every sort is a first click (ascending) after a click on
// orderNumber, so each measured sort builds its permutation; then the status filter and a sort under it.
// Several rounds, each after a one-row change that drops every cache, with the load's garbage collected first
// (run with --expose-gc): a collection of the load's 2 GB lands in whichever query happens to allocate.
const collect = (globalThis as { gc?: () => void }).gc ?? (() => {});
const opening = { column: 'inProcessAt', direction: 'desc' } as const;
const byOrderNumber = { column: 'orderNumber', direction: 'asc' } as const;
const status = { statuses: ['awaiting_packaging' as const] };
const rounds = Number(process.argv[3] ?? 3);
for (let round = 1; round <= rounds; round++) {
  engine.upsert([{ ...rows[0]!, amount: rows[0]!.amount + round }]);
  await engine.prepareSearch();
  await engine.prepareFilters();
  collect();
  console.log(`-- bench actions, round ${round} --`);
  await run('bench: open list (inProcessAt desc, first build)', { sort: opening });
  await run('bench: search "7001"', { search: '7001', sort: opening });
  const keystroke = await run('bench: search keystroke "70012"', { search: '70012', sort: opening });
  console.log(`  ${keystroke.total} hits`);
  await run('bench: search cleared', { sort: opening });
  for (const column of ['amount', 'shipmentDate', 'productName'] as const) {
    await run(`bench: sort orderNumber asc (before ${column})`, { sort: byOrderNumber });
    await run(`bench: sort ${column} asc (first build)`, { sort: { column, direction: 'asc' } });
  }
  const filtered = await run('bench: filter status awaiting_packaging', { filters: status, sort: { column: 'productName', direction: 'asc' } });
  console.log(`  ${filtered.total} rows`);
  await run('bench: sort orderNumber asc under the filter', { filters: status, sort: byOrderNumber });
  await run('bench: sort amount asc under the filter (cached)', { filters: status, sort: { column: 'amount', direction: 'asc' } });
  await run('sort shipmentDate desc under the filter (not built)', { filters: status, sort: { column: 'shipmentDate', direction: 'desc' } });
  await run('sort productName desc under the filter (not built)', { filters: status, sort: { column: 'productName', direction: 'desc' } });
}
engine.upsert([{ ...rows[0]!, amount: rows[0]!.amount }]);
collect();
console.log('-- other queries --');
await run('no filter', {});
await run('filter: 3 shops, 2 statuses', { filters: { shopIds: [1, 2, 3], statuses: ['delivered', 'delivering'] } });
const day = 86_400_000;
const from = Date.UTC(2024, 5, 1);
await run('filter: in-process range + amount range', {
  filters: { inProcessAt: { from, to: from + 90 * day }, amount: { from: 100, to: 300 } },
});
await run('search "ru12" (tracking numbers)', { search: 'ru12' });
await run('search "手机壳" (product names)', { search: '手机壳' });
await run('search "1234" (many fields)', { search: '1234' });
await run('search rare "ru123456"', { search: 'ru123456' });
for (const column of ['inProcessAt', 'amount', 'status', 'productName', 'postingNumber', 'id'] as const) {
  await run(`sort ${column} desc (first, builds permutation)`, { sort: { column, direction: 'desc' } });
  await run(`sort ${column} desc (again)`, { sort: { column, direction: 'desc' } });
}
const combined = await run('filter + search + sort (cached permutation)', {
  filters: { statuses: ['awaiting_packaging', 'awaiting_deliver'] },
  search: 'чехол',
  sort: { column: 'inProcessAt', direction: 'desc' },
});
await time('window of 100 rows', () => engine.window(combined.handle, 50, 100));
await time('upsert 1,000 changed rows', () => engine.upsert(rows.slice(0, 1_000).map((row) => ({ ...row, amount: row.amount + 1 }))));
await run('search "ru12" after the upsert', { search: 'ru12' });
await run('sort inProcessAt desc after the upsert (rebuild)', { sort: { column: 'inProcessAt', direction: 'desc' } });
console.log(`heap used ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`);
