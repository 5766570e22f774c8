import { Dexie, type Table } from 'dexie';
import type { OrderColumns, OrderRow } from '../../contract/orders';
import { columnsOfRows, rowsOfColumns, sliceColumns } from './columns';

/**
 * The browser's order cache: one Dexie database per user (`orders-<userId>`), rows stored in chunks of about
 * 5,000 rather than one record each (architecture: 1,000,000 rows written one record each took 54 s in headless
 * Chromium, in 5,000-row chunks 0.9 s).
 *
 * Consistency: each `applyChanges` rewrites the chunks it touches and advances the sync cursor in ONE IndexedDB
 * transaction, so a crash or failure part-way leaves the previous chunks and the previous cursor, and the next sync
 * simply fetches the same changes again (they are upserts keyed by id, so repeating them is harmless).
 */

export const ORDER_CHUNK_ROWS = 5_000;
const SCHEMA = 1;

/**
 * A chunk holds its rows as columns (one array per column: structured clone stores them far faster than objects);
 * records written before that hold `rows`. Both are read; a chunk rewritten by a change is stored as columns.
 */
type ChunkRecord = { id: number; columns?: OrderColumns; rows?: OrderRow[] };

const idsOf = (chunk: ChunkRecord): readonly string[] => chunk.columns?.id ?? chunk.rows?.map((row) => row.id) ?? [];
const rowsOf = (chunk: ChunkRecord | undefined): OrderRow[] =>
  chunk?.rows ?? (chunk?.columns ? rowsOfColumns(chunk.columns) : []);
type MetaRecord = {
  key: 'sync';
  /** Where the next incremental sync starts; null before the first full sync has stored anything. */
  cursor: string | null;
  rowCount: number;
  nextChunkId: number;
  schema: number;
};

type OrdersDatabase = Dexie & {
  chunks: Table<ChunkRecord, number>;
  meta: Table<MetaRecord, string>;
};

export type OrderCacheOptions = {
  rowsPerChunk?: number;
  /** Called inside the write transaction before each chunk is written: tests throw here to simulate a crash. */
  beforeChunkWrite?: (chunkId: number) => void;
};

export type CacheLoadResult = { cursor: string | null; rows: number };

export function orderDatabaseName(userId: number | string): string {
  return `orders-${userId}`;
}

export class OrderCache {
  private readonly db: OrdersDatabase;
  private readonly rowsPerChunk: number;
  private readonly beforeChunkWrite: (chunkId: number) => void;
  /** Which chunk holds each id, and how many rows each chunk holds: known after the first read. */
  private chunkOfId: Map<string, number> | null = null;
  private chunkSizes = new Map<number, number>();
  private meta: MetaRecord = emptyMeta();
  private writing: Promise<void> = Promise.resolve();

  constructor(userId: number | string, options: OrderCacheOptions = {}) {
    this.rowsPerChunk = options.rowsPerChunk ?? ORDER_CHUNK_ROWS;
    this.beforeChunkWrite = options.beforeChunkWrite ?? (() => undefined);
    this.db = new Dexie(orderDatabaseName(userId)) as OrdersDatabase;
    this.db.version(SCHEMA).stores({ chunks: 'id', meta: 'key' });
  }

  /**
   * Reads every chunk, in one read transaction, handing each chunk's rows to `onRows` as it arrives (the engine's
   * `upsert`), so the whole list never sits in memory twice.
   */
  async load(
    onRows: (rows: OrderRow[]) => void = () => undefined,
    /** Takes columnar chunks as they are; without it they reach `onRows` as rows. */
    onColumns?: (columns: OrderColumns) => void,
  ): Promise<CacheLoadResult> {
    const chunkOfId = new Map<string, number>();
    const chunkSizes = new Map<number, number>();
    const meta = await this.db.transaction('r', this.db.chunks, this.db.meta, async () => {
      const ids = await this.db.chunks.toCollection().primaryKeys();
      // A few chunks per read: one at a time pays a round trip each, all at once holds everything twice.
      for (let i = 0; i < ids.length; i += 8) {
        const chunks = await this.db.chunks.bulkGet(ids.slice(i, i + 8));
        for (const chunk of chunks) {
          if (!chunk) continue;
          const ids = idsOf(chunk);
          for (const id of ids) chunkOfId.set(id, chunk.id);
          chunkSizes.set(chunk.id, ids.length);
          if (chunk.columns && onColumns) onColumns(chunk.columns);
          else onRows(rowsOf(chunk));
        }
      }
      return (await this.db.meta.get('sync')) ?? emptyMeta();
    });
    this.chunkOfId = chunkOfId;
    this.chunkSizes = chunkSizes;
    this.meta = meta;
    return { cursor: meta.cursor, rows: chunkOfId.size };
  }

  async cursor(): Promise<string | null> {
    return ((await this.db.meta.get('sync')) ?? emptyMeta()).cursor;
  }

  /**
   * Upserts rows and drops tombstones (`deleted: true`), then stores `cursor`: all or nothing.
   * Resolves once the transaction committed; the caller applies the same rows to the engine afterwards.
   */
  applyChanges(rows: readonly OrderRow[], cursor: string): Promise<void> {
    // One at a time: each plans against the chunk map the previous one left.
    const run = this.writing.then(() => this.writeChanges(rows, cursor));
    this.writing = run.catch(() => undefined);
    return run;
  }

  /**
   * `applyChanges` for a chunk given as columns. A chunk of only new rows (a full sync) is stored as it came, in
   * new records of `rowsPerChunk` rows, without an object per row; any other goes through the row path.
   */
  applyColumns(columns: OrderColumns, cursor: string): Promise<void> {
    const run = this.writing.then(async () => {
      if (!this.chunkOfId) await this.load();
      if (this.allNew(columns)) await this.appendChunks(columns, cursor);
      else await this.writeChanges(rowsOfColumns(columns), cursor);
    });
    this.writing = run.catch(() => undefined);
    return run;
  }

  private allNew(columns: OrderColumns): boolean {
    const seen = new Set<string>();
    for (let i = 0; i < columns.id.length; i++) {
      const id = columns.id[i]!;
      if (columns.deleted[i] || this.chunkOfId!.has(id) || seen.has(id)) return false;
      seen.add(id);
    }
    return true;
  }

  private async appendChunks(columns: OrderColumns, cursor: string): Promise<void> {
    const n = columns.id.length;
    const records: ChunkRecord[] = [];
    let nextChunkId = this.meta.nextChunkId;
    for (let from = 0; from < n; from += this.rowsPerChunk) {
      const to = Math.min(n, from + this.rowsPerChunk);
      records.push({ id: nextChunkId++, columns: from === 0 && to === n ? columns : sliceColumns(columns, from, to) });
    }
    const meta: MetaRecord = { ...this.meta, cursor, nextChunkId, rowCount: this.meta.rowCount + n, schema: SCHEMA };
    await this.db.transaction('rw', this.db.chunks, this.db.meta, async () => {
      for (const record of records) {
        this.beforeChunkWrite(record.id);
        await this.db.chunks.put(record);
      }
      await this.db.meta.put(meta);
    });
    for (const record of records) {
      const ids = record.columns!.id;
      for (const id of ids) this.chunkOfId!.set(id, record.id);
      this.chunkSizes.set(record.id, ids.length);
    }
    this.meta = meta;
  }

  private async writeChanges(rows: readonly OrderRow[], cursor: string): Promise<void> {
    if (!this.chunkOfId) await this.load();
    const chunkOfId = this.chunkOfId!;
    // Plan against copies: the in-memory maps change only after the transaction commits.
    const placement = new Map<string, number | null>();
    const sizes = new Map(this.chunkSizes);
    let nextChunkId = this.meta.nextChunkId;
    // New rows fill free room (left by deletes) before a chunk is opened: no trail of nearly empty chunks.
    const chunkWithRoom = () => [...sizes].find(([, size]) => size < this.rowsPerChunk)?.[0];
    let openChunk = chunkWithRoom();
    const touched = new Map<number, { upserts: Map<string, OrderRow>; deletes: Set<string> }>();
    const touch = (chunkId: number) => {
      let change = touched.get(chunkId);
      if (!change) touched.set(chunkId, (change = { upserts: new Map(), deletes: new Set() }));
      return change;
    };
    const chunkNow = (id: string) => (placement.has(id) ? placement.get(id)! : (chunkOfId.get(id) ?? null));
    for (const row of rows) {
      const current = chunkNow(row.id);
      if (row.deleted) {
        if (current === null) continue;
        const change = touch(current);
        change.upserts.delete(row.id);
        change.deletes.add(row.id);
        sizes.set(current, sizes.get(current)! - 1);
        placement.set(row.id, null);
      } else if (current !== null) {
        touch(current).upserts.set(row.id, row);
      } else {
        if (openChunk === undefined || sizes.get(openChunk)! >= this.rowsPerChunk) openChunk = chunkWithRoom();
        if (openChunk === undefined) {
          openChunk = nextChunkId++;
          sizes.set(openChunk, 0);
        }
        const change = touch(openChunk);
        change.deletes.delete(row.id);
        change.upserts.set(row.id, row);
        sizes.set(openChunk, sizes.get(openChunk)! + 1);
        placement.set(row.id, openChunk);
      }
    }

    const meta: MetaRecord = { ...this.meta, cursor, nextChunkId, rowCount: sumOf(sizes), schema: SCHEMA };
    await this.db.transaction('rw', this.db.chunks, this.db.meta, async () => {
      const chunkIds = [...touched.keys()];
      const stored = await this.db.chunks.bulkGet(chunkIds);
      for (const [index, chunkId] of chunkIds.entries()) {
        const change = touched.get(chunkId)!;
        const kept = rowsOf(stored[index]).filter((row) => !change.deletes.has(row.id));
        const next = kept.map((row) => {
          const update = change.upserts.get(row.id);
          if (update) change.upserts.delete(row.id);
          return update ?? row;
        });
        for (const row of change.upserts.values()) next.push(row);
        this.beforeChunkWrite(chunkId);
        if (next.length === 0) await this.db.chunks.delete(chunkId);
        else await this.db.chunks.put({ id: chunkId, columns: columnsOfRows(next) });
      }
      await this.db.meta.put(meta);
    });

    for (const [id, chunkId] of placement) {
      if (chunkId === null) chunkOfId.delete(id);
      else chunkOfId.set(id, chunkId);
    }
    for (const [chunkId, size] of sizes) {
      if (size === 0) sizes.delete(chunkId);
    }
    this.chunkSizes = sizes;
    this.meta = meta;
  }

  /** Forgets every row and the cursor (a full re-sync follows). */
  async clear(): Promise<void> {
    await this.db.transaction('rw', this.db.chunks, this.db.meta, async () => {
      await this.db.chunks.clear();
      await this.db.meta.clear();
    });
    this.chunkOfId = new Map();
    this.chunkSizes = new Map();
    this.meta = emptyMeta();
  }

  close(): void {
    this.db.close();
  }

  /** Removes a user's cache entirely (at logout from a shared computer, or when the schema changes). */
  static async remove(userId: number | string): Promise<void> {
    await Dexie.delete(orderDatabaseName(userId));
  }
}

function emptyMeta(): MetaRecord {
  return { key: 'sync', cursor: null, rowCount: 0, nextChunkId: 1, schema: SCHEMA };
}

function sumOf(sizes: Map<number, number>): number {
  let total = 0;
  for (const size of sizes.values()) total += size;
  return total;
}
