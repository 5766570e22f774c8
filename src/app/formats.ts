import type { Lang } from '@contract/errors';

/**
 * The lists' Intl formatters, one per language and kind (toLocaleString(locale, options) builds a new formatter on
 * every call, and a scrolling list formats hundreds of cells a second). Each is made when first asked for: the first
 * zh-CN date formatter loads the locale's data (15-35 ms on the two-core benchmark machine), which made alone most
 * of the order page's code evaluation a long task. `warmFormats` makes the user's ones in a task of their own at
 * start-up, while the page's code is still downloading.
 */
const LOCALES: Record<Lang, { time: string; amount: string }> = { zh: { time: 'zh-CN', amount: 'zh-CN' }, en: { time: 'en-GB', amount: 'en' } };
const times = new Map<Lang, Intl.DateTimeFormat>();
const amounts = new Map<Lang, Intl.NumberFormat>();

function made<F>(formats: Map<Lang, F>, lang: Lang, make: () => F): F {
  let format = formats.get(lang);
  if (!format) formats.set(lang, (format = make()));
  return format;
}

/** Date and time, short: 2026/11/25 09:30 (zh), 25/11/2026, 09:30 (en). */
export const timeFormat = (lang: Lang): Intl.DateTimeFormat =>
  made(times, lang, () => new Intl.DateTimeFormat(LOCALES[lang].time, { dateStyle: 'short', timeStyle: 'short' }));

/** An amount with two decimals and the language's grouping. */
export const amountFormat = (lang: Lang): Intl.NumberFormat =>
  made(amounts, lang, () => new Intl.NumberFormat(LOCALES[lang].amount, { minimumFractionDigits: 2, maximumFractionDigits: 2 }));

/** Makes the language's formatters now (see above). */
export function warmFormats(lang: Lang): void {
  timeFormat(lang);
  amountFormat(lang);
}
