import { Dexie, type Table, type Transaction } from 'dexie';
import { chunkOfRows, columnOf, encodeListFrame, rowsOfChunk, splitTexts, type ListChunk, type ListFrame } from '../../contract/listFrame';
import type { AnyListSchema, ListRow } from '../../contract/listSchema';
import { yieldToEventLoop } from './engine';
import { decodeFrameBlob } from './frameBytes';

/**
 * The browser's cache of a big list: one Dexie database per list and user (orders: `orders-<userId>`), rows stored in
 * chunks rather than one record each (architecture: 1,000,000 rows written one record each took 54 s in headless
 * Chromium, in 5,000-row chunks 0.9 s). A record is one binary frame of contract/listFrame.ts, the very bytes the sync received, kept as a
 * Blob: IndexedDB keeps a Blob's bytes aside and hands back a handle, so neither the write nor the read serialises
 * 7 MB on the worker's thread (measured in headless Chromium, a 7 MB record: as an ArrayBuffer the put held the
 * thread 75 ms and reading `result` 45 ms; as a Blob 0.2 ms and 0 ms, its bytes then read asynchronously in about
 * 30 ms). Reading it back is the same decode the sync does.
 *
 * Consistency: each write rewrites the records it touches and advances the sync cursor in ONE IndexedDB
 * transaction, so a crash or failure part-way leaves the previous records and the previous cursor, and the next sync
 * simply fetches the same changes again (they are upserts keyed by id, so repeating them is harmless).
 */

/** Most rows a record gets from incremental changes (a full sync stores each received chunk as one record). */
export const LIST_CHUNK_ROWS = 5_000;
/**
 * 4: records are binary frames of the second layout (narrowed numbers and codes) in Blobs. 1 held rows or columns,
 * 2 frames as ArrayBuffers, 3 frames of the first layout: such a cache is dropped and synced afresh.
 */
const SCHEMA = 4;

type ChunkRecord = { id: number; frame: Blob };
type MetaRecord = {
  key: 'sync';
  /** Where the next incremental sync starts; null before the first full sync has stored anything. */
  cursor: string | null;
  rowCount: number;
  nextChunkId: number;
  schema: number;
};

type ListDatabase = Dexie & {
  chunks: Table<ChunkRecord, number>;
  meta: Table<MetaRecord, string>;
};

export type ListCacheOptions = {
  rowsPerChunk?: number;
  /** Called inside the write transaction before each chunk is written: tests throw here to simulate a crash. */
  beforeChunkWrite?: (chunkId: number) => void;
  /** How a load gives way between records (tests may pass a controllable one). */
  pause?: () => Promise<void>;
};

/** `changed`: another tab wrote to the cache while it was read (read it again). */
export type CacheLoadResult = { cursor: string | null; rows: number; changed: boolean };

/** The cache database of a list and user. */
export function listDatabaseName(schema: AnyListSchema, userId: number | string): string {
  return `${schema.name}-${userId}`;
}

/** A record's ids joined as its frame holds them, or how to get them (a loaded record's, decoded when first read). */
type IdText = { text: string | (() => string); n: number };

/**
 * A list order kept with the records (see saveOrder; `ahead:<sort>` for the orders built ahead, saveOrderAhead): the
 * slots in that sort, for the rows at `version`.
 */
type OrderRecord = { key: string; sort: string; version: string; order: Blob };
const aheadKey = (sort: string) => `ahead:${sort}`;

/**
 * A list's opening answer as it is once every record is in: the query (JSON), its total and its first rows. Kept
 * with the records (see saveHead), so a warm open shows those rows at once instead of the top of its first record.
 */
export type ListHead<Row extends ListRow = ListRow> = { query: string; total: number; rows: Row[] };
type HeadRecord = ListHead & { key: 'head'; version: string };

const versionOf = (meta: MetaRecord) => `${meta.cursor}|${meta.nextChunkId}|${meta.rowCount}`;

export class ListCache<Row extends ListRow = ListRow> {
  private readonly db: ListDatabase;
  private readonly key: string;
  private readonly rowsPerChunk: number;
  private readonly beforeChunkWrite: (chunkId: number) => void;
  private readonly pause: () => Promise<void>;
  /**
   * Each record's ids, joined as the frame holds them: kept by `load` without splitting, so a warm open pays
   * nothing per row here; `chunkOfId` is built from them when the first change arrives. A loaded record's are not
   * even decoded yet (`() => chunk.texts.id`, which the engine decodes once its search index is built, see
   * `settleIds`): decoding them was ~110 ms of a warm open's million rows before every row could be queried.
   */
  private idTexts: Map<number, IdText> | null = null;
  private index: { chunkOfId: Map<string, number>; sizes: Map<number, number> } | null = null;
  private meta: MetaRecord = emptyMeta();
  /** `sort@version` of the saved list order; null when there is none, undefined until known (see hasOrder). */
  private storedOrder: string | null | undefined = undefined;
  /** `query@version` of the saved head; null when there is none, undefined until known (see hasHead). */
  private storedHead: string | null | undefined = undefined;
  /** The opening list's head saved for the rows the last load read (see OrderHead). */
  private loadedHead: ListHead<Row> | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly schema: AnyListSchema,
    userId: number | string,
    options: ListCacheOptions = {},
  ) {
    this.rowsPerChunk = options.rowsPerChunk ?? LIST_CHUNK_ROWS;
    this.beforeChunkWrite = options.beforeChunkWrite ?? (() => undefined);
    this.pause = options.pause ?? yieldToEventLoop;
    this.key = schema.key;
    this.db = new Dexie(listDatabaseName(schema, userId)) as ListDatabase;
    this.db.version(1).stores({ chunks: 'id', meta: 'key' });
    // Older records hold rows, JSON columns, frames as ArrayBuffers or frames of the first layout: a cache, not data,
    // so it is emptied and the next sync refills it.
    const emptied = async (tx: Transaction) => {
      await tx.table('chunks').clear();
      await tx.table('meta').clear();
    };
    this.db.version(2).stores({ chunks: 'id', meta: 'key' }).upgrade(emptied);
    this.db.version(SCHEMA).stores({ chunks: 'id', meta: 'key' }).upgrade(emptied);
  }

  /**
   * Reads every record, handing each decoded chunk to `onChunk` as it arrives (the engine's append, which may take
   * its time: it gives way to other messages between slices), so the whole list never sits in memory twice.
   * Each read is its own short read transaction, the next asked for before this one is handed on, so IndexedDB
   * reads while the engine appends; a pause between records lets a list's query and windows through. Should
   * another tab write to the cache meanwhile (the stored cursor moved), the answer says so: what was read may mix
   * the two states, and the caller reads again.
   */
  async load(
    onChunk: (chunk: ListChunk) => void | Promise<void> = () => undefined,
    onStart: (rows: number, cursor: string | null) => void = () => undefined,
    beforeRest: () => Promise<void> | undefined = () => undefined,
    beforeFirst: () => Promise<void> | undefined = () => undefined,
  ): Promise<CacheLoadResult> {
    const idTexts = new Map<number, IdText>();
    let rows = 0;
    // The first record comes with the keys, in the same transaction: one wait less before a list's first rows.
    const { meta, ids, first, head } = await this.db.transaction('r', this.db.chunks, this.db.meta, async () => ({
      meta: (await this.db.meta.get('sync')) ?? emptyMeta(),
      ids: await this.db.chunks.toCollection().primaryKeys(),
      first: await this.db.chunks.toCollection().first(),
      head: await this.headTable().get('head'),
    }));
    this.loadedHead = head && head.version === versionOf(meta) ? { query: head.query, total: head.total, rows: head.rows as Row[] } : null;
    onStart(meta.rowCount, meta.cursor);
    await beforeFirst();
    // The first record alone, so a list has rows to show at once; then a few per read.
    const batches: number[][] = ids.length > 0 ? [ids.slice(0, 1)] : [];
    for (let i = 1; i < ids.length; i += 3) batches.push(ids.slice(i, i + 3));
    // A batch's records come as Blob handles; their bytes are read while earlier ones append.
    const decoded = (records: (ChunkRecord | undefined)[]) =>
      records.map((record) => {
        const frame = this.frameOfRecord(record);
        frame?.catch(() => undefined);
        return { id: record?.id, frame };
      });
    const read = (batch: number[]) => this.db.chunks.bulkGet(batch).then(decoded);
    // The second batch's handles are asked for at once: IndexedDB finds them while the first record appends and a
    // list's first answer goes out (their bytes are read after that, see below).
    const early = batches.length > 1 ? this.db.chunks.bulkGet(batches[1]!) : null;
    early?.catch(() => undefined);
    // The first batch is the record read with the keys.
    let next = batches.length > 0 ? Promise.resolve(decoded([first])) : null;
    for (let b = 0; b < batches.length; b++) {
      const records = await next!;
      // The next batch is read while this one appends, except after the first: read meanwhile, the bytes of the
      // next three records (copied into memory on this thread, ~30 MB) held the first rows back.
      const readNext = () => (next = b + 1 < batches.length ? (b === 0 && early ? early.then(decoded) : read(batches[b + 1]!)) : null);
      if (b > 0) readNext();
      for (const record of records) {
        const frame = await record.frame;
        if (record.id === undefined || !frame) continue;
        const { chunk } = frame;
        idTexts.set(record.id, { text: () => columnOf(chunk.texts, this.key), n: chunk.n });
        rows += chunk.n;
        await onChunk(chunk);
        await this.pause();
      }
      if (b === 0) {
        await beforeRest();
        readNext();
      }
    }
    const after = (await this.db.meta.get('sync')) ?? emptyMeta();
    this.idTexts = idTexts;
    this.index = null;
    this.meta = after;
    return { cursor: meta.cursor, rows, changed: after.cursor !== meta.cursor || after.nextChunkId !== meta.nextChunkId };
  }

  /** Rows the records hold. */
  get rowCount(): number {
    return this.meta.rowCount;
  }

  /**
   * The list order saved for the rows exactly as they are now (any write since makes it stale): a warm open takes
   * it instead of sorting a million rows again before the list shows them all.
   */
  async savedOrder(): Promise<{ sort: string; order: Uint32Array } | null> {
    const record = await this.orderTable().get('order');
    this.storedOrder = record ? `${record.sort}@${record.version}` : null;
    if (!record || record.version !== versionOf(this.meta) || !(record.order instanceof Blob)) return null;
    return { sort: record.sort, order: new Uint32Array(await record.order.arrayBuffer()) };
  }

  /** Whether an order by `sort` is saved for the rows as they are now (read once; known after a read or a save). */
  async hasOrder(sort: string): Promise<boolean> {
    if (this.storedOrder === undefined) {
      const record = await this.orderTable().get('order');
      this.storedOrder = record ? `${record.sort}@${record.version}` : null;
    }
    return this.storedOrder === `${sort}@${versionOf(this.meta)}`;
  }

  /** Keeps `order` (the slots of a load of these records, in the order of `sort`) for the next open. */
  saveOrder(sort: string, order: Uint32Array): Promise<void> {
    return this.serially(async () => {
      const version = versionOf(this.meta);
      await this.orderTable().put({ key: 'order', sort, version, order: new Blob([order.slice()]) });
      this.storedOrder = `${sort}@${version}`;
    });
  }

  /**
   * The orders built ahead of any sort (the schema's `sortAhead` columns, ascending) saved for the rows exactly as
   * they are now: a warm open takes them instead of sorting every name again.
   */
  async savedOrdersAhead(): Promise<{ sort: string; order: Uint32Array }[]> {
    const keys = this.schema.sortAhead.map((column) => aheadKey(JSON.stringify({ column, direction: 'asc' })));
    const records = await this.orderTable().bulkGet(keys);
    const version = versionOf(this.meta);
    const fitting = records.filter((record) => record?.version === version && record.order instanceof Blob) as OrderRecord[];
    return Promise.all(fitting.map(async (record) => ({ sort: record.sort, order: new Uint32Array(await record.order.arrayBuffer()) })));
  }

  /** Keeps an order built ahead (the slots of a load of these records in `sort`) for the next open. */
  saveOrderAhead(sort: string, order: Uint32Array): Promise<void> {
    return this.serially(async () => {
      await this.orderTable().put({ key: aheadKey(sort), sort, version: versionOf(this.meta), order: new Blob([order.slice()]) });
    });
  }

  /** The rows' version now: a head made from them is saved for it (see saveHead). */
  version(): string {
    return versionOf(this.meta);
  }

  /** Whether the head of the list `query` is saved for the rows as they are now (read once, then known). */
  async hasHead(query: string): Promise<boolean> {
    if (this.storedHead === undefined) {
      const record = await this.headTable().get('head');
      this.storedHead = record ? `${record.query}@${record.version}` : null;
    }
    return this.storedHead === `${query}@${versionOf(this.meta)}`;
  }

  /** Keeps a list's head made from the rows at `version`, unless they have changed since. */
  saveHead(head: ListHead<Row>, version: string): Promise<void> {
    return this.serially(async () => {
      if (versionOf(this.meta) !== version) return;
      await this.headTable().put({ key: 'head', version, query: head.query, total: head.total, rows: head.rows });
      this.storedHead = `${head.query}@${version}`;
    });
  }

  /** The head saved for the rows the last load began reading (null when none fits them). */
  openingHead(): ListHead<Row> | null {
    return this.loadedHead;
  }

  private headTable(): Table<HeadRecord, string> {
    return this.db.meta as unknown as Table<HeadRecord, string>;
  }

  private orderTable(): Table<OrderRecord, string> {
    return this.db.meta as unknown as Table<OrderRecord, string>;
  }

  async cursor(): Promise<string | null> {
    return ((await this.db.meta.get('sync')) ?? emptyMeta()).cursor;
  }

  /**
   * Upserts rows and drops tombstones (`deleted: true`), then stores `cursor`: all or nothing.
   * Resolves once the transaction committed; the caller applies the same rows to the engine afterwards.
   */
  applyChanges(rows: readonly Row[], cursor: string): Promise<void> {
    return this.serially(() => this.writeChanges(rows, cursor));
  }

  /**
   * `applyChanges` for a received frame. A chunk of only new rows (a full sync) is stored as the very frame it came
   * in, one record; any other goes through the row path. An empty chunk only moves the cursor. `allNew` is the
   * caller's word that every row is new and held once (the engine loaded from this cache checked it): the cache
   * then need not index the ids itself.
   */
  applyFrame({ chunk, cursor }: ListFrame, frame: Blob, options: { allNew?: boolean } = {}): Promise<void> {
    return this.serially(async () => {
      if (chunk.n === 0) return this.writeMeta({ ...this.meta, cursor });
      if (options.allNew && !this.index) {
        if (!this.idTexts) await this.load();
        return this.appendRecord(chunk, frame, cursor);
      }
      const index = await this.ensureIndex();
      const ids = splitTexts(columnOf(chunk.texts, this.key), chunk.n, this.key);
      if (options.allNew || allNew(ids, chunk.deleted, index.chunkOfId)) await this.appendRecord(chunk, frame, cursor, ids);
      else await this.writeChanges(rowsOfChunk<Row>(this.schema, chunk), cursor);
    });
  }

  private serially(work: () => Promise<void>): Promise<void> {
    // One at a time: each plans against the chunk map the previous one left.
    const run = this.writing.then(work);
    this.writing = run.catch(() => undefined);
    return run;
  }

  private async writeMeta(meta: MetaRecord): Promise<void> {
    await this.db.meta.put(meta);
    this.meta = meta;
  }

  /**
   * The loaded records' ids as strings, letting go of the frames they were read from (a record's chunk holds its
   * frame until then). Once the engine has decoded the same ids (after its search index) this costs nothing.
   */
  settleIds(): void {
    if (!this.idTexts) return;
    for (const entry of this.idTexts.values()) if (typeof entry.text !== 'string') entry.text = entry.text();
  }

  /** Which record holds each id: built from the loaded records' id texts, or by reading them, on first need. */
  private async ensureIndex(): Promise<{ chunkOfId: Map<string, number>; sizes: Map<number, number> }> {
    if (this.index) return this.index;
    if (!this.idTexts) await this.load();
    const chunkOfId = new Map<string, number>();
    const sizes = new Map<number, number>();
    for (const [chunkId, { text, n }] of this.idTexts!) {
      for (const id of splitTexts(typeof text === 'string' ? text : text(), n, this.key)) chunkOfId.set(id, chunkId);
      sizes.set(chunkId, n);
    }
    this.idTexts = null;
    this.index = { chunkOfId, sizes };
    return this.index;
  }

  private async appendRecord(chunk: ListChunk, frame: Blob, cursor: string, ids?: readonly string[]): Promise<void> {
    const id = this.meta.nextChunkId;
    const meta: MetaRecord = { ...this.meta, cursor, nextChunkId: id + 1, rowCount: this.meta.rowCount + chunk.n, schema: SCHEMA };
    await this.db.transaction('rw', this.db.chunks, this.db.meta, async () => {
      this.beforeChunkWrite(id);
      await this.db.chunks.put({ id, frame });
      await this.db.meta.put(meta);
    });
    if (this.index) {
      for (const rowId of ids ?? splitTexts(columnOf(chunk.texts, this.key), chunk.n, this.key)) this.index.chunkOfId.set(rowId, id);
      this.index.sizes.set(id, chunk.n);
    } else {
      this.idTexts!.set(id, { text: columnOf(chunk.texts, this.key), n: chunk.n });
    }
    this.meta = meta;
  }

  private async writeChanges(rows: readonly Row[], cursor: string): Promise<void> {
    const idOf = (row: Row) => row[this.key] as string;
    const { chunkOfId, sizes: committedSizes } = await this.ensureIndex();
    // Plan against copies: the in-memory maps change only after the transaction commits.
    const placement = new Map<string, number | null>();
    const sizes = new Map(committedSizes);
    let nextChunkId = this.meta.nextChunkId;
    // New rows fill free room (left by deletes) before a chunk is opened: no trail of nearly empty chunks.
    const chunkWithRoom = () => [...sizes].find(([, size]) => size < this.rowsPerChunk)?.[0];
    let openChunk = chunkWithRoom();
    const touched = new Map<number, { upserts: Map<string, Row>; deletes: Set<string> }>();
    const touch = (chunkId: number) => {
      let change = touched.get(chunkId);
      if (!change) touched.set(chunkId, (change = { upserts: new Map(), deletes: new Set() }));
      return change;
    };
    const chunkNow = (id: string) => (placement.has(id) ? placement.get(id)! : (chunkOfId.get(id) ?? null));
    for (const row of rows) {
      const id = idOf(row);
      const current = chunkNow(id);
      if (row.deleted) {
        if (current === null) continue;
        const change = touch(current);
        change.upserts.delete(id);
        change.deletes.add(id);
        sizes.set(current, sizes.get(current)! - 1);
        placement.set(id, null);
      } else if (current !== null) {
        touch(current).upserts.set(id, row);
      } else {
        if (openChunk === undefined || sizes.get(openChunk)! >= this.rowsPerChunk) openChunk = chunkWithRoom();
        if (openChunk === undefined) {
          openChunk = nextChunkId++;
          sizes.set(openChunk, 0);
        }
        const change = touch(openChunk);
        change.deletes.delete(id);
        change.upserts.set(id, row);
        sizes.set(openChunk, sizes.get(openChunk)! + 1);
        placement.set(id, openChunk);
      }
    }

    const meta: MetaRecord = { ...this.meta, cursor, nextChunkId, rowCount: sumOf(sizes), schema: SCHEMA };
    await this.db.transaction('rw', this.db.chunks, this.db.meta, async () => {
      const chunkIds = [...touched.keys()];
      const records = await this.db.chunks.bulkGet(chunkIds);
      // Reading a Blob is not an IndexedDB request: waitFor keeps the transaction open meanwhile (a few small records).
      const stored = await Dexie.waitFor(Promise.all(records.map((record) => this.frameOfRecord(record))));
      for (const [index, chunkId] of chunkIds.entries()) {
        const change = touched.get(chunkId)!;
        const chunk = stored[index]?.chunk ?? null;
        const kept = (chunk ? rowsOfChunk<Row>(this.schema, chunk) : []).filter((row) => !change.deletes.has(idOf(row)));
        const next = kept.map((row) => {
          const update = change.upserts.get(idOf(row));
          if (update) change.upserts.delete(idOf(row));
          return update ?? row;
        });
        for (const row of change.upserts.values()) next.push(row);
        this.beforeChunkWrite(chunkId);
        if (next.length === 0) await this.db.chunks.delete(chunkId);
        else await this.db.chunks.put({ id: chunkId, frame: this.frameOf(chunkOfRows(this.schema, next)) });
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
    this.index!.sizes = sizes;
    this.meta = meta;
  }

  /** Forgets every row and the cursor (a full re-sync follows). */
  async clear(): Promise<void> {
    await this.db.transaction('rw', this.db.chunks, this.db.meta, async () => {
      await this.db.chunks.clear();
      await this.db.meta.clear();
      this.storedOrder = null;
    });
    this.idTexts = null;
    this.index = { chunkOfId: new Map(), sizes: new Map() };
    this.meta = emptyMeta();
  }

  close(): void {
    this.db.close();
  }

  /** Removes a user's cache of a list entirely (at logout from a shared computer, or when the schema changes). */
  static async remove(schema: AnyListSchema, userId: number | string): Promise<void> {
    await Dexie.delete(listDatabaseName(schema, userId));
  }

  /** A record's frame (its bytes read off the thread); null for a missing record or one that is not a Blob. */
  private frameOfRecord(record: ChunkRecord | undefined): Promise<ListFrame> | null {
    return record?.frame instanceof Blob ? decodeFrameBlob(this.schema, record.frame) : null;
  }

  private frameOf(chunk: ListChunk): Blob {
    return new Blob([encodeListFrame(this.schema, { chunk, cursor: '', hasMore: false })]);
  }
}

function allNew(ids: readonly string[], deleted: Uint8Array, chunkOfId: Map<string, number>): boolean {
  const seen = new Set<string>();
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    if (deleted[i] || chunkOfId.has(id) || seen.has(id)) return false;
    seen.add(id);
  }
  return true;
}

function emptyMeta(): MetaRecord {
  return { key: 'sync', cursor: null, rowCount: 0, nextChunkId: 1, schema: SCHEMA };
}

function sumOf(sizes: Map<number, number>): number {
  let total = 0;
  for (const size of sizes.values()) total += size;
  return total;
}

