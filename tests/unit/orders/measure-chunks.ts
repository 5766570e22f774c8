/**
 * The bulk path, JSON rows against binary frames (a measurement script, not a test):
 *   node --import tsx tests/unit/orders/measure-chunks.ts [rows] [rows|binary|both] [chunk rows]
 * TRUSTED=1 appends frames as a cache load does (ids not checked); without it as a sync does.
 * One format per process gives cleaner figures (two engines of a million rows make each other's GC slower).
 * Per chunk as the sync sends it: bytes on the wire, parse/decode, a structured clone round trip (what IndexedDB
 * pays to store and read a record; v8.serialize is the same algorithm), and the engine's append. Generation excluded.
 */
import { deserialize, serialize } from 'node:v8';
import { chunkOfRows, decodeOrderFrame, encodeOrderFrame } from '../../../contract/orderChunk';
import type { OrderRow } from '../../../contract/orders';
import { OrderEngine } from '../../../workers/orders/engine';
import { generateOrders } from './generate';

const count = Number(process.argv[2] ?? 1_000_000);
const only = process.argv[3] ?? 'both';
const CHUNK = Number(process.argv[4] ?? 50_000);
const totals = {
  rows: { bytes: 0, parse: 0, clone: 0, append: 0 },
  binary: { bytes: 0, parse: 0, clone: 0, append: 0 },
};
const byRows = new OrderEngine();
const byFrames = new OrderEngine();

const time = (work: () => void) => {
  const started = performance.now();
  work();
  return performance.now() - started;
};

for (let k = 0; k * CHUNK < count; k++) {
  const generated = generateOrders({ count: Math.min(CHUNK, count - k * CHUNK), seed: k + 1, idPrefix: `c${k}-` });
  if (only !== 'binary') {
    const rowsJson = JSON.stringify(generated);
    totals.rows.bytes += rowsJson.length;
    let rows: OrderRow[] = [];
    totals.rows.parse += time(() => (rows = JSON.parse(rowsJson) as OrderRow[]));
    totals.rows.clone += time(() => (rows = deserialize(serialize(rows)) as OrderRow[]));
    totals.rows.append += time(() => byRows.upsert(rows));
  }
  if (only !== 'rows') {
    const bytes = encodeOrderFrame({ chunk: chunkOfRows(generated), cursor: String(k), hasMore: true }).buffer;
    totals.binary.bytes += bytes.byteLength;
    let buffer: ArrayBuffer = bytes;
    totals.binary.clone += time(() => (buffer = deserialize(serialize(bytes)) as ArrayBuffer));
    let frame = decodeOrderFrame(buffer);
    totals.binary.parse += time(() => (frame = decodeOrderFrame(buffer)));
    totals.binary.append += time(() => byFrames.appendChunk(frame.chunk, { trusted: process.env.TRUSTED === '1' }));
  }
}

if (only === 'both' && byRows.size !== byFrames.size) throw new Error('the engines disagree');
console.log(`${count.toLocaleString('en')} rows in ${CHUNK.toLocaleString('en')}-row chunks`);
console.log('format     wire MB   parse/decode ms   clone round trip ms   engine append ms');
for (const [format, t] of Object.entries(totals)) {
  if (only !== 'both' && only !== format) continue;
  console.log(
    `${format.padEnd(9)} ${(t.bytes / 1e6).toFixed(0).padStart(8)} ${t.parse.toFixed(0).padStart(17)} ${t.clone.toFixed(0).padStart(21)} ${t.append.toFixed(0).padStart(18)}`,
  );
}
