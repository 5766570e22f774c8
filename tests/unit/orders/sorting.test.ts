import { numberPermutation, stringPermutation } from '../../../workers/lists/sorting';
import { seededRandom } from './generate';

function expectedOrder<T>(values: readonly T[], compare: (x: T, y: T) => number, descending: boolean): number[] {
  return values
    .map((_, i) => i)
    .sort((a, b) => (descending ? -1 : 1) * compare(values[a]!, values[b]!) || a - b);
}

const byCodeUnits = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

describe('sort permutations', () => {
  const random = seededRandom(5);
  const alphabets = ['0123456789-', 'abcXYZ', '甲乙丙丁', 'aé\u{1F600}Ωz', '\u0000\uffff a'];
  const word = (alphabet: string, length: number) =>
    Array.from({ length }, () => [...alphabet][Math.floor(random() * [...alphabet].length)]).join('');

  for (const alphabet of alphabets) {
    it(`orders strings over "${alphabet}" by code units, ties by index, both directions`, () => {
      const prefix = word(alphabet, 20);
      const values = Array.from({ length: 3_000 }, (_, i) => {
        const roll = random();
        // Long shared prefixes, duplicates, prefixes of each other and empty strings.
        if (roll < 0.3) return prefix + word(alphabet, Math.floor(random() * 4));
        if (roll < 0.4) return prefix.slice(0, Math.floor(random() * 20));
        if (roll < 0.45) return '';
        return word(alphabet, 1 + (i % 25));
      });
      for (const descending of [false, true]) {
        expect(Array.from(stringPermutation(values, values.length, descending))).toEqual(
          expectedOrder(values, byCodeUnits, descending),
        );
      }
    });
  }

  it('orders numbers with negatives, zeros and empty values (largest) in both directions', () => {
    const values = Array.from({ length: 2_000 }, () => {
      const roll = random();
      if (roll < 0.1) return NaN;
      if (roll < 0.2) return 0;
      if (roll < 0.3) return Math.round(random() * 10) - 5;
      return (random() - 0.5) * 1e13;
    });
    const compare = (x: number, y: number) =>
      Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : Number.isNaN(y) ? -1 : x - y;
    for (const descending of [false, true]) {
      expect(Array.from(numberPermutation(Float64Array.from(values), values.length, descending))).toEqual(
        expectedOrder(values, compare, descending),
      );
    }
  });

  // Each shape takes another key path: whole values (one or two 32-bit words after the gcd), cents, any double.
  const numberShapes: [string, () => number][] = [
    ['ms dates on whole hours', () => Date.UTC(2024, 0, 1) + Math.floor(random() * 17_520) * 3_600_000],
    ['ms dates to the millisecond over 50 years', () => Date.UTC(2000, 0, 1) + Math.floor(random() * 50 * 365 * 86_400_000)],
    ['amounts in cents with negatives', () => Math.round((random() - 0.3) * 5_000_000) / 100],
    ['small integers with many ties', () => Math.floor(random() * 7) - 3],
    ['huge integers', () => Math.floor((random() - 0.5) * 2 ** 60)],
    ['thirds (no exact scale)', () => Math.floor(random() * 1_000) / 3],
    ['one value', () => 42.5],
  ];
  for (const [name, make] of numberShapes) {
    it(`orders ${name}, empty values largest, in both directions`, () => {
      const compare = (x: number, y: number) =>
        Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : Number.isNaN(y) ? -1 : x - y;
      for (const empty of [0, 0.15]) {
        const values = Array.from({ length: 3_000 }, () => (random() < empty ? NaN : make()));
        for (const descending of [false, true]) {
          expect(Array.from(numberPermutation(Float64Array.from(values), values.length, descending))).toEqual(
            expectedOrder(values, compare, descending),
          );
        }
      }
    });
  }

  it('orders only empty values and no values', () => {
    expect(Array.from(numberPermutation(Float64Array.from([NaN, NaN, NaN]), 3, true))).toEqual([0, 1, 2]);
    expect(Array.from(numberPermutation(new Float64Array(0), 0, false))).toEqual([]);
  });
});
