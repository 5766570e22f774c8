import type { Lang } from '@contract/errors';

/**
 * The lists' Intl formatters, one per language and kind (toLocaleString(locale, options) builds a new formatter on
 * every call, and a scrolling list formats hundreds of cells a second). Each is made when first asked for: the first
 * zh-CN date formatter loads the locale's data (15-35 ms on the two-core benchmark machine), which made alone most
 * of the order page's code evaluation a long task. `warmFormats` makes the user's ones in a task of their own at
 * start-up, while the page's code is still downloading.
 */
const LOCALES: Record<Lang, { time: string; amount: string }> = { zh: { time: 'zh-CN', amount: 'zh-CN' }, en: { time: 'en-GB', amount: 'en' } };
/** A date formatter that never throws: a time JavaScript cannot show (one bad row from the server) reads '—'. */
export type TimeFormat = { format(value: number | Date): string };
const times = new Map<Lang, TimeFormat>();
/** The largest time a JavaScript Date holds (±100,000,000 days from 1970). */
const DATE_LIMIT_MS = 8.64e15;
const amounts = new Map<Lang, Intl.NumberFormat>();

function made<F>(formats: Map<Lang, F>, lang: Lang, make: () => F): F {
  let format = formats.get(lang);
  if (!format) formats.set(lang, (format = make()));
  return format;
}

/** Date and time, short: 2026/11/25 09:30 (zh), 25/11/2026, 09:30 (en). */
export const timeFormat = (lang: Lang): TimeFormat =>
  made(times, lang, () => {
    const intl = new Intl.DateTimeFormat(LOCALES[lang].time, { dateStyle: 'short', timeStyle: 'short' });
    return {
      format(value) {
        const time = typeof value === 'number' ? value : value.getTime();
        return Number.isFinite(time) && Math.abs(time) <= DATE_LIMIT_MS ? intl.format(value) : '—';
      },
    };
  });

/** An amount with two decimals and the language's grouping. */
export const amountFormat = (lang: Lang): Intl.NumberFormat =>
  made(amounts, lang, () => new Intl.NumberFormat(LOCALES[lang].amount, { minimumFractionDigits: 2, maximumFractionDigits: 2 }));

/** Makes the language's formatters now (see above). */
export function warmFormats(lang: Lang): void {
  timeFormat(lang);
  amountFormat(lang);
}
