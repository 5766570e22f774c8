import {
  checkTextCount,
  columnOf,
  expandScaled,
  ListFrameError,
  rowsOfChunk,
  scaledNumbers,
  type DictCodes,
  type DictColumnData,
  type ListChunk,
  undecodedText,
} from '../../contract/listFrame';
import { hashId, HashIndex, hashJoined, hashRange, type JoinedHashes } from '../../contract/hashIndex';
import { searchFieldsOf, type AnyListSchema, type ListRow, type NumberRange } from '../../contract/listSchema';
import { normaliseNeedle, TextIndex } from './search';
import { TextColumn } from './textColumn';
import { drain, mergeByTextSteps, numberPermutation, rankPermutation, rankValues, reversedTextOrder, stringPermutation, stringPermutationSteps } from './sorting';
import type { ListGroup, ListQuery, ListQueryResult, ListSort, ListWindow, StaleHandleFailure } from './types';

/**
 * The list engine (architecture "Data worker"): the worker keeps every cached row of a big list in columns, as its
 * ListSchema (contract/listSchema.ts) describes them, and answers queries with a handle and a total, and windows with
 * just the rows on screen.
 *
 * Layout: number columns in Float64Arrays (NaN for an empty value); dictionary columns as codes into a per-column
 * dictionary (each column's codes in the fewest bytes its dictionary needs, see `fitCodes`); text columns (mostly
 * unique strings: ids, posting numbers) in TextColumns, the searched ones with a prepared lowercase haystack.
 *
 * Rows keep their arrival order (slot index), which is the order without a sort and the tie-break with one.
 * A deleted row leaves a dead slot until enough pile up to compact; compaction moves rows, so handles made before
 * it answer StaleHandle and the caller queries again (it is told of every change through `version`).
 */

/** Set by a dictionary that gained a value its column's code width cannot hold (see ListEngine.fitCodes). */
type Outgrown = { any: boolean };

/** Distinct values a column of codes of this kind can tell apart. */
function codeRoom(codes: DictCodes): number {
  return codes instanceof Uint8Array ? 1 << 8 : codes instanceof Uint16Array ? 1 << 16 : 2 ** 32;
}

class Dictionary {
  readonly values: (string | number)[] = [];
  /** Values the column's codes can hold; a value past it raises `outgrown`. */
  room = 1 << 8;
  private readonly codes = new Map<string | number, number>();
  private lowered: string[] = [];
  private rankCache: Uint32Array | null = null;
  private lastValue: string | number | undefined = undefined;
  private lastCode = 0;

  constructor(private readonly outgrown: Outgrown) {}

  encode(value: string | number): number {
    // Rows arrive grouped (by shop, by day): the previous value is often the next one, and cheaper than a lookup.
    if (value === this.lastValue) return this.lastCode;
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.codes.set(value, code);
      this.rankCache = null;
      if (code >= this.room) this.outgrown.any = true;
    }
    this.lastValue = value;
    this.lastCode = code;
    return code;
  }

  find(value: string | number): number | undefined {
    return this.codes.get(value);
  }

  ranks(): Uint32Array {
    this.rankCache ??= rankValues(this.values);
    return this.rankCache;
  }

  /** Which codes' values contain the needle; null when none does. */
  matching(needle: string): Uint8Array | null {
    for (let c = this.lowered.length; c < this.values.length; c++) this.lowered.push(String(this.values[c]).toLowerCase());
    let hits: Uint8Array | null = null;
    for (let c = 0; c < this.lowered.length; c++) {
      if (this.lowered[c]!.includes(needle)) {
        hits ??= new Uint8Array(this.values.length);
        hits[c] = 1;
      }
    }
    return hits;
  }
}

type Handle = { rows: Uint32Array; layout: number; group?: { spec: ListGroup; index: GroupIndex } };
/** Every live row's group (-1: none), and each group's rows (`slots[starts[g] .. starts[g + 1]]`). */
type GroupIndex = { changes: number; groupOf: Int32Array; starts: Uint32Array; slots: Uint32Array; groups: number };

type FilterStep =
  | { kind: 'anyOf'; column: string; codes: DictCodes; allowed: Uint8Array }
  | { kind: 'within'; data: Float64Array; from: number; to: number };

type DictionaryHits = { codes: DictCodes; hits: Uint8Array; any: boolean };

/** A search's answer, valid while the rows stay at `version`. */
type SearchMemo = { needle: string; version: number; slots: Uint32Array };
const SEARCH_MEMOS_PER_VIEW = 4;
/** Checking one earlier hit costs about as much as scanning this many rows of the index. */
const NARROWING_SHARE = 4;
/** A slice of an order built ahead (prepareTextOrders) before it gives way. */
const TEXT_ORDER_SLICE_MS = 8;

function permutationKey({ column, direction }: ListSort): string {
  return `${column}:${direction}`;
}

const tabKey = (column: string, code: number, sort: ListSort) => `${column}=${code}|${permutationKey(sort)}`;

/** `column=code|sort` for a filter that keeps one value of a dictionary column; null for any other. */
function filterOrderKey(step: FilterStep, sort: ListSort): string | null {
  if (step.kind !== 'anyOf') return null;
  const code = step.allowed.indexOf(1);
  if (code < 0 || step.allowed.indexOf(1, code + 1) >= 0) return null;
  return tabKey(step.column, code, sort);
}

/** Keeps the slots that pass one filter: a tight loop over the survivors of the steps before. */
function narrowByFilter(step: FilterStep, slots: Uint32Array): Uint32Array {
  const kept = new Uint32Array(slots.length);
  let k = 0;
  if (step.kind === 'anyOf') {
    const { codes, allowed } = step;
    for (let j = 0; j < slots.length; j++) {
      const slot = slots[j]!;
      if (allowed[codes[slot]!] === 1) kept[k++] = slot;
    }
  } else {
    const { data, from, to } = step;
    for (let j = 0; j < slots.length; j++) {
      const slot = slots[j]!;
      const value = data[slot]!;
      if (value >= from && value <= to) kept[k++] = slot;
    }
  }
  return k === kept.length ? kept : kept.slice(0, k);
}

export type ListEngineOptions = {
  /** How long work gives way between slices; tests pass a controllable one. */
  yieldToEventLoop?: () => Promise<void>;
  /** Rows scanned between yields. */
  sliceRows?: number;
  /** Results kept for `window`; older handles are released. */
  maxHandles?: number;
  /** How long a slice of an order built ahead runs before it gives way (prepareTextOrders). */
  textOrderSliceMs?: number;
};

const ABORTED = Symbol('aborted');
/** A chunk's ids as hashes and where each begins in the joined column: computed once, without a string per id. */
const chunkIdSpans = new WeakMap<ListChunk, JoinedHashes>();

export class ListEngine<Row extends ListRow = ListRow, Query extends ListQuery<object> = ListQuery> {
  private readonly numberFields: readonly string[];
  private readonly dictFields: readonly string[];
  private readonly textFields: readonly string[];
  /** Per number column, whether an empty value is null (NaN in the column). */
  private readonly nullable: readonly boolean[];
  private readonly textSearchFields: readonly string[];
  private readonly dictSearchFields: readonly string[];
  private readonly key: string;
  private length = 0;
  private capacity = 0;
  private dead = 0;
  private alive = new Uint8Array(0);
  private numbers: Record<string, Float64Array> = {};
  /**
   * One byte a row while a column's dictionary holds up to 256 values, two up to 65,536, else four: a million
   * rows' eleven columns are ~14 MB instead of 44 MB, and a warm open writes (and the system maps) that much less
   * fresh memory.
   */
  private codes: Record<string, DictCodes> = {};
  private dicts: Record<string, Dictionary> = {};
  /** Each dictionary column's codes for the row being written (see write). */
  private readonly rowCodes: Uint32Array;
  /**
   * The columns by position in numberFields, dictFields and textFields (kept with `numbers`, `codes`, `dicts` and
   * `plain` by `columnsMoved`): a row written or read touches every column, and an array is cheaper to index than a
   * record by name.
   */
  private numberData: Float64Array[] = [];
  private codeData: DictCodes[] = [];
  private dictData: Dictionary[] = [];
  private textData: TextColumn[] = [];
  /** A row with every field in the schema's order: rows read are copies of it (one shape, no property added). */
  private readonly rowTemplate: Record<string, unknown>;
  private readonly outgrown: Outgrown = { any: false };
  private plain: Record<string, TextColumn> = {};
  /** The key column (plain[key]). */
  private ids!: TextColumn;
  /**
   * Slot of every live id; null after a trusted bulk load, which skips it (a million inserts cost about as much as
   * the rest of the load): built again from the id column on the first call that needs it.
   */
  private slotMap: HashIndex | null = new HashIndex();
  /** The last chunk found fresh and the engine version then: a sync checks a chunk, stores it, then appends it. */
  private freshChunk: { chunk: ListChunk; changes: number } | null = null;
  private textIndex!: TextIndex;
  private permutations = new Map<string, Uint32Array>();
  /** The ascending order prepareTextOrders is building, between its slices: a query that needs it finishes it. */
  private aheadBuild: { column: string; steps: Generator<void, Uint32Array, void> } | null = null;
  private codeIndexes = new Map<string, { starts: Uint32Array; slots: Uint32Array }>();
  /**
   * Ordered answers of one-value filters with nothing else (a status tab), by `column=code|sort`, until the rows
   * change: made ahead by prepareFilterOrders, or kept from a query. Those of one sort only (`filterOrdersSort`): a
   * column's answers together hold each row once, a few megabytes a million rows per column and sort.
   */
  private filterOrders = new Map<string, Uint32Array>();
  private filterOrdersSort = '';
  private searchMemos = new Map<string, SearchMemo[]>();
  private handles = new Map<number, Handle>();
  private groupIndexes = new Map<string, GroupIndex>();
  private nextHandle = 1;
  private layout = 0;
  private changes = 0;
  /** Changes other than appends: they move or alter rows an answer in progress may already hold. */
  private mutations = 0;
  private mutationsAtClear = 0;
  private seq = 0;
  private latestSeqOfView = new Map<string, number>();
  private readonly yieldNow: () => Promise<void>;
  private readonly sliceRows: number;
  private readonly maxHandles: number;
  private readonly textOrderSliceMs: number;

  constructor(
    readonly schema: AnyListSchema,
    options: ListEngineOptions = {},
  ) {
    this.numberFields = schema.numberFields;
    this.dictFields = schema.dictFields;
    this.textFields = schema.textFields;
    this.nullable = schema.numberFields.map((field) => {
      const spec = schema.columns[field]!;
      return spec.kind === 'number' && spec.nullable;
    });
    const searched = searchFieldsOf(schema);
    this.textSearchFields = searched.texts;
    this.dictSearchFields = searched.dicts;
    this.key = schema.key;
    this.rowCodes = new Uint32Array(schema.dictFields.length);
    this.rowTemplate = Object.fromEntries([...schema.fields.map((field) => [field, null]), ['deleted', false]]);
    this.yieldNow = options.yieldToEventLoop ?? yieldToEventLoop;
    this.sliceRows = options.sliceRows ?? 1 << 17;
    this.maxHandles = options.maxHandles ?? 16;
    this.textOrderSliceMs = options.textOrderSliceMs ?? TEXT_ORDER_SLICE_MS;
    this.reset();
  }

  /** Live rows. */
  get size(): number {
    return this.length - this.dead;
  }

  /** Grows with every change of the rows: a list re-queries when it moved. */
  get version(): number {
    return this.changes;
  }

  /** Replaces every row. */
  load(rows: Iterable<Row>): void {
    this.reset();
    this.changes++;
    this.mutations++;
    this.upsert(Array.isArray(rows) ? rows : Array.from(rows));
  }

  clear(): void {
    this.reset();
    this.changes++;
    this.mutations++;
    this.mutationsAtClear = this.mutations;
  }

  /**
   * Whether the slots still are the rows as a load from the cache lays them out: since the engine was emptied only
   * whole new chunks were appended (a load, a full sync), nothing updated or deleted. A list order saved with the
   * cache then fits them (see adoptPermutation).
   */
  get appendOnly(): boolean {
    return this.mutations === this.mutationsAtClear && this.dead === 0;
  }

  /** The order of every slot by this sort (built now if it is not cached). */
  permutationFor(sort: ListSort): Uint32Array {
    return this.permutation(sort);
  }

  /**
   * Takes an order saved with the cache as this sort's permutation, sparing its build (a warm open's first full
   * query). Refused unless it fits: the slots are as a load lays them out and it orders each of them once.
   */
  adoptPermutation(sort: ListSort, order: Uint32Array): boolean {
    const n = this.length;
    if (!this.appendOnly || order.length !== n) return false;
    const seen = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const slot = order[i]!;
      if (slot >= n || seen[slot] === 1) return false;
      seen[slot] = 1;
    }
    this.permutations.set(permutationKey(sort), order);
    return true;
  }

  /** Inserts new rows, overwrites rows with a known id in place, drops tombstones (`deleted: true`). */
  upsert(rows: readonly Row[]): void {
    if (rows.length === 0) return;
    this.ensureCapacity(this.length + rows.length);
    const key = this.key;
    for (const row of rows) {
      const id = row[key] as string;
      const hash = hashId(id);
      const slot = this.slotOf(id, hash);
      if (row.deleted) {
        if (slot >= 0) this.kill(slot, id);
      } else if (slot < 0) {
        this.slotOfId().add(hash, this.length);
        this.write(this.length, row);
        this.alive[this.length] = 1;
        this.length++;
      } else {
        this.write(slot, row);
        this.textIndex.markStale(slot);
      }
    }
    this.afterChange();
  }

  /**
   * The bulk path of `upsert`: appends a chunk (contract/orderChunk.ts) without making an object per row. Per
   * dictionary column only the chunk's distinct values are looked up; rows copy codes through that small table.
   * Rows whose id is already held, and tombstones, go through `upsert` (an incremental chunk; few rows).
   */
  appendChunk(chunk: ListChunk, options: { trusted?: boolean } = {}): void {
    const n = chunk.n;
    if (n === 0) return;
    for (const column of this.textFields) checkTextCount(columnOf(chunk.texts, column), n, column);
    let starts: Int32Array | null = null;
    if (options.trusted && (this.slotMap === null || this.length === 0)) {
      // The cache's records: every id new and held once. The id index is left to the first call that needs it.
      this.slotMap = null;
    } else if (this.isFresh(chunk)) {
      const spans = this.idSpansOf(chunk);
      const index = this.slotOfId();
      for (let i = 0; i < n; i++) index.add(spans.hashes[i]!, this.length + i);
      starts = spans.starts;
    } else {
      // Tombstones and rows already held make an incremental chunk: it goes through `upsert` whole, so rows keep
      // the order they arrive in (a row deleted and added again lands after the new rows before it).
      this.upsert(rowsOfChunk<Row>(this.schema, chunk));
      return;
    }
    // Every row new, in order: the texts, ids included, stay joined until read, as a load's do.
    this.ensureCapacity(this.length + n);
    const base = this.length;
    const { numbers, dicts, plain } = this;
    const remaps = this.dictFields.map((column) => remapTable(dicts[column]!, columnOf(chunk.dicts, column)));
    this.fitCodes();
    for (const column of this.numberFields) copyNumbers(numbers[column]!, chunk, column, 0, n, base);
    this.dictFields.forEach((column, k) => remapRange(this.codes[column]!, remaps[k]!, columnOf(chunk.dicts, column).codes, 0, n, base));
    for (const column of this.textFields) plain[column]!.appendJoined(base, columnOf(chunk.texts, column), n, column === this.key ? starts : null);
    this.alive.fill(1, base, base + n);
    this.length = base + n;
    this.afterChange(true);
  }

  /**
   * `appendChunk(chunk, { trusted: true })` a slice of rows at a time, giving way (`pause`) between slices: a cache
   * load appends a million rows in 100,000-row records, and a record in one go would keep a list's query, a window
   * or a session call waiting for as long as it takes (tens of milliseconds). Rows of finished slices are
   * queryable at once; rows written beyond `length` are invisible until their slice is done. `pause` answers
   * whether the rest is still wanted (a newer load may have cleared the engine meanwhile). Should anything else add
   * rows meanwhile (nothing does during a load), the rest goes in through the checked path.
   */
  async appendTrustedInSlices(chunk: ListChunk, pause: () => Promise<boolean>, sliceRows = 12_500): Promise<void> {
    const n = chunk.n;
    if (n === 0) return;
    if (this.slotMap !== null && this.length > 0) {
      this.appendChunk(chunk, { trusted: true });
      return;
    }
    this.ensureCapacity(this.length + n);
    const base = this.length;
    const remaps = this.dictFields.map((column) => [column, remapTable(this.dicts[column]!, columnOf(chunk.dicts, column)), columnOf(chunk.dicts, column).codes] as const);
    this.fitCodes();
    this.slotMap = null;
    // The texts stay joined until read; their slots beyond `length` are invisible until each slice is done. Those of a
    // frame not read yet stay its bytes: a value on screen is decoded alone, the rest when the search index is built
    // (prepareSearch). The ids are decoded through the chunk, whose string the cache keeps too (see ListCache.load).
    for (const column of this.textFields) {
      const bytes = undecodedText(chunk, column);
      if (bytes) this.plain[column]!.appendBytes(base, bytes, n, column === this.key ? () => columnOf(chunk.texts, column) : null);
      else this.plain[column]!.appendJoined(base, columnOf(chunk.texts, column), n);
    }
    for (let from = 0; from < n; from += sliceRows) {
      if (from > 0) {
        if (!(await pause())) return;
        if (this.length !== base + from || this.slotMap !== null) {
          for (const column of this.textFields) this.plain[column]!.truncate(this.length);
          this.upsert(rowsOfChunk<Row>(this.schema, chunk).slice(from));
          return;
        }
      }
      const to = Math.min(n, from + sliceRows);
      for (const column of this.numberFields) copyNumbers(this.numbers[column]!, chunk, column, from, to, base);
      for (const [column, remap, codes] of remaps) remapRange(this.codes[column]!, remap, codes, from, to, base);
      this.alive.fill(1, base + from, base + to);
      this.length = base + to;
      this.afterChange(true);
    }
    // Where the record's texts begin, found now (a few milliseconds): the list's first full window reads from every
    // record.
    if (this.length === base + n) for (const column of this.textFields) this.plain[column]!.indexLast();
  }

  /** Makes room for this many more rows at once (a load that knows its size), instead of growing chunk by chunk. */
  reserve(rows: number): void {
    this.ensureCapacity(this.length + rows);
    this.slotMap?.reserve(this.size + rows);
  }

  /**
   * Whether every row of the chunk is new to the engine and in it once, no tombstone among them: such a chunk
   * appends as it is (and the cache may store it as it came).
   */
  isFresh(chunk: ListChunk): boolean {
    // Nothing to check (a sync with no news): no id index of every row held just for that.
    if (chunk.n === 0) return true;
    if (this.freshChunk?.chunk === chunk && this.freshChunk.changes === this.changes) return true;
    if (chunk.deleted.includes(1)) return false;
    const { hashes, starts } = this.idSpansOf(chunk);
    const joined = columnOf(chunk.texts, this.key);
    const idAt = (i: number) => joined.substring(starts[i]!, starts[i + 1]! - 1);
    const index = this.slotOfId();
    const seen = new HashIndex(chunk.n);
    const ids = this.ids;
    for (let i = 0; i < chunk.n; i++) {
      const hash = hashes[i]!;
      // Ids are compared only where the hashes agree: almost never for a chunk of new rows.
      if (index.find(hash, (slot) => ids.get(slot) === idAt(i)) >= 0) return false;
      if (seen.find(hash, (j) => idAt(j) === idAt(i)) >= 0) return false;
      seen.add(hash, i);
    }
    this.freshChunk = { chunk, changes: this.changes };
    return true;
  }

  /** A chunk's id hashes and spans, computed once however often they are asked for. */
  private idSpansOf(chunk: ListChunk): JoinedHashes {
    let spans = chunkIdSpans.get(chunk);
    if (!spans) {
      const hashed = hashJoined(columnOf(chunk.texts, this.key), chunk.n);
      if (!hashed) throw new ListFrameError(`${this.key} does not hold ${chunk.n} values`);
      chunkIdSpans.set(chunk, (spans = hashed));
    }
    return spans;
  }

  /** The slot of a live id, or -1. */
  private slotOf(id: string, hash = hashId(id)): number {
    const ids = this.ids;
    return this.slotOfId().find(hash, (slot) => ids.get(slot) === id);
  }

  remove(ids: readonly string[]): void {
    let removed = false;
    for (const id of ids) {
      const slot = this.slotOf(id);
      if (slot >= 0) {
        this.kill(slot, id);
        removed = true;
      }
    }
    if (removed) this.afterChange();
  }

  /**
   * Builds the search index now (a few hundred milliseconds for a million rows, in slices that give way to queries
   * and windows) instead of in the first search: the worker calls it once a load settles. A change of the rows
   * meanwhile drops the build (the next search or prepare starts over).
   */
  async prepareSearch(pause: () => Promise<void> = this.yieldNow): Promise<void> {
    const ready = () => this.textIndex.pendingRows.length === 0 && this.textIndex.indexedRows >= this.length;
    // Decoded first, a stretch per slice: the index reads every value, and one by one from bytes that is slower.
    await this.settleTexts(pause);
    if (ready()) return;
    const index = this.textIndex;
    const version = this.changes;
    const built = await index.buildInSlices(this.length, async () => {
      await pause();
      // A search meanwhile built it whole: this build stops (its pieces would make the same index again).
      return this.changes === version && this.textIndex === index && !ready();
    });
    if (built || ready()) await this.settleTexts(pause);
  }

  /**
   * The text columns decoded, a stretch at a time (a column of a cache record is 10-25 ms): then no frame a load
   * appended is kept in memory for their bytes.
   */
  private async settleTexts(pause: () => Promise<void>): Promise<void> {
    for (const column of this.textFields) {
      while (this.plain[column]!.settleOne()) await pause();
    }
  }

  get(id: string): Row | undefined {
    const slot = this.slotOf(id);
    return slot < 0 ? undefined : this.rowAt(slot);
  }

  /**
   * Filters, searches and sorts. A newer query on the same view supersedes this one: it then answers
   * `superseded` at its next yield. Rows changing while it runs make it start over, so a result never mixes versions.
   */
  async query(query: Query, view = 'default'): Promise<ListQueryResult> {
    const seq = ++this.seq;
    this.latestSeqOfView.set(view, seq);
    const isSuperseded = () => this.latestSeqOfView.get(view) !== seq;
    // Rows appended meanwhile (a load, a sync) leave the answer true of the rows it saw, and the list is told to
    // query again anyway; only a change to rows already held makes the query start over.
    for (;;) {
      const startVersion = this.mutations;
      const shouldStop = () => isSuperseded() || this.mutations !== startVersion;
      const found = await this.run(query, view, shouldStop);
      if (isSuperseded()) return { status: 'superseded', seq };
      if (found === ABORTED || this.mutations !== startVersion) continue;
      const index = query.group ? await this.groupIndex(query.group.by) : null;
      if (isSuperseded()) return { status: 'superseded', seq };
      if (this.mutations !== startVersion) continue;
      const rows = index ? firstOfGroups(found, index) : found;
      const handle = this.nextHandle++;
      this.handles.set(handle, { rows, layout: this.layout, group: index && query.group ? { spec: query.group, index } : undefined });
      for (const old of this.handles.keys()) {
        if (this.handles.size <= this.maxHandles) break;
        this.handles.delete(old);
      }
      return { status: 'done', seq, handle, total: rows.length };
    }
  }

  /**
   * How many rows of `query`'s answer hold each value of the dictionary column `column` (the counts on a list's
   * status tabs), or null when a newer count of the same view superseded it. With a grouping, groups are counted
   * (a posting of three lines is one). The caller leaves the column's own filter out of `query`. Typed arrays and
   * one pass over the answer: a few milliseconds a million rows, in the worker; no filters and no search read the
   * column's code index alone.
   */
  async countBy(column: string, query: Query, view = 'counts'): Promise<Map<string | number, number> | null> {
    const seq = ++this.seq;
    this.latestSeqOfView.set(view, seq);
    const isSuperseded = () => this.latestSeqOfView.get(view) !== seq;
    const values = columnOf(this.dicts, column).values;
    const answer = (counts: ArrayLike<number>) => {
      const byValue = new Map<string | number, number>();
      for (let code = 0; code < counts.length; code++) if (counts[code]! > 0) byValue.set(values[code]!, (byValue.get(values[code]!) ?? 0) + counts[code]!);
      return byValue;
    };
    const plain = !query.group && !normaliseNeedle(query.search) && this.compileFilters((query.filters ?? {}) as Record<string, unknown>).length === 0;
    if (plain) {
      const { starts } = this.codeIndex(column);
      const counts = new Uint32Array(values.length);
      for (let code = 0; code < counts.length; code++) counts[code] = (starts[code + 1] ?? 0) - (starts[code] ?? 0);
      return answer(counts);
    }
    for (;;) {
      const startVersion = this.mutations;
      const shouldStop = () => isSuperseded() || this.mutations !== startVersion;
      const found = await this.run({ ...query, sort: null }, view, shouldStop);
      if (isSuperseded()) return null;
      if (found === ABORTED || this.mutations !== startVersion) continue;
      const index = query.group ? await this.groupIndex(query.group.by) : null;
      if (isSuperseded()) return null;
      if (this.mutations !== startVersion) continue;
      const codes = columnOf(this.codes, column);
      const counts = new Uint32Array(values.length);
      if (index) {
        const seen = new Uint8Array(index.groups);
        for (let j = 0; j < found.length; j++) {
          const slot = found[j]!;
          const group = index.groupOf[slot] ?? -1;
          if (group >= 0) {
            if (seen[group] === 1) continue;
            seen[group] = 1;
          }
          counts[codes[slot]!]!++;
        }
      } else {
        for (let j = 0; j < found.length; j++) counts[codes[found[j]!]!]!++;
      }
      return answer(counts);
    }
  }

  /** The rows `start .. start + count - 1` of a result, as plain objects (a deleted row has `deleted: true`). */
  window(handle: number, start: number, count: number): ListWindow<Row> {
    const result = this.handles.get(handle);
    if (!result || result.layout !== this.layout) {
      throw { type: 'StaleHandle', handle } satisfies StaleHandleFailure;
    }
    const from = Math.max(0, Math.min(start, result.rows.length));
    const to = Math.max(from, Math.min(from + count, result.rows.length));
    const rows: Row[] = [];
    for (let i = from; i < to; i++) rows.push(this.rowAt(result.rows[i]!));
    if (result.group) this.addGroupTotals(rows, result.rows.subarray(from, to), result.group.spec, result.group.index);
    return { handle, start: from, total: result.rows.length, rows };
  }

  /** The live rows of the group `id`'s row belongs to (grouped by the text column `by`), in arrival order. */
  async groupOf(id: string, by: string): Promise<Row[]> {
    const index = await this.groupIndex(by);
    const slot = this.slotOf(id);
    if (slot < 0 || this.alive[slot] !== 1 || slot >= index.groupOf.length) return [];
    const group = index.groupOf[slot]!;
    const rows: Row[] = [];
    for (let k = index.starts[group]!; k < index.starts[group + 1]!; k++) rows.push(this.rowAt(index.slots[k]!));
    return rows;
  }

  private addGroupTotals(rows: Row[], slots: Uint32Array, group: ListGroup, index: GroupIndex): void {
    const sums = (group.sum ?? []).map((field) => [field, this.numbers[field]] as const);
    for (let i = 0; i < rows.length; i++) {
      const id = index.groupOf[slots[i]!] ?? -1;
      if (id < 0) continue;
      const row = rows[i] as Record<string, unknown>;
      const from = index.starts[id]!;
      const to = index.starts[id + 1]!;
      row.groupRows = to - from;
      for (const [field, column] of sums) {
        if (!column) continue;
        let total = 0;
        for (let k = from; k < to; k++) total += column[index.slots[k]!]!;
        row[field] = total;
      }
    }
  }

  /**
   * The groups of the text column `by`, made on first use and again after the rows changed: one pass over the
   * column (giving way between slices) and two over the groups, typed arrays only but for one map entry per group.
   * Rows appended meanwhile wait for the next one: the list queries again after any change.
   */
  private async groupIndex(by: string): Promise<GroupIndex> {
    const kept = this.groupIndexes.get(by);
    if (kept && kept.changes === this.changes) return kept;
    const changes = this.changes;
    const column = this.plain[by];
    if (!column) throw new Error(`'${by}' is not a text column of the list '${this.schema.name}'`);
    const { length, alive } = this;
    const groupOf = new Int32Array(length);
    const known = new Map<string, number>();
    let groups = 0;
    let live = 0;
    for (let slot = 0; slot < length; slot++) {
      if (slot % this.sliceRows === this.sliceRows - 1) await this.yieldNow();
      if (alive[slot] !== 1) {
        groupOf[slot] = -1;
        continue;
      }
      live++;
      const key = column.get(slot);
      let group = key === '' ? undefined : known.get(key);
      if (group === undefined) {
        group = groups++;
        if (key !== '') known.set(key, group);
      }
      groupOf[slot] = group;
    }
    const starts = new Uint32Array(groups + 1);
    for (let slot = 0; slot < length; slot++) if (groupOf[slot]! >= 0) starts[groupOf[slot]! + 1]!++;
    for (let group = 0; group < groups; group++) starts[group + 1]! += starts[group]!;
    const next = starts.slice(0, groups);
    const slots = new Uint32Array(live);
    for (let slot = 0; slot < length; slot++) {
      const group = groupOf[slot]!;
      if (group >= 0) slots[next[group]!++] = slot;
    }
    const index = { changes, groupOf, starts, slots, groups };
    this.groupIndexes.set(by, index);
    return index;
  }

  release(handle: number): void {
    this.handles.delete(handle);
  }

  /**
   * The distinct values of a dictionary column among live rows, each with the label column's value of its first row
   * (for orders: shop id and name, warehouse id and name): what a filter bar offers.
   */
  pairs(key: string, label: string): [string | number, string][] {
    const keys = columnOf(this.codes, key);
    const labels = columnOf(this.codes, label);
    const keyValues = columnOf(this.dicts, key).values;
    const labelValues = columnOf(this.dicts, label).values;
    const labelOf = new Int32Array(keyValues.length).fill(-1);
    for (let i = 0; i < this.length; i++) {
      if (this.alive[i] === 1 && labelOf[keys[i]!] === -1) labelOf[keys[i]!] = labels[i]!;
    }
    const pairs: [string | number, string][] = [];
    for (let code = 0; code < labelOf.length; code++) {
      if (labelOf[code] !== -1) pairs.push([keyValues[code]!, String(labelValues[labelOf[code]!])]);
    }
    return pairs;
  }

  /**
   * Search, then one tight loop per active filter, then the order. Candidates travel as ascending lists of live
   * slots: the first narrowing step scans every row, later ones only the survivors, and a small result is sorted by
   * itself instead of walking the whole permutation.
   */
  private async run(query: Query, view: string, shouldStop: () => boolean): Promise<Uint32Array | typeof ABORTED> {
    const needle = normaliseNeedle(query.search);
    // null: every live slot.
    let slots: Uint32Array | null = null;
    if (needle) {
      const found = await this.search(needle, view, shouldStop);
      if (found === ABORTED) return ABORTED;
      slots = found;
    }
    const steps = this.compileFilters((query.filters ?? {}) as Record<string, unknown>);
    const sort = query.sort ?? null;
    const tab = !needle && sort && steps.length === 1 ? filterOrderKey(steps[0]!, sort) : null;
    const kept = tab === null ? undefined : this.filterOrders.get(tab);
    if (kept) return kept;
    for (const step of steps) {
      const narrowed =
        slots === null ? (step.kind === 'anyOf' ? this.slotsWithCodes(step) : await this.scanFilter(step, shouldStop)) : narrowByFilter(step, slots);
      if (narrowed === ABORTED) return ABORTED;
      slots = narrowed;
    }
    const rows = this.order(slots, sort);
    if (tab !== null) this.keepFilterOrder(tab, sort!, rows);
    return rows;
  }

  private keepFilterOrder(key: string, sort: ListSort, rows: Uint32Array): void {
    const sortKey = permutationKey(sort);
    if (sortKey !== this.filterOrdersSort) {
      this.filterOrders.clear();
      this.filterOrdersSort = sortKey;
    }
    this.filterOrders.set(key, rows);
  }

  /**
   * The answer to each one-value filter of `column` (the status tabs a seller clicks through) in the order of `sort`,
   * made now: a click on a tab then answers at once, where walking a million-row order for it took 26 ms on this
   * machine. Made from the sort's order when it is at hand (the list's own sort, which its answer just used): every
   * value's answer in one walk of it, a slice at a time, giving way between slices (a walk per value made tasks of
   * 20-50 ms each, which held a window or query asked for meanwhile). Without that order, nothing: no sort of a
   * million rows in the background. Dropped when the rows change.
   */
  async prepareFilterOrders(column: string, sort: ListSort, pause: () => Promise<void> = this.yieldNow, wanted: () => boolean = () => true): Promise<void> {
    const version = this.changes;
    const n = this.length;
    const order = this.permutations.get(permutationKey(sort));
    if (order?.length !== n) return;
    const { starts } = this.codeIndex(column);
    const size = columnOf(this.dicts, column).values.length;
    const keys = Array.from({ length: size }, (_, code) => tabKey(column, code, sort));
    const answers = keys.map((key, code) => (starts[code + 1]! > starts[code]! && !this.filterOrders.has(key) ? new Uint32Array(starts[code + 1]! - starts[code]!) : null));
    const filled = new Uint32Array(size);
    const codes = columnOf(this.codes, column);
    const alive = this.alive;
    for (let from = 0; from < n; from += this.sliceRows) {
      const to = Math.min(n, from + this.sliceRows);
      for (let j = from; j < to; j++) {
        const slot = order[j]!;
        if (alive[slot] !== 1) continue;
        const code = codes[slot]!;
        const rows = answers[code];
        if (rows) rows[filled[code]!++] = slot;
      }
      await pause();
      // A list sorted another way meanwhile: its answers may be made already, and these would replace them.
      if (this.changes !== version || this.permutations.get(permutationKey(sort)) !== order || !wanted()) return;
    }
    answers.forEach((rows, code) => rows && this.keepFilterOrder(keys[code]!, sort, rows));
  }

  /**
   * The live slots, ascending, whose code in a dictionary column is allowed: one code is a slice of the column's
   * code index, several are marked and collected in one pass. No scan of the column's codes row by row.
   */
  private slotsWithCodes(step: Extract<FilterStep, { kind: 'anyOf' }>): Uint32Array {
    const { starts, slots } = this.codeIndex(step.column);
    const chosen: number[] = [];
    for (let code = 0; code < step.allowed.length; code++) if (step.allowed[code] === 1 && starts[code + 1]! > starts[code]!) chosen.push(code);
    if (chosen.length === 0) return new Uint32Array(0);
    if (chosen.length === 1) return slots.subarray(starts[chosen[0]!]!, starts[chosen[0]! + 1]!);
    const member = new Uint8Array(this.length);
    let m = 0;
    for (const code of chosen) {
      for (let j = starts[code]!; j < starts[code + 1]!; j++) member[slots[j]!] = 1;
      m += starts[code + 1]! - starts[code]!;
    }
    const found = new Uint32Array(m);
    for (let slot = 0, k = 0; k < m; slot++) if (member[slot] === 1) found[k++] = slot;
    return found;
  }

  /** Per dictionary column: the live slots grouped by code, each group ascending. Built on first use, kept until rows change. */
  private codeIndex(column: string): { starts: Uint32Array; slots: Uint32Array } {
    let index = this.codeIndexes.get(column);
    if (!index) {
      const codes = columnOf(this.codes, column);
      const alive = this.alive;
      const n = this.length;
      const size = columnOf(this.dicts, column).values.length;
      const starts = new Uint32Array(size + 1);
      for (let i = 0; i < n; i++) if (alive[i] === 1) starts[codes[i]! + 1]! += 1;
      for (let code = 0; code < size; code++) starts[code + 1]! += starts[code]!;
      const next = starts.slice(0, size);
      const slots = new Uint32Array(starts[size]!);
      for (let i = 0; i < n; i++) if (alive[i] === 1) slots[next[codes[i]!]!++] = i;
      index = { starts, slots };
      this.codeIndexes.set(column, index);
    }
    return index;
  }

  /**
   * The filter bar's list filters answered from ready indexes: built while the list is idle, after a sync, one
   * column per task (a column of a million rows is tens of milliseconds in a browser).
   */
  async prepareFilters(pause: () => Promise<void> = this.yieldNow): Promise<void> {
    for (const column of this.schema.indexAhead) {
      await pause();
      this.codeIndex(column);
    }
  }

  /**
   * The ascending orders of the schema's `sortAhead` text columns, built now in slices of about `textOrderSliceMs`
   * that give way (`pause` between them): the first sort by such a column (half a million distinct product names
   * took 1.5 s in the worker) then answers at once, and descending is derived from it (reversedTextOrder). An order
   * already there but shorter (rows appended since, a sync's chunks) is extended: the new rows sorted and merged in.
   * Rows appended meanwhile leave what is built valid for the rows it covers; any other change drops it. True when
   * every order covers every row.
   */
  async prepareTextOrders(pause: () => Promise<void> = this.yieldNow, wanted: () => boolean = () => true): Promise<boolean> {
    for (const column of this.schema.sortAhead) {
      const key = permutationKey({ column, direction: 'asc' });
      const mutations = this.mutations;
      const layout = this.layout;
      const valid = () => this.mutations === mutations && this.layout === layout && wanted();
      const text = this.plain[column]!;
      while (text.splitOne()) {
        await pause();
        if (!valid()) return false;
      }
      const n = this.length;
      const old = this.permutations.get(key);
      if (old?.length === n) continue;
      const values = text.all();
      const steps = old && old.length < n ? this.extendTextSteps(old, values, n, false) : stringPermutationSteps(values, n, false);
      const build = { column, steps };
      this.aheadBuild = build;
      let sliceStart = performance.now();
      for (;;) {
        const step = steps.next();
        if (step.done) {
          this.permutations.set(key, step.value);
          this.aheadBuild = null;
          break;
        }
        if (performance.now() - sliceStart < this.textOrderSliceMs) continue;
        await pause();
        // A query finished it meanwhile (see permutation), or the rows moved.
        if (this.aheadBuild !== build || !valid()) {
          if (this.aheadBuild === build) this.aheadBuild = null;
          return false;
        }
        sliceStart = performance.now();
      }
    }
    return this.schema.sortAhead.every((column) => this.permutations.get(permutationKey({ column, direction: 'asc' }))?.length === this.length);
  }

  /** The orders built ahead that cover every row (see prepareTextOrders), to be kept with the cache. */
  textOrdersAhead(): { sort: ListSort; order: Uint32Array }[] {
    return this.schema.sortAhead.flatMap((column) => {
      const sort: ListSort = { column, direction: 'asc' };
      const order = this.permutations.get(permutationKey(sort));
      return order?.length === this.length ? [{ sort, order }] : [];
    });
  }

  /** `old` (the order of the slots below its length) with the slots from there to `n` sorted and merged in. */
  private *extendTextSteps(old: Uint32Array, values: readonly string[], n: number, descending: boolean): Generator<void, Uint32Array, void> {
    const from = old.length;
    const fresh = yield* stringPermutationSteps(values.slice(from, n), n - from, descending);
    return yield* mergeByTextSteps(old, fresh, from, values, descending);
  }

  /** A range filter over every row, in slices that give way (list filters read their code index instead). */
  private async scanFilter(step: Extract<FilterStep, { kind: 'within' }>, shouldStop: () => boolean): Promise<Uint32Array | typeof ABORTED> {
    const n = this.length;
    const alive = this.alive;
    const found = new Uint32Array(this.size);
    let k = 0;
    for (let from = 0; from < n; from += this.sliceRows) {
      const to = Math.min(n, from + this.sliceRows);
      const { data, from: low, to: high } = step;
      // NaN (no value) fails both comparisons.
      for (let i = from; i < to; i++) {
        const value = data[i]!;
        if (alive[i] === 1 && value >= low && value <= high) found[k++] = i;
      }
      await this.yieldNow();
      if (shouldStop()) return ABORTED;
    }
    return k === found.length ? found : found.slice(0, k);
  }

  /** Ascending live slots in the query's order. The answer may be a cached array: handles only ever read it. */
  private order(slots: Uint32Array | null, sort: ListSort | null): Uint32Array {
    const n = this.length;
    if (slots === null) {
      if (!sort) return this.liveSlots(null);
      const order = this.permutation(sort);
      return this.dead === 0 ? order : this.liveSlots(order);
    }
    const m = slots.length;
    if (!sort || m < 2) return slots;
    // Walking a cached permutation costs a few ms per million rows, building one tens: below these shares of the
    // rows, sorting the result by itself is cheaper.
    const kept = this.permutations.get(permutationKey(sort));
    const cached = kept?.length === n ? kept : undefined;
    if (cached ? m * 32 < n : m * 4 < n) return this.sortSlots(slots, sort);
    const order = cached ?? this.permutation(sort);
    const member = new Uint8Array(n);
    for (let j = 0; j < m; j++) member[slots[j]!] = 1;
    const rows = new Uint32Array(m);
    for (let j = 0, k = 0; k < m; j++) {
      const slot = order[j]!;
      if (member[slot] === 1) rows[k++] = slot;
    }
    return rows;
  }

  /** Live slots in the given order (null: arrival order). */
  private liveSlots(order: Uint32Array | null): Uint32Array {
    const rows = new Uint32Array(this.size);
    const alive = this.alive;
    if (order === null) {
      if (this.dead === 0) for (let i = 0; i < rows.length; i++) rows[i] = i;
      else for (let i = 0, k = 0; k < rows.length; i++) if (alive[i] === 1) rows[k++] = i;
    } else {
      for (let j = 0, k = 0; k < rows.length; j++) {
        const slot = order[j]!;
        if (alive[slot] === 1) rows[k++] = slot;
      }
    }
    return rows;
  }

  /** Sorts a few slots by their own keys, with the same order and tie-break as the column's permutation. */
  private sortSlots(slots: Uint32Array, { column, direction }: ListSort): Uint32Array {
    const m = slots.length;
    const descending = direction === 'desc';
    const kind = this.kindOf(column);
    let local: Uint32Array;
    if (kind === 'number') {
      const data = this.numbers[column]!;
      const values = new Float64Array(m);
      for (let j = 0; j < m; j++) values[j] = data[slots[j]!]!;
      local = numberPermutation(values, m, descending);
    } else if (kind === 'dict') {
      const data = this.codes[column]!;
      const codes = new Uint32Array(m);
      for (let j = 0; j < m; j++) codes[j] = data[slots[j]!]!;
      local = rankPermutation(codes, m, this.dicts[column]!.ranks(), descending);
    } else {
      const data = this.plain[column]!.all();
      const values = new Array<string>(m);
      for (let j = 0; j < m; j++) values[j] = data[slots[j]!]!;
      local = stringPermutation(values, m, descending);
    }
    const rows = new Uint32Array(m);
    for (let j = 0; j < m; j++) rows[j] = slots[local[j]!]!;
    return rows;
  }

  /**
   * Ascending live slots whose text contains the needle. A view's recent answers are kept while the rows do not
   * change: typing on narrows the smallest earlier answer whose needle the new one contains, checking only its rows,
   * and going back to an earlier needle reuses its answer.
   */
  private async search(needle: string, view: string, shouldStop: () => boolean): Promise<Uint32Array | typeof ABORTED> {
    const version = this.changes;
    const memos = (this.searchMemos.get(view) ?? []).filter((memo) => memo.version === version);
    let base: SearchMemo | undefined;
    for (const memo of memos) {
      if (needle.includes(memo.needle) && (!base || memo.slots.length < base.slots.length)) base = memo;
    }
    if (base?.needle === needle) return base.slots;
    let slots: Uint32Array;
    if (base && base.slots.length * NARROWING_SHARE <= this.length) {
      slots = this.searchWithin(base.slots, needle);
    } else {
      const found = await this.searchAll(needle, shouldStop);
      if (found === ABORTED) return ABORTED;
      slots = found;
    }
    if (this.changes === version) {
      memos.push({ needle, version, slots });
      if (memos.length > SEARCH_MEMOS_PER_VIEW) memos.shift();
      this.searchMemos.set(view, memos);
    }
    return slots;
  }

  private searchWithin(candidates: Uint32Array, needle: string): Uint32Array {
    const hits = this.dictionaryHits(needle);
    const found = new Uint32Array(candidates.length);
    let k = 0;
    for (let j = 0; j < candidates.length; j++) {
      const slot = candidates[j]!;
      if (hits.some(({ codes, hits }) => hits[codes[slot]!] === 1) || this.textIndex.contains(slot, needle)) found[k++] = slot;
    }
    return found.slice(0, k);
  }

  private async searchAll(needle: string, shouldStop: () => boolean): Promise<Uint32Array | typeof ABORTED> {
    const n = this.length;
    const mask = new Uint8Array(n);
    const pending = this.textIndex.pendingRows.length + (n - this.textIndex.indexedRows);
    // Rebuild once checking changed rows one by one costs more than indexing them afresh.
    if (pending > Math.max(4096, n >> 3)) {
      this.textIndex.build(n);
      await this.yieldNow();
      if (shouldStop()) return ABORTED;
    }
    this.textIndex.searchIndexed(needle, mask);
    for (const slot of this.textIndex.pendingRows) if (this.textIndex.rowMatches(slot, needle)) mask[slot] = 1;
    for (let slot = this.textIndex.indexedRows; slot < n; slot++) {
      if (this.textIndex.rowMatches(slot, needle)) mask[slot] = 1;
    }
    // The searched dictionary columns whose values hold the needle mark their rows too (a tight loop per column
    // and code width).
    const matched = this.dictionaryHits(needle).filter((column) => column.any);
    const alive = this.alive;
    const found = new Uint32Array(this.size);
    let k = 0;
    for (let from = 0; from < n; from += this.sliceRows) {
      const to = Math.min(n, from + this.sliceRows);
      for (const { codes, hits } of matched) markHits(mask, codes, hits, from, to);
      for (let i = from; i < to; i++) if ((mask[i]! & alive[i]!) === 1) found[k++] = i;
      await this.yieldNow();
      if (shouldStop()) return ABORTED;
    }
    return found.slice(0, k);
  }

  /** Per searched dictionary column, which codes' values contain the needle (all zero when none does). */
  private dictionaryHits(needle: string): DictionaryHits[] {
    return this.dictSearchFields.map((column) => {
      const dict = this.dicts[column]!;
      const hits = dict.matching(needle);
      return { codes: this.codes[column]!, hits: hits ?? new Uint8Array(dict.values.length), any: hits !== null };
    });
  }

  private compileFilters(filters: Record<string, unknown>): FilterStep[] {
    const lists: FilterStep[] = [];
    const ranges: FilterStep[] = [];
    for (const [name, spec] of Object.entries(this.schema.filters)) {
      const value = filters[name];
      if (value === undefined || value === null) continue;
      if (spec.kind === 'anyOf') {
        const values = value as readonly (string | number)[];
        if (values.length === 0) continue;
        const dict = this.dicts[spec.column]!;
        const allowed = new Uint8Array(dict.values.length);
        for (const item of values) {
          const code = dict.find(item);
          if (code !== undefined) allowed[code] = 1;
        }
        lists.push({ kind: 'anyOf', column: spec.column, codes: this.codes[spec.column]!, allowed });
      } else {
        const { from, to } = value as NumberRange;
        if (from === undefined && to === undefined) continue;
        ranges.push({ kind: 'within', data: this.numbers[spec.column]!, from: from ?? -Infinity, to: to ?? Infinity });
      }
    }
    // List filters first: they usually keep the fewest rows, so later steps look at fewer.
    return [...lists, ...ranges];
  }

  private kindOf(column: string): 'number' | 'dict' | 'text' {
    const spec = this.schema.columns[column];
    if (!spec) throw new ListFrameError(`${this.schema.name} has no column ${column}`);
    return spec.kind;
  }

  /** Built on first use per column and direction, kept until the rows change. */
  private permutation({ column, direction }: ListSort): Uint32Array {
    const key = permutationKey({ column, direction });
    // Half built ahead: the rest now, rather than all of it again (the other direction is then derived from it).
    const ahead = this.aheadBuild;
    if (ahead?.column === column) {
      this.aheadBuild = null;
      this.permutations.set(permutationKey({ column, direction: 'asc' }), drain(ahead.steps));
    }
    let order = this.permutations.get(key);
    // Built before rows were appended (a sync's chunks): the new rows sorted by themselves and merged in.
    if (order && order.length < this.length) {
      order = this.extendedPermutation({ column, direction }, order);
      this.permutations.set(key, order);
    }
    if (!order) {
      const descending = direction === 'desc';
      const kind = this.kindOf(column);
      if (kind === 'number') {
        order = numberPermutation(this.numbers[column]!, this.length, descending);
      } else if (kind === 'dict') {
        order = rankPermutation(this.codes[column]!, this.length, this.dicts[column]!.ranks(), descending);
      } else {
        const values = this.plain[column]!.all();
        const opposite = this.permutations.get(permutationKey({ column, direction: descending ? 'asc' : 'desc' }));
        order = opposite?.length === this.length ? reversedTextOrder(opposite, values) : stringPermutation(values, this.length, descending);
      }
      this.permutations.set(key, order);
    }
    return order;
  }

  /**
   * `old` (the order of the slots below its length) with the slots appended since merged in: a sort of the new rows
   * and one pass over both, where a whole sort costs about ten times that at a million rows (a first sync re-sorts
   * for the list every couple of seconds). Same order as a build: new slots come after old ones on ties.
   */
  private extendedPermutation({ column, direction }: ListSort, old: Uint32Array): Uint32Array {
    const from = old.length;
    const n = this.length;
    const descending = direction === 'desc';
    const kind = this.kindOf(column);
    if (kind === 'number') {
      const data = this.numbers[column]!;
      return mergeByNumber(old, numberPermutation(data.subarray(from, n), n - from, descending), from, data, descending);
    }
    if (kind === 'dict') {
      const codes = this.codes[column]!;
      const ranks = this.dicts[column]!.ranks();
      return mergeByRank(old, rankPermutation(codes.subarray(from, n), n - from, ranks, descending), from, codes, ranks, descending);
    }
    return drain(this.extendTextSteps(old, this.plain[column]!.all(), n, descending));
  }

  private write(slot: number, row: Row): void {
    const { numberData, dictData, textData, numberFields, dictFields, textFields, rowCodes } = this;
    for (let k = 0; k < numberFields.length; k++) {
      // NaN for null; +0 for -0, so the radix order and equality agree.
      numberData[k]![slot] = ((row[numberFields[k]!] as number | null) ?? NaN) + 0;
    }
    // Encoded before written: a new value may need a wider column first.
    for (let k = 0; k < dictFields.length; k++) rowCodes[k] = dictData[k]!.encode(row[dictFields[k]!] as string | number);
    if (this.outgrown.any) this.fitCodes();
    const codeData = this.codeData;
    for (let k = 0; k < dictFields.length; k++) codeData[k]![slot] = rowCodes[k]!;
    for (let k = 0; k < textFields.length; k++) textData[k]!.set(slot, row[textFields[k]!] as string);
  }

  private rowAt(slot: number): Row {
    const row = { ...this.rowTemplate };
    const { numberData, codeData, dictData, textData, numberFields, dictFields, textFields, nullable } = this;
    for (let k = 0; k < textFields.length; k++) row[textFields[k]!] = textData[k]!.get(slot);
    for (let k = 0; k < dictFields.length; k++) row[dictFields[k]!] = dictData[k]!.values[codeData[k]![slot]!];
    for (let k = 0; k < numberFields.length; k++) {
      const value = numberData[k]![slot]!;
      row[numberFields[k]!] = nullable[k] && value !== value ? null : value;
    }
    row.deleted = this.alive[slot] !== 1;
    return row as Row;
  }

  /** Keeps the columns by position in step with the columns by name, after any of them was replaced. */
  private columnsMoved(): void {
    this.numberData = this.numberFields.map((field) => this.numbers[field]!);
    this.codeData = this.dictFields.map((field) => this.codes[field]!);
    this.dictData = this.dictFields.map((field) => this.dicts[field]!);
    this.textData = this.textFields.map((field) => this.plain[field]!);
  }

  private slotOfId(): HashIndex {
    if (this.slotMap) return this.slotMap;
    const { alive, length } = this;
    const index = new HashIndex(length);
    // Hashed where the ids lie: no string per row for ids still joined.
    const hashes = this.ids.hashes(length, hashRange);
    for (let slot = 0; slot < length; slot++) if (alive[slot] === 1) index.add(hashes[slot]!, slot);
    this.slotMap = index;
    return index;
  }

  private kill(slot: number, id: string): void {
    this.alive[slot] = 0;
    this.dead++;
    this.slotOfId().remove(hashId(id), slot);
  }

  /** `appendOnly`: rows were only added after every existing slot, none changed or removed. */
  private afterChange(appendOnly = false): void {
    this.changes++;
    if (!appendOnly) this.mutations++;
    // Appended rows leave the slots before them as they were: a permutation is extended when next asked for.
    if (!appendOnly) {
      this.permutations.clear();
      this.aheadBuild = null;
    }
    this.codeIndexes.clear();
    this.filterOrders.clear();
    this.searchMemos.clear();
    if (this.dead > 1024 && this.dead * 4 > this.length) this.compact();
  }

  /** Drops dead slots, keeping the live rows' order. */
  private compact(): void {
    const texts = this.textFields.map((column) => this.plain[column]!.all());
    const ids = this.ids.all();
    const numbers = this.numberFields.map((column) => this.numbers[column]!);
    const codes = this.dictFields.map((column) => this.codes[column]!);
    const index = this.slotMap;
    let to = 0;
    for (let from = 0; from < this.length; from++) {
      if (this.alive[from] !== 1) continue;
      if (to !== from) {
        for (const data of numbers) data[to] = data[from]!;
        for (const data of codes) data[to] = data[from]!;
        for (const values of texts) values[to] = values[from]!;
        this.alive[to] = 1;
        index?.move(hashId(ids[to]!), from, to);
      }
      to++;
    }
    this.alive.fill(0, to, this.length);
    for (const column of this.textFields) this.plain[column]!.truncate(to);
    this.length = to;
    this.dead = 0;
    this.layout++;
    this.handles.clear();
    this.textIndex = this.newTextIndex();
  }

  private reset(): void {
    this.length = 0;
    this.capacity = 0;
    this.dead = 0;
    this.alive = new Uint8Array(0);
    for (const column of this.numberFields) this.numbers[column] = new Float64Array(0);
    this.outgrown.any = false;
    for (const column of this.dictFields) {
      this.codes[column] = new Uint8Array(0);
      this.dicts[column] = new Dictionary(this.outgrown);
    }
    for (const column of this.textFields) this.plain[column] = new TextColumn();
    this.ids = this.plain[this.key]!;
    this.columnsMoved();
    this.slotMap = new HashIndex();
    this.textIndex = this.newTextIndex();
    this.permutations.clear();
    this.aheadBuild = null;
    this.codeIndexes.clear();
    this.filterOrders.clear();
    this.searchMemos.clear();
    this.handles.clear();
    this.groupIndexes.clear();
    this.layout++;
  }

  private newTextIndex(): TextIndex {
    return new TextIndex(this.textSearchFields.map((column) => this.plain[column]!));
  }

  /**
   * Widens the code columns whose dictionaries outgrew them (a 257th shop name, a 65,537th product), keeping their
   * codes: called after values are encoded and before their codes are written.
   */
  private fitCodes(): void {
    if (!this.outgrown.any) return;
    this.outgrown.any = false;
    for (const column of this.dictFields) {
      const dict = this.dicts[column]!;
      const codes = this.codes[column]!;
      if (dict.values.length <= codeRoom(codes)) continue;
      const wider = dict.values.length > 1 << 16 ? new Uint32Array(codes.length) : new Uint16Array(codes.length);
      wider.set(codes);
      this.codes[column] = wider;
      dict.room = codeRoom(wider);
    }
    this.columnsMoved();
  }

  private ensureCapacity(needed: number): void {
    if (needed <= this.capacity) return;
    const capacity = Math.max(needed, this.capacity * 2, 1024);
    const grow = <T extends Float64Array | DictCodes>(old: T, make: (size: number) => T): T => {
      const next = make(capacity);
      next.set(old);
      return next;
    };
    for (const column of this.numberFields) this.numbers[column] = grow(this.numbers[column]!, (s) => new Float64Array(s));
    for (const column of this.dictFields) this.codes[column] = grow(this.codes[column]!, (s) => codesOfWidth(this.codes[column]!, s));
    this.alive = grow(this.alive, (s) => new Uint8Array(s));
    this.capacity = capacity;
    this.columnsMoved();
  }
}

/**
 * Merges `old` (slots below `offset`, in order) with `fresh` (the slots from `offset` on, numbered from 0, in order)
 * by their values: NaN last ascending and first descending, ties to the older slot (numberPermutation's order).
 */
function mergeByNumber(old: Uint32Array, fresh: Uint32Array, offset: number, data: Float64Array, descending: boolean): Uint32Array {
  const out = new Uint32Array(old.length + fresh.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < old.length && j < fresh.length) {
    const a = old[i]!;
    const b = fresh[j]! + offset;
    const va = data[a]!;
    const vb = data[b]!;
    const oldFirst = descending ? va !== va || (vb === vb && va >= vb) : vb !== vb || (va === va && va <= vb);
    if (oldFirst) {
      out[k++] = a;
      i++;
    } else {
      out[k++] = b;
      j++;
    }
  }
  while (i < old.length) out[k++] = old[i++]!;
  while (j < fresh.length) out[k++] = fresh[j++]! + offset;
  return out;
}

/**
 * mergeByNumber for dictionary codes, by the dictionary's ranks (rankPermutation's order). Spelled out again rather
 * than one merge taking a comparison: with the comparison as a closure, cold loads of a million rows measured
 * 12.9-16.5 s against 12.2 s.
 */
function mergeByRank(old: Uint32Array, fresh: Uint32Array, offset: number, codes: DictCodes, ranks: Uint32Array, descending: boolean): Uint32Array {
  const out = new Uint32Array(old.length + fresh.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < old.length && j < fresh.length) {
    const a = old[i]!;
    const b = fresh[j]! + offset;
    const ra = ranks[codes[a]!]!;
    const rb = ranks[codes[b]!]!;
    if (descending ? ra >= rb : ra <= rb) {
      out[k++] = a;
      i++;
    } else {
      out[k++] = b;
      j++;
    }
  }
  while (i < old.length) out[k++] = old[i++]!;
  while (j < fresh.length) out[k++] = fresh[j++]! + offset;
  return out;
}

/**
 * Rows `from .. to - 1` of a chunk's number column into `target` at `base + from`: from the frame's narrowed codes
 * while the column was never read as Float64 (see scaledNumbers), else as one copy; -0 becomes +0 (see write).
 */
function copyNumbers(target: Float64Array, chunk: ListChunk, column: string, from: number, to: number, base: number): void {
  const scaled = scaledNumbers(chunk, column);
  if (scaled) {
    expandScaled(target, scaled, from, to, base);
    return;
  }
  target.set(columnOf(chunk.numbers, column).subarray(from, to), base + from);
  for (let i = base + from; i < base + to; i++) if (target[i] === 0) target[i] = 0;
}

// One function per code width: a loop that reads several kinds of array is slower for each.
function remapRange8(target: DictCodes, remap: Uint32Array, codes: Uint8Array, from: number, to: number, base: number): void {
  for (let i = from; i < to; i++) target[base + i] = remap[codes[i]!]!;
}
function remapRange16(target: DictCodes, remap: Uint32Array, codes: Uint16Array, from: number, to: number, base: number): void {
  for (let i = from; i < to; i++) target[base + i] = remap[codes[i]!]!;
}
function remapRange32(target: DictCodes, remap: Uint32Array, codes: Uint32Array, from: number, to: number, base: number): void {
  for (let i = from; i < to; i++) target[base + i] = remap[codes[i]!]!;
}

/** Marks in `mask` the rows `from .. to - 1` whose code `hits` holds: one function per code width (see remapRange8). */
function markHits(mask: Uint8Array, codes: DictCodes, hits: Uint8Array, from: number, to: number): void {
  if (codes instanceof Uint8Array) markHits8(mask, codes, hits, from, to);
  else if (codes instanceof Uint16Array) markHits16(mask, codes, hits, from, to);
  else markHits32(mask, codes, hits, from, to);
}
function markHits8(mask: Uint8Array, codes: Uint8Array, hits: Uint8Array, from: number, to: number): void {
  for (let i = from; i < to; i++) mask[i]! |= hits[codes[i]!]!;
}
function markHits16(mask: Uint8Array, codes: Uint16Array, hits: Uint8Array, from: number, to: number): void {
  for (let i = from; i < to; i++) mask[i]! |= hits[codes[i]!]!;
}
function markHits32(mask: Uint8Array, codes: Uint32Array, hits: Uint8Array, from: number, to: number): void {
  for (let i = from; i < to; i++) mask[i]! |= hits[codes[i]!]!;
}

/** An empty column of codes as wide as `codes`, `size` rows long. */
function codesOfWidth(codes: DictCodes, size: number): DictCodes {
  return codes instanceof Uint8Array ? new Uint8Array(size) : codes instanceof Uint16Array ? new Uint16Array(size) : new Uint32Array(size);
}

/** The engine's code of each of a chunk dictionary's values (new values are added). */
function remapTable(dict: Dictionary, source: DictColumnData): Uint32Array {
  const remap = new Uint32Array(source.values.length);
  for (let c = 0; c < source.values.length; c++) remap[c] = dict.encode(source.values[c]!);
  return remap;
}

/** Rows `from .. to - 1` of a chunk's codes into `target` at `base + from`, mapped through `remap` (remapTable). */
function remapRange(target: DictCodes, remap: Uint32Array, codes: DictCodes, from: number, to: number, base: number): void {
  if (codes instanceof Uint8Array) remapRange8(target, remap, codes, from, to, base);
  else if (codes instanceof Uint16Array) remapRange16(target, remap, codes, from, to, base);
  else remapRange32(target, remap, codes, from, to, base);
}

/** Gives way to other messages (a newer query, a window call): setImmediate in Node, a MessageChannel in a worker. */
/** The first slot of each group in the result's order. */
function firstOfGroups(rows: Uint32Array, { groupOf, groups }: GroupIndex): Uint32Array {
  const seen = new Uint8Array(groups);
  const first = new Uint32Array(rows.length);
  let kept = 0;
  for (let i = 0; i < rows.length; i++) {
    const slot = rows[i]!;
    const group = groupOf[slot] ?? -1;
    if (group < 0 || seen[group] === 1) continue;
    seen[group] = 1;
    first[kept++] = slot;
  }
  return first.slice(0, kept);
}

export function yieldToEventLoop(): Promise<void> {
  if (typeof setImmediate === 'function') return new Promise((resolve) => setImmediate(resolve));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
