/**
 * Substring search over columns of mostly unique strings (posting, order and tracking numbers): lowercase haystacks
 * of PIECE_ROWS rows each, fields separated by control characters so no match spans two fields or rows, searched
 * with `indexOf`, which is far faster than a million `includes` calls. The pieces stay apart: joining them into one
 * string was a single task of 50-100 ms in the worker (a copy of the whole text) that held any window or query
 * asked for meanwhile, and a piece of only Latin text stays a one-byte string, which `indexOf` scans faster. Built
 * once; rows changed afterwards are marked stale and checked one by one until there are enough of them to be worth a
 * rebuild.
 */

const FIELD_SEPARATOR = '\u0001';
const ROW_SEPARATOR = '\u0000';
const PIECE_ROWS = 1 << 15;
// Control characters never occur in what a user types into a search box; dropping them keeps matches in one field.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f]/g;

export function normaliseNeedle(search: string | undefined): string {
  return (search ?? '').replace(CONTROL, '').trim().toLowerCase();
}

export class TextIndex {
  /** Piece k holds rows k × PIECE_ROWS onwards, from offset starts[k × PIECE_ROWS] of the text they make together. */
  private pieces: string[] = [];
  /** starts[r] is where row r begins in the pieces' text; starts[rows] is one past the end. */
  private starts = new Int32Array(1);
  private rows = 0;
  private stale = new Uint8Array(0);
  private staleRows: number[] = [];

  constructor(private readonly columns: readonly { get(row: number): string }[]) {}

  /** Rows below this were indexed; later rows are checked one by one. */
  get indexedRows(): number {
    return this.rows;
  }

  get pendingRows(): readonly number[] {
    return this.staleRows;
  }

  build(rowCount: number): void {
    const pieces: string[] = [];
    const starts = new Int32Array(rowCount + 1);
    for (let from = 0; from < rowCount; from += PIECE_ROWS) pieces.push(this.piece(from, Math.min(rowCount, from + PIECE_ROWS), starts));
    this.finish(pieces, starts, rowCount);
  }

  /**
   * `build` a piece at a time, giving way between pieces (a million rows take a few hundred milliseconds in all,
   * which must not hold a window call that long). `pause` yields and answers false when the rows changed meanwhile:
   * the build then stops and leaves the index as it was.
   */
  async buildInSlices(rowCount: number, pause: () => Promise<boolean>): Promise<boolean> {
    const pieces: string[] = [];
    const starts = new Int32Array(rowCount + 1);
    for (let from = 0; from < rowCount; from += PIECE_ROWS) {
      pieces.push(this.piece(from, Math.min(rowCount, from + PIECE_ROWS), starts));
      if (!(await pause())) return false;
    }
    this.finish(pieces, starts, rowCount);
    return true;
  }

  /** Rows from .. to - 1 as lowercase haystack text (each row ends with ROW_SEPARATOR); fills their starts. */
  private piece(from: number, to: number, starts: Int32Array): string {
    const texts = new Array<string>(to - from);
    for (let r = from; r < to; r++) {
      let text = '';
      for (let c = 0; c < this.columns.length; c++) {
        if (c > 0) text += FIELD_SEPARATOR;
        text += this.columns[c]!.get(r);
      }
      texts[r - from] = text;
    }
    const joined = texts.join(ROW_SEPARATOR) + ROW_SEPARATOR;
    let lowered = joined.toLowerCase();
    // A few characters (e.g. 'İ') change length when lowercased: then each row is lowered on its own.
    if (lowered.length !== joined.length) {
      for (let i = 0; i < texts.length; i++) texts[i] = texts[i]!.toLowerCase();
      lowered = texts.join(ROW_SEPARATOR) + ROW_SEPARATOR;
    }
    let offset = starts[from]!;
    for (let i = 0; i < texts.length; i++) {
      starts[from + i] = offset;
      offset += texts[i]!.length + 1;
    }
    starts[to] = offset;
    return lowered;
  }

  private finish(pieces: string[], starts: Int32Array<ArrayBuffer>, rowCount: number): void {
    this.pieces = pieces;
    this.starts = starts;
    this.rows = rowCount;
    this.stale = new Uint8Array(rowCount);
    this.staleRows = [];
  }

  clear(): void {
    this.pieces = [];
    this.starts = new Int32Array(1);
    this.rows = 0;
    this.stale = new Uint8Array(0);
    this.staleRows = [];
  }

  /** A row's text changed after the build. */
  markStale(row: number): void {
    if (row < this.rows && this.stale[row] === 0) {
      this.stale[row] = 1;
      this.staleRows.push(row);
    }
  }

  /** Sets mask[r] = 1 for every indexed, non-stale row whose text contains the needle. Returns how many. */
  searchIndexed(needle: string, mask: Uint8Array): number {
    const { pieces, starts, stale } = this;
    let hits = 0;
    for (let k = 0; k < pieces.length; k++) {
      const piece = pieces[k]!;
      const first = k * PIECE_ROWS;
      const base = starts[first]!;
      const last = Math.min(this.rows, first + PIECE_ROWS) - 1;
      let pos = piece.indexOf(needle);
      while (pos >= 0) {
        const row = rowAt(starts, first, last, base + pos);
        if (stale[row] === 0) {
          mask[row] = 1;
          hits++;
        }
        pos = piece.indexOf(needle, starts[row + 1]! - base);
      }
    }
    return hits;
  }

  /** Whether one row's text contains the needle: its stretch of the haystack when indexed and current. */
  contains(row: number, needle: string): boolean {
    if (row >= this.rows || this.stale[row] === 1) return this.rowMatches(row, needle);
    const base = this.starts[row - (row % PIECE_ROWS)]!;
    return this.pieces[Math.floor(row / PIECE_ROWS)]!.substring(this.starts[row]! - base, this.starts[row + 1]! - 1 - base).includes(needle);
  }

  /** The slow path for one row (stale or appended after the build). */
  rowMatches(row: number, needle: string): boolean {
    for (const column of this.columns) {
      if (column.get(row).toLowerCase().includes(needle)) return true;
    }
    return false;
  }
}

/** The row, between rows `low` and `high`, whose text holds offset `pos`. */
function rowAt(starts: Int32Array, low: number, high: number, pos: number): number {
  while (low < high) {
    const mid = (low + high + 1) >>> 1;
    if (starts[mid]! <= pos) low = mid;
    else high = mid - 1;
  }
  return low;
}
