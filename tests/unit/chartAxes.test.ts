import { amountAxis, shortAmount, shortDay } from '../../src/components/charts/axes';

describe('chart axes', () => {
  it('writes amounts short in each language, with the currency sign', () => {
    expect(shortAmount('zh', 318_000, 'CNY')).toBe('¥31.8万');
    expect(shortAmount('zh', 125_000_000, 'CNY')).toBe('¥1.3亿');
    expect(shortAmount('en', 318_000, 'CNY')).toBe('¥318K');
    expect(shortAmount('en', 1_250_000, 'RUB')).toBe('₽1.3M');
    expect(shortAmount('zh', 950)).toBe('950');
    expect(shortAmount('en', 12_500)).toBe('12.5K');
    expect(shortAmount('pt', 318_000, 'BRL')).toMatch(/^R\$\s?318\s?mil$/);
    expect(shortAmount('en', 5_000, 'XYZ')).toMatch(/5K/);
  });

  it("writes a day as the UI's language does, in UTC", () => {
    const day = Date.parse('2026-08-23T00:00:00Z');
    expect(shortDay('zh', day)).toBe('8月23日');
    expect(shortDay('en', day)).toBe('23 Aug');
  });

  it('labels an axis through the same format and reports what it drew', () => {
    const drawn: string[] = [];
    const axis = amountAxis('zh', 'CNY', 'left', (label) => drawn.push(label));
    const formatter = axis.label!.formatter as (params: { value: number }) => string;
    expect(formatter({ value: 500_000 })).toBe('¥50万');
    expect(drawn).toEqual(['¥50万']);
  });
});
