import { useTranslation } from 'react-i18next';
import type { Lang } from '@contract/errors';
import { toLang } from './i18n';

/**
 * The app's one date and time format per language, in the user's time zone (the browser's): every date or time on
 * screen comes from here. zh: 2026-11-26 13:07, en: 26 Nov 2026, 13:07, pt: 26/11/2026 13:07 (Brazil's way); dates
 * alone drop the time.
 *
 * The Intl formatters are made once per language and kind (toLocaleString(locale, options) builds a new formatter on
 * every call, and a scrolling list formats hundreds of cells a second), each when first asked for: the first zh-CN
 * date formatter loads the locale's data (15-35 ms on the two-core benchmark machine), which made alone most of the
 * order page's code evaluation a long task. `warmFormats` makes the user's ones in a task of their own at start-up,
 * while the page's code is still downloading.
 */
const LOCALES: Record<Lang, { time: string; amount: string }> = { zh: { time: 'zh-CN', amount: 'zh-CN' }, en: { time: 'en-GB', amount: 'en' }, pt: { time: 'pt-BR', amount: 'pt-BR' } };
const DATE_PARTS: Record<Lang, Intl.DateTimeFormatOptions> = {
  zh: { year: 'numeric', month: '2-digit', day: '2-digit' },
  en: { year: 'numeric', month: 'short', day: 'numeric' },
  pt: { year: 'numeric', month: '2-digit', day: '2-digit' },
};
const CLOCK_PARTS: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };

/** A date formatter that never throws: a time JavaScript cannot show (one bad row from the server) reads '—'. */
export type TimeFormat = { format(value: number | Date): string };
/** The largest time a JavaScript Date holds (±100,000,000 days from 1970). */
const DATE_LIMIT_MS = 8.64e15;

type Kind = 'time' | 'date' | 'seconds' | 'calendar' | 'clock';
const formats = new Map<`${Lang}:${Kind}`, TimeFormat>();
const amounts = new Map<Lang, Intl.NumberFormat>();

function made(lang: Lang, kind: Kind, options: Intl.DateTimeFormatOptions): TimeFormat {
  const key = `${lang}:${kind}` as const;
  let format = formats.get(key);
  if (!format) {
    const intl = new Intl.DateTimeFormat(LOCALES[lang].time, options);
    // zh-CN writes 2026/11/26: the Chinese back offices' (and ISO's) 2026-11-26 reads better in a table.
    const tidy = lang === 'zh' ? (text: string) => text.replace(/\//g, '-') : (text: string) => text;
    format = {
      format(value) {
        const time = typeof value === 'number' ? value : value.getTime();
        return Number.isFinite(time) && Math.abs(time) <= DATE_LIMIT_MS ? tidy(intl.format(time)) : '—';
      },
    };
    formats.set(key, format);
  }
  return format;
}

/** Date and time to the minute: 2026-11-26 13:07 (zh), 26 Nov 2026, 13:07 (en), 26/11/2026, 13:07 (pt). */
export const timeFormat = (lang: Lang): TimeFormat => made(lang, 'time', { ...DATE_PARTS[lang], ...CLOCK_PARTS });
/** Date and time to the second, for messages and logs: 2026-11-26 13:07:05. */
export const secondsFormat = (lang: Lang): TimeFormat => made(lang, 'seconds', { ...DATE_PARTS[lang], ...CLOCK_PARTS, second: '2-digit' });
/** The time of day alone: 13:07. */
export const clockFormat = (lang: Lang): TimeFormat => made(lang, 'clock', CLOCK_PARTS);
/** A list's moment: the time of day when it is today (where the user is), else the date. */
export function listTime(lang: Lang, at: number, now: number = Date.now()): string {
  return new Date(at).toDateString() === new Date(now).toDateString() ? clockFormat(lang).format(at) : dateFormat(lang).format(at);
}
/** The date alone: 2026-11-26 (zh), 26 Nov 2026 (en), 26/11/2026 (pt). */
export const dateFormat = (lang: Lang): TimeFormat => made(lang, 'date', DATE_PARTS[lang]);
/** A calendar date written yyyy-mm-dd (a rate's day, an announcement's start): that day, in no time zone. */
export function calendarDate(lang: Lang, isoDate: string): string {
  return made(lang, 'calendar', { ...DATE_PARTS[lang], timeZone: 'UTC' }).format(Date.parse(`${isoDate.slice(0, 10)}T00:00:00Z`));
}

/** An amount with two decimals and the language's grouping. */
export const amountFormat = (lang: Lang): Intl.NumberFormat => {
  let format = amounts.get(lang);
  if (!format) amounts.set(lang, (format = new Intl.NumberFormat(LOCALES[lang].amount, { minimumFractionDigits: 2, maximumFractionDigits: 2 })));
  return format;
};

/** The formats of the language on screen. */
export function useFormats() {
  const { i18n } = useTranslation();
  const lang = toLang(i18n?.language ?? 'zh');
  return { lang, time: timeFormat(lang), seconds: secondsFormat(lang), date: dateFormat(lang), calendarDate: (iso: string) => calendarDate(lang, iso), amount: amountFormat(lang) };
}

/** Makes the language's formatters now (see above). */
export function warmFormats(lang: Lang): void {
  timeFormat(lang);
  amountFormat(lang);
}
