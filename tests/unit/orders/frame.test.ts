import { encodeDict, TEXT_SEPARATOR } from '../../../contract/orderChunk';
import { encodeJoinedDicts, msOfMicros } from '../../../server/areas/orders/frame';

describe('the server side of a binary frame', () => {
  it('dictionary-encodes columns held row after row in one text as encodeDict does column by column', () => {
    const width = 3;
    const n = 2000;
    const names = ['深圳数码 Shenzhen Digital', 'Москва FBS', '', 'a', 'ab', 'ba', '雨伞 便携 #116'];
    const rows = Array.from({ length: n }, (_, i) => [String(i % 7), names[(i * 5) % names.length]!, `SKU-${(i * 37) % 1500}`]);
    const columns = encodeJoinedDicts(rows.map((row) => row.join(TEXT_SEPARATOR)).join(TEXT_SEPARATOR), n, width)!;
    for (let f = 0; f < width; f++) {
      const expected = encodeDict(rows.map((row) => row[f]!));
      expect(columns[f]!.values).toEqual(expected.values);
      expect([...columns[f]!.codes]).toEqual([...expected.codes]);
    }
  });

  it('refuses a text that does not hold rows × columns values (a value with the separator in it)', () => {
    const joined = (values: string[]) => values.join(TEXT_SEPARATOR);
    expect(encodeJoinedDicts(joined(['a', 'b', 'c', 'd']), 2, 2)).not.toBeNull();
    expect(encodeJoinedDicts(joined(['a', 'b', 'c']), 2, 2)).toBeNull();
    expect(encodeJoinedDicts(joined(['a', 'b', 'c', 'd', 'e']), 2, 2)).toBeNull();
    expect(encodeJoinedDicts(joined(['a', 'b', 'c', '']), 2, 2)!.map((column) => column.values)).toEqual([['a', 'c'], ['b', '']]);
  });

  it('turns microseconds into milliseconds as the row answer does, halves away from zero', () => {
    expect([msOfMicros(1_500), msOfMicros(1_499), msOfMicros(-1_500), msOfMicros(-1_499)]).toEqual([2, 1, -2, -1]);
    expect(msOfMicros(1_795_280_202_011_500)).toBe(1_795_280_202_012);
  });
});
