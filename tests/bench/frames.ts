/**
 * `node --import tsx tests/bench/frames.ts <DATA_DIR> [products|orders] [runs]` (DATABASE_URL: PostgreSQL instead):
 * the server's side of a cold load alone. Builds a full sync's binary frames for the user with the most rows, as the
 * browser asks for them (a first frame of 1,000 rows, then 100,000 at a time, each next one built ahead), and prints
 * the time to the last frame and the bytes sent. Not a test. Open only a copy of a seeded data directory: the
 * database is migrated first.
 */
import { LIST_FIRST_SYNC_LIMIT, LIST_SYNC_LIMIT } from '../../workers/lists/area';
import { decodeListFrame } from '../../contract/listFrame';
import { ORDER_LIST, ORDER_SYNC_MAX_LIMIT } from '../../contract/orders';
import { PRODUCT_LIST } from '../../contract/products';
import { openDatabase } from '../../server/db/database';
import { ORDER_COPY } from '../../server/areas/orders/frame';
import { PRODUCT_SYNC_SOURCE } from '../../server/areas/products/frame';
import { createListFrameSync, type ListSyncSource } from '../../server/lists/frameSync';

const [dataDir, list = 'products', runs = '2'] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: frames.ts <DATA_DIR> [products|orders] [runs]');
const source: ListSyncSource = list === 'orders' ? { copy: ORDER_COPY, table: 'orders', maxLimit: ORDER_SYNC_MAX_LIMIT } : PRODUCT_SYNC_SOURCE;
const schema = list === 'orders' ? ORDER_LIST : PRODUCT_LIST;

const database = await openDatabase({ dataDir, databaseUrl: process.env.DATABASE_URL ?? null });
await database.migrate();
const top = await database.query<{ user_id: number; n: number | string }>(`select user_id, count(*) as n from ${source.table} group by user_id order by n desc limit 1`);
if (!top[0]) throw new Error(`no ${source.table}`);
const userId = top[0].user_id;
console.log(`${database.kind}: user ${userId}, ${top[0].n} ${source.table}`);
const syncFrame = createListFrameSync({ database, now: () => new Date() }, source);
for (let run = 0; run < Number(runs); run++) {
  const started = performance.now();
  let cursor: string | undefined;
  let rows = 0;
  let bytes = 0;
  const times: number[] = [];
  for (;;) {
    const frame = await syncFrame(userId, cursor, cursor === undefined ? LIST_FIRST_SYNC_LIMIT : LIST_SYNC_LIMIT, LIST_SYNC_LIMIT);
    const decoded = decodeListFrame(schema, frame.slice().buffer);
    rows += decoded.chunk.n;
    bytes += frame.byteLength;
    times.push(Math.round(performance.now() - started));
    if (!decoded.hasMore) break;
    cursor = decoded.cursor;
  }
  console.log(`run ${run + 1}: ${rows} rows in ${times.length} frames, ${(bytes / 1e6).toFixed(1)} MB, last frame at ${times.at(-1)} ms (frames at ${times.join(', ')} ms)`);
}
await database.close();
