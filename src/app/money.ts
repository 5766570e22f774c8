import type { Lang } from '@contract/errors';
import type { Rate } from '@contract/tools';
import { amountFormat } from './formats';

/** What amounts are shown in: as stored (each in its own currency), or also converted to CNY or RUB. */
export const DISPLAY_CURRENCIES = ['original', 'CNY', 'RUB'] as const;
export type DisplayCurrency = (typeof DISPLAY_CURRENCIES)[number];

/** Roubles for one unit of each currency, from the Bank of Russia's rates (the rouble itself is 1). */
export type RoublesPerUnit = ReadonlyMap<string, number>;

export function roublesPerUnit(rates: readonly Rate[]): RoublesPerUnit {
  const map = new Map<string, number>([['RUB', 1]]);
  for (const rate of rates) {
    const value = Number(rate.value);
    if (Number.isFinite(value) && value > 0 && rate.nominal > 0) map.set(rate.code, value / rate.nominal);
  }
  return map;
}

/** `amount` of `from` in `to` at those rates (through the rouble), rounded to the hundredth; null without a rate. */
export function convertAmount(amount: number, from: string, to: string, rates: RoublesPerUnit): number | null {
  if (from === to) return amount;
  const a = rates.get(from);
  const b = rates.get(to);
  if (a === undefined || b === undefined) return null;
  return Math.round(((amount * a) / b) * 100) / 100;
}

/** An amount with its currency: "833.00 CNY". */
export function moneyText(amount: number, currency: string, lang: Lang): string {
  return `${amountFormat(lang).format(amount)} ${currency}`;
}

/**
 * An amount as the display-currency setting shows it: the original always, and beside it the converted one
 * ("≈ 10,412.50 RUB") when the setting names another currency and the day's rate is known.
 */
export function displayMoney(amount: number, currency: string, lang: Lang, shown: DisplayCurrency, rates: RoublesPerUnit | null): { original: string; converted: string | null } {
  const original = moneyText(amount, currency, lang);
  if (shown === 'original' || shown === currency || rates === null) return { original, converted: null };
  const value = convertAmount(amount, currency, shown, rates);
  return { original, converted: value === null ? null : `≈ ${moneyText(value, shown, lang)}` };
}
