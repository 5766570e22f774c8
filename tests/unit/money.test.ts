import { describe, expect, it } from 'vitest';
import { convertExact } from '../../contract/money';
import type { DisplayRates } from '../../workers/tools';
import { AS_STORED, convertAmount, moneyText, showMoney, type MoneyTexts, type MoneyView } from '../../src/app/money';

// The Bank of Russia quotes the yuan per 1 and the yen per 100, in roubles.
const rates: DisplayRates = {
  date: '2026-12-02',
  fetchedAt: '2026-12-02T09:00:00.000Z',
  stale: false,
  problem: null,
  rates: [
    { code: 'CNY', numCode: '156', name: 'Юань', nominal: 1, value: '11.4286' },
    { code: 'JPY', numCode: '392', name: 'Иен', nominal: 100, value: '52.3000' },
  ],
};

const texts: MoneyTexts = {
  rateOn: ({ date, from, to, rate }) => `rate ${date}: 1 ${from} = ${rate} ${to}`,
  stale: ({ problem }) => `(stale: ${problem})`,
  reading: ({ to }) => `reading ${to}`,
  unavailable: ({ to, reason }) => `not in ${to}: ${reason}`,
  noRate: ({ from, to }) => `no rate ${from}->${to}`,
};
const view = (change: Partial<MoneyView>): MoneyView => ({ lang: 'en', shown: 'RUB', rates, ratesProblem: null, texts, ...change });

describe('amounts in the display currency', () => {
  it('writes every amount with its currency sign, in the language’s grouping', () => {
    expect(moneyText(399, 'CNY', 'zh')).toBe('¥399.00');
    expect(moneyText(4560.5, 'RUB', 'en')).toBe('₽4,560.50');
    expect(moneyText(4560.5, 'RUB', 'pt')).toBe('₽\u00a04.560,50');
    // Others by their codes: the yen is not written as a second ¥.
    expect(moneyText(1000, 'JPY', 'en')).toBe('JPY\u00a01,000.00');
    // A row without an ISO code keeps its number and what it says.
    expect(moneyText(12, '', 'en')).toBe('12.00');
    expect(moneyText(12, 'usd1', 'en')).toBe('12.00 usd1');
  });

  it('converts exactly at the bank’s rate, its nominal counted, rounding half away from zero once', () => {
    // 399 x 11.4286 = 4,560.0114.
    expect(convertAmount(399, 'CNY', 'RUB', rates)).toEqual({ value: 4560.01, rate: '11.428600' });
    // 0.05 CNY = 0.57143 RUB -> 0.57; 1,000 JPY at 52.30 per 100 = 523.00 RUB = 45.76 CNY (45.7624...).
    expect(convertAmount(0.05, 'CNY', 'RUB', rates)?.value).toBe(0.57);
    expect(convertAmount(1000, 'JPY', 'CNY', rates)?.value).toBe(45.76);
    expect(convertAmount(-399, 'CNY', 'RUB', rates)?.value).toBe(-4560.01);
    // A half kopeck rounds away from zero, both ways: 0.5 RUB at 2 RUB per unit is 0.25; 0.01 RUB is 0.005 -> 0.01.
    expect(convertExact('0.01', { value: '1.0000', nominal: 1 }, { value: '2.0000', nominal: 1 }).result).toBe('0.01');
    expect(convertExact('-0.01', { value: '1.0000', nominal: 1 }, { value: '2.0000', nominal: 1 }).result).toBe('-0.01');
    expect(convertAmount(5, 'USD', 'RUB', rates)).toBeNull();
    expect(convertAmount(Number.NaN, 'CNY', 'RUB', rates)).toBeNull();
  });

  it('shows the converted amount first with the original beside it, and the rate with its date in the tooltip', () => {
    expect(showMoney(399, 'CNY', view({}))).toEqual({
      text: '₽4,560.01 (¥399.00)',
      original: '¥399.00',
      converted: '₽4,560.01',
      title: 'rate 2026-12-02: 1 CNY = 11.4286 RUB',
    });
    expect(showMoney(4560, 'RUB', view({ shown: 'CNY' })).text).toBe('¥399.00 (₽4,560.00)');
    // Rates the bank could not confirm just now: still converted, and the tooltip says so.
    expect(showMoney(1, 'CNY', view({ rates: { ...rates, stale: true, problem: 'HTTP 503' } })).title).toBe('rate 2026-12-02: 1 CNY = 11.4286 RUB (stale: HTTP 503)');
  });

  it('shows an amount already in the display currency, or with “their own currency” chosen, as it is', () => {
    expect(showMoney(399, 'CNY', view({ shown: 'CNY' }))).toEqual({ text: '¥399.00', original: '¥399.00', converted: null, title: undefined });
    expect(showMoney(399, 'CNY', view({ shown: 'original' })).text).toBe('¥399.00');
    expect(showMoney(399, 'CNY', AS_STORED).text).toBe('¥399.00');
  });

  it('never shows a wrong number without a rate: the original alone, and why in the tooltip', () => {
    expect(showMoney(399, 'CNY', view({ rates: null }))).toMatchObject({ text: '¥399.00', converted: null, title: 'reading RUB' });
    expect(showMoney(399, 'CNY', view({ rates: null, ratesProblem: 'bank down' }))).toMatchObject({ text: '¥399.00', converted: null, title: 'not in RUB: bank down' });
    expect(showMoney(12, 'USD', view({}))).toMatchObject({ text: 'USD\u00a012.00', converted: null, title: 'no rate USD->RUB' });
  });
});
