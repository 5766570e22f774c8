import { drain, mergeByTextSteps, numberPermutation, reversedTextOrder, stringPermutation, stringPermutationSteps } from '../../../workers/lists/sorting';
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

  // Product names: a few dozen shared beginnings in Cyrillic, Latin and Chinese, then a number; some longer than the
  // code units kept per row, so rounds read both the buffer and the strings.
  const productNames = (count: number) => {
    const words = ['Чехол', 'Кабель USB-C', 'Наушники TWS', '保温杯', 'Коврик для йоги', '收纳盒'];
    const brands = ['Baseus', 'Ugreen', 'Нет бренда', '小米'];
    return Array.from({ length: count }, () => {
      const roll = random();
      const name = `${words[Math.floor(random() * words.length)]} ${brands[Math.floor(random() * brands.length)]} #${Math.floor(random() * count)}`;
      if (roll < 0.1) return `${name} для iPhone 15 Pro Max, прозрачный, с MagSafe ${Math.floor(random() * 50)}`;
      if (roll < 0.12) return '';
      return name;
    });
  };

  it('orders product names as the reference does, in one go, in steps and from the other direction', () => {
    const values = productNames(20_000);
    for (const descending of [false, true]) {
      const expected = expectedOrder(values, byCodeUnits, descending);
      expect(Array.from(stringPermutation(values, values.length, descending))).toEqual(expected);
      const steps = stringPermutationSteps(values, values.length, descending, 1_000);
      let stepped = 0;
      for (let step = steps.next(); ; step = steps.next(), stepped++) {
        if (step.done) {
          expect(Array.from(step.value)).toEqual(expected);
          break;
        }
      }
      expect(stepped).toBeGreaterThan(20);
      // Descending from ascending and back: ties (duplicate names, empty ones) stay by index.
      const other = stringPermutation(values, values.length, !descending);
      expect(Array.from(reversedTextOrder(other, values))).toEqual(expected);
    }
  });

  it('extends a text order with appended rows as a whole sort would order them', () => {
    const values = productNames(12_000);
    for (const descending of [false, true]) {
      const old = stringPermutation(values.slice(0, 9_000), 9_000, descending);
      const fresh = stringPermutation(values.slice(9_000), 3_000, descending);
      expect(Array.from(drain(mergeByTextSteps(old, fresh, 9_000, values, descending)))).toEqual(expectedOrder(values, byCodeUnits, descending));
    }
  });

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
