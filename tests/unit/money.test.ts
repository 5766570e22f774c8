import { describe, expect, it } from 'vitest';
import type { Rate } from '../../contract/tools';
import { convertAmount, displayMoney, roublesPerUnit } from '../../src/app/money';

// The Bank of Russia quotes the yuan per 1 and the yen per 100, in roubles.
const rates: Rate[] = [
  { code: 'CNY', numCode: '156', name: 'Юань', nominal: 1, value: '11.0520' },
  { code: 'JPY', numCode: '392', name: 'Иен', nominal: 100, value: '52.3000' },
];

describe('amounts in the display currency', () => {
  it("converts through the rouble at the bank's rate, its nominal counted", () => {
    const perRub = roublesPerUnit(rates);
    expect(convertAmount(100, 'CNY', 'RUB', perRub)).toBe(1105.2);
    expect(convertAmount(1105.2, 'RUB', 'CNY', perRub)).toBe(100);
    expect(convertAmount(1000, 'JPY', 'CNY', perRub)).toBe(47.32);
    expect(convertAmount(5, 'USD', 'RUB', perRub)).toBeNull();
  });

  it('shows the original with its currency, and beside it the converted one only when asked and known', () => {
    const perRub = roublesPerUnit(rates);
    expect(displayMoney(833, 'CNY', 'zh', 'RUB', perRub)).toEqual({ original: '833.00 CNY', converted: '≈ 9,206.32 RUB' });
    expect(displayMoney(833, 'CNY', 'zh', 'original', perRub)).toEqual({ original: '833.00 CNY', converted: null });
    expect(displayMoney(833, 'CNY', 'zh', 'CNY', perRub).converted).toBeNull();
    expect(displayMoney(1000, 'RUB', 'en', 'CNY', perRub)).toEqual({ original: '1,000.00 RUB', converted: '≈ 90.48 CNY' });
    // Rates not read yet: the original alone, never a wrong number.
    expect(displayMoney(833, 'CNY', 'zh', 'RUB', null).converted).toBeNull();
  });
});
