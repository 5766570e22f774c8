import { normaliseNeedle, TextIndex } from '../../../workers/lists/search';

/** Two text columns of `n` rows; a few rows carry a needle, among them the last and first rows of index pieces. */
function columns(n: number, marked: Set<number>) {
  const posting = Array.from({ length: n }, (_, r) => (marked.has(r) ? `P-${r}-NEEDLE` : `P-${r}-x`));
  const tracking = Array.from({ length: n }, (_, r) => (r % 7 === 0 ? `Трек-${r}` : ''));
  return [posting, tracking].map((values) => ({ get: (row: number) => values[row]! }));
}

describe('the search index', () => {
  // More rows than several pieces of the index hold (32,768 rows each), so matches fall in several pieces and on their edges.
  const n = 140_000;
  const marked = new Set([0, 1, 65_535, 65_536, 65_537, 131_071, 131_072, n - 1]);
  const index = new TextIndex(columns(n, marked));
  index.build(n);

  it('finds every row holding the needle, whichever piece of the index it lies in', () => {
    const mask = new Uint8Array(n);
    expect(index.searchIndexed(normaliseNeedle('needle'), mask)).toBe(marked.size);
    expect([...mask.keys()].filter((row) => mask[row] === 1)).toEqual([...marked].sort((a, b) => a - b));
    // A needle in the other column, in any case, and one found nowhere.
    const cyrillic = new Uint8Array(n);
    expect(index.searchIndexed(normaliseNeedle('ТРЕК-70000'), cyrillic)).toBe(1);
    expect(cyrillic[70_000]).toBe(1);
    expect(index.searchIndexed('nowhere', new Uint8Array(n))).toBe(0);
  });

  it('answers for one row from its own stretch of the index, not its neighbours', () => {
    expect(index.contains(65_536, 'needle')).toBe(true);
    expect(index.contains(65_538, 'needle')).toBe(false);
    expect(index.contains(131_072, 'p-131072-')).toBe(true);
    expect(index.contains(131_073, 'p-131072-')).toBe(false);
    // The separators never match a typed needle: no match runs from one row or field into the next.
    expect(index.searchIndexed(normaliseNeedle('x\u0000p'), new Uint8Array(n))).toBe(0);
  });

  it('checks a row changed after the build by its current text', () => {
    const values = Array.from({ length: 70_000 }, (_, r) => `row-${r}`);
    const own = new TextIndex([{ get: (row: number) => values[row]! }]);
    own.build(values.length);
    values[66_000] = 'changed';
    own.markStale(66_000);
    const mask = new Uint8Array(values.length);
    expect(own.searchIndexed('row-66000', mask)).toBe(0);
    expect(own.contains(66_000, 'changed')).toBe(true);
    expect(own.searchIndexed('row-66001', mask)).toBe(1);
  });
});
