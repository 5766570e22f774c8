/**
 * The bulk path, rows against columns (a measurement script, not a test):
 *   node --import tsx tests/unit/orders/measure-columns.ts [rows] [rows|columns|both]
 * One format per process gives cleaner figures (two engines of a million rows make each other's GC slower).
 * Per 10,000-row chunk as the sync sends it: JSON size, JSON.parse, a structured clone round trip (what IndexedDB
 * pays to store and read a record; v8.serialize is the same algorithm), and the engine's append. Generation excluded.
 */
import { deserialize, serialize } from 'node:v8';
import { OrderEngine } from '../../../workers/orders/engine';
import { columnsOfRows } from '../../../workers/orders/columns';
import type { OrderColumns, OrderRow } from '../../../contract/orders';
import { generateOrders } from './generate';

const count = Number(process.argv[2] ?? 1_000_000);
const only = process.argv[3] ?? 'both';
const CHUNK = 10_000;
const totals = {
  rows: { bytes: 0, parse: 0, clone: 0, append: 0 },
  columns: { bytes: 0, parse: 0, clone: 0, append: 0 },
};
const byRows = new OrderEngine();
const byColumns = new OrderEngine();

const time = (work: () => void) => {
  const started = performance.now();
  work();
  return performance.now() - started;
};

for (let k = 0; k * CHUNK < count; k++) {
  const generated = generateOrders({ count: Math.min(CHUNK, count - k * CHUNK), seed: k + 1, idPrefix: `c${k}-` });
  const rowsJson = JSON.stringify(generated);
  const columnsJson = JSON.stringify(columnsOfRows(generated));
  totals.rows.bytes += rowsJson.length;
  totals.columns.bytes += columnsJson.length;

  if (only !== 'columns') {
  let rows: OrderRow[] = [];
  totals.rows.parse += time(() => (rows = JSON.parse(rowsJson) as OrderRow[]));
  totals.rows.clone += time(() => (rows = deserialize(serialize(rows)) as OrderRow[]));
  totals.rows.append += time(() => byRows.upsert(rows));
  rows = [];
  }
  if (only !== 'rows') {
  let columns = {} as OrderColumns;
  totals.columns.parse += time(() => (columns = JSON.parse(columnsJson) as OrderColumns));
  totals.columns.clone += time(() => (columns = deserialize(serialize(columns)) as OrderColumns));
  totals.columns.append += time(() => byColumns.appendColumns(columns));
  }
}

if (only === 'both' && byRows.size !== byColumns.size) throw new Error('the engines disagree');
console.log(`${count.toLocaleString('en')} rows in ${CHUNK.toLocaleString('en')}-row chunks`);
console.log('format     JSON MB   JSON.parse ms   clone round trip ms   engine append ms');
for (const [format, t] of Object.entries(totals)) {
  if (only !== 'both' && only !== format) continue;
  console.log(
    `${format.padEnd(9)} ${(t.bytes / 1e6).toFixed(0).padStart(8)} ${t.parse.toFixed(0).padStart(15)} ${t.clone.toFixed(0).padStart(21)} ${t.append.toFixed(0).padStart(18)}`,
  );
}
