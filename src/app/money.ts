import type { Lang } from '@contract/errors';
import { convertExact, RUB_RATE, type RateValue } from '@contract/money';
import type { DisplayCurrency } from '@contract/preferences';
import type { DisplayRates } from '@workers/tools';
import { amountFormat } from './formats';

export { DISPLAY_CURRENCIES, type DisplayCurrency } from '@contract/preferences';

/**
 * Every amount on screen with its currency's sign, and, when the display currency (contract/preferences.ts) is
 * another, converted at the Bank of Russia's rate of the day with the original beside it: "₽4,560.00 (¥399.00)",
 * the rate and its date in the tooltip. Conversion is exact (contract/money.ts, the same as the tools page's); no
 * rate, no conversion: the original alone, and the tooltip says why.
 */

const LOCALES: Record<Lang, string> = { zh: 'zh-CN', en: 'en', pt: 'pt-BR' };
/** The yuan and the rouble by their own signs; others by their codes (English writes the yen ¥ too, the dollar $). */
const NARROW = new Set(['CNY', 'RUB']);

const formats = new Map<string, Intl.NumberFormat | null>();

function currencyFormat(lang: Lang, currency: string): Intl.NumberFormat | null {
  const key = `${lang}:${currency}`;
  let format = formats.get(key);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat(LOCALES[lang], {
        style: 'currency',
        currency,
        currencyDisplay: NARROW.has(currency) ? 'narrowSymbol' : 'code',
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      });
    } catch {
      // Not an ISO code (a row with none): the number and whatever the row says.
      format = null;
    }
    formats.set(key, format);
  }
  return format;
}

/** An amount with its currency's sign: "¥399.00", "₽4,560.00", "USD 12.00". */
export function moneyText(amount: number, currency: string, lang: Lang): string {
  const format = currencyFormat(lang, currency);
  if (format) return format.format(amount);
  const number = amountFormat(lang).format(amount);
  return currency ? `${number} ${currency}` : number;
}

const byCode = new WeakMap<DisplayRates, Map<string, RateValue>>();

function rateOf(rates: DisplayRates, code: string): RateValue | undefined {
  if (code === 'RUB') return RUB_RATE;
  let map = byCode.get(rates);
  if (!map) byCode.set(rates, (map = new Map(rates.rates.map((rate) => [rate.code, { value: rate.value, nominal: rate.nominal }]))));
  return map.get(code);
}

/** `amount` of `from` in `to` at those rates, to the hundredth, and the rate of one unit; null without a rate. */
export function convertAmount(amount: number, from: string, to: string, rates: DisplayRates): { value: number; rate: string } | null {
  if (!Number.isFinite(amount)) return null;
  if (from === to) return { value: amount, rate: '1.000000' };
  const a = rateOf(rates, from);
  const b = rateOf(rates, to);
  if (!a || !b) return null;
  const { result, rate } = convertExact(amount.toFixed(2), a, b);
  return { value: Number(result), rate };
}

/** The tooltip texts, in the user's language (src/app/locales: `money`). */
export type MoneyTexts = {
  rateOn(values: { date: string; from: string; to: string; rate: string }): string;
  stale(values: { problem: string }): string;
  reading(values: { to: string }): string;
  unavailable(values: { to: string; reason: string }): string;
  noRate(values: { from: string; to: string }): string;
};

/** What amounts are shown in and with what: the display currency, the day's rates (null until read or unreadable). */
export type MoneyView = { lang: Lang; shown: DisplayCurrency; rates: DisplayRates | null; ratesProblem: string | null; texts: MoneyTexts | null };

export const AS_STORED: MoneyView = { lang: 'zh', shown: 'original', rates: null, ratesProblem: null, texts: null };

export type MoneyShown = {
  /** What the cell shows: the converted amount with the original in brackets, or the original alone. */
  text: string;
  original: string;
  converted: string | null;
  /** The rate and its date, or why the amount is not converted; none when nothing is converted by choice. */
  title: string | undefined;
};

/** Four decimals are what the bank sets; the exact six-decimal rate is trimmed of trailing zeros beyond them. */
const rateText = (rate: string) => rate.replace(/(\.\d{4}\d*?)0+$/, '$1');

export function showMoney(amount: number, currency: string, view: MoneyView): MoneyShown {
  const original = moneyText(amount, currency, view.lang);
  const to = view.shown;
  if (to === 'original' || to === currency) return { text: original, original, converted: null, title: undefined };
  const texts = view.texts;
  const plain = (title: string | undefined): MoneyShown => ({ text: original, original, converted: null, title });
  if (!view.rates) {
    return plain(view.ratesProblem === null ? texts?.reading({ to }) : texts?.unavailable({ to, reason: view.ratesProblem }));
  }
  const converted = convertAmount(amount, currency, to, view.rates);
  if (!converted) return plain(texts?.noRate({ from: currency || '?', to }));
  const convertedText = moneyText(converted.value, to, view.lang);
  const rate = texts?.rateOn({ date: view.rates.date, from: currency, to, rate: rateText(converted.rate) });
  const stale = view.rates.stale && texts ? ` ${texts.stale({ problem: view.rates.problem ?? '' })}` : '';
  return { text: `${convertedText} (${original})`, original, converted: convertedText, title: rate === undefined ? undefined : `${rate}${stale}` };
}
