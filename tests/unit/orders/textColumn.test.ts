import { TEXT_SEPARATOR } from '../../../contract/orderChunk';
import { TextColumn } from '../../../workers/lists/textColumn';

const joined = (values: string[]) => values.join(TEXT_SEPARATOR);

describe('a text column', () => {
  it('reads joined stretches as their values, split on first read, among values written one by one', () => {
    const column = new TextColumn();
    column.copy(['a0', 'a1'], Uint32Array.of(0, 1), 2, 0);
    column.appendJoined(2, joined(['b0', '', 'b2']), 3);
    column.appendJoined(5, joined(['c0', 'c1']), 2);
    expect([...Array(7).keys()].map((slot) => column.get(slot))).toEqual(['a0', 'a1', 'b0', '', 'b2', 'c0', 'c1']);
  });

  it('keeps the other values of a stretch when one of them is overwritten before it was read', () => {
    const column = new TextColumn();
    column.appendJoined(0, joined(['x', 'y', 'z']), 3);
    column.set(1, 'Y');
    expect([column.get(0), column.get(1), column.get(2)]).toEqual(['x', 'Y', 'z']);
    // Read first (the stretch is only cut, not split), then overwritten: a later whole read keeps the new value.
    const read = new TextColumn();
    read.appendJoined(0, joined(['x', 'y', 'z']), 3);
    expect(read.get(1)).toBe('y');
    read.set(1, 'Y');
    expect(read.all()).toEqual(['x', 'Y', 'z']);
  });

  it('gives every value to a whole read and a truncation, and empty values for a stretch that does not add up', () => {
    const column = new TextColumn();
    column.appendJoined(0, joined(['p', 'q']), 2);
    column.appendJoined(2, joined(['only one']), 2);
    expect(column.all()).toEqual(['p', 'q', '', '']);
    column.truncate(1);
    expect(column.all()).toEqual(['p']);
  });

  it('reads a stretch still held as UTF-8 bytes value by value and whole, and one that does not add up as empty values', () => {
    const values = ['ПН-1', '', '订单🎧7', 'plain'];
    const column = new TextColumn();
    column.appendBytes(0, new TextEncoder().encode(joined(values)), 4);
    column.appendBytes(4, new TextEncoder().encode(joined(['only one'])), 2);
    expect([0, 1, 2, 3, 4, 5].map((slot) => column.get(slot))).toEqual([...values, '', '']);
    while (column.settleOne());
    expect(column.get(2)).toBe('订单🎧7');
    expect(column.all()).toEqual([...values, '', '']);
  });

  it('answers the same when a stretch held as bytes is read value by value past the point where it is decoded whole', () => {
    const values = Array.from({ length: 700 }, (_, i) => (i % 5 === 0 ? `号${i}` : i % 7 === 0 ? '' : `v${i}`));
    const column = new TextColumn();
    column.appendBytes(10, new TextEncoder().encode(joined(values)), values.length);
    expect(values.map((_, i) => column.get(10 + i))).toEqual(values);
    expect(column.get(9)).toBe('');
  });

  it('decodes a stretch held as bytes whole only once an eighth of it was read, then a stretch per settle step', () => {
    const values = Array.from({ length: 8_000 }, (_, i) => `P${i}-号`);
    const column = new TextColumn();
    column.appendBytes(0, new TextEncoder().encode(joined(values)), values.length);
    column.appendBytes(8_000, new TextEncoder().encode(joined(values)), values.length);
    // Windows of a hundred rows in the first stretch: still bytes after 900 values (an eighth is 1,000).
    for (let start = 0; start < 900; start += 100) {
      for (let slot = start; slot < start + 100; slot++) expect(column.get(slot)).toBe(values[slot]);
    }
    expect(column.settleOne()).toBe(true);
    expect(column.settleOne()).toBe(true);
    expect(column.settleOne()).toBe(false);
    expect(column.get(8_000 + 7_999)).toBe(values[7_999]);
    // Read past an eighth, a stretch is decoded whole: nothing is left to settle.
    const read = new TextColumn();
    read.appendBytes(0, new TextEncoder().encode(joined(values)), values.length);
    for (let slot = 0; slot <= 1_000; slot++) read.get(slot);
    expect(read.settleOne()).toBe(false);
    expect(read.all()).toEqual(values);
  });
});
