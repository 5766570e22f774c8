import type { AgAxisLabelFormatterParams, AgNumberAxisOptions, AgTimeAxisOptions, AgUnitTimeAxisOptions } from 'ag-charts-community';
import type { Lang } from '@contract/errors';

/**
 * The charts' axes in the UI's language: amounts short (31.8万 and 1.2亿 in zh, 318K and 1.2M in en, 318 mil in pt)
 * with the currency's sign, and day ticks thinned to what fits, written as the language writes a day (11月5日,
 * 5 Nov, 5 de nov.). Intl's compact notation does the shortening (the language's own units, no table of ours).
 */

/** en-US writes thousands K (en-GB: k); days are written the British way, as the app's dates are (src/app/formats.ts). */
const NUMBER_LOCALE: Record<Lang, string> = { zh: 'zh-CN', en: 'en-US', pt: 'pt-BR' };
const DAY_LOCALE: Record<Lang, string> = { zh: 'zh-CN', en: 'en-GB', pt: 'pt-BR' };
const numbers = new Map<string, Intl.NumberFormat>();
const days = new Map<Lang, Intl.DateTimeFormat>();

function numberFormat(lang: Lang, currency?: string): Intl.NumberFormat {
  const key = `${lang}:${currency ?? ''}`;
  let format = numbers.get(key);
  if (!format) {
    format = new Intl.NumberFormat(NUMBER_LOCALE[lang], {
      notation: 'compact',
      minimumFractionDigits: 0,
      maximumFractionDigits: 1,
      ...(currency ? { style: 'currency', currency, currencyDisplay: 'narrowSymbol' } : {}),
    });
    numbers.set(key, format);
  }
  return format;
}

/** A figure short: 31.8万 / 318K; with a currency, its sign too: ¥31.8万 / ¥318K / ₽1.2M. */
export function shortAmount(lang: Lang, value: number, currency?: string): string {
  if (!Number.isFinite(value)) return '—';
  try {
    return numberFormat(lang, currency).format(value);
  } catch {
    // A currency code Intl does not know: the figure, then the code.
    return `${numberFormat(lang).format(value)} ${currency}`;
  }
}

/** A day (a time at UTC midnight) as the language writes it on an axis: 11月5日, 5 Nov, 5 de nov. */
export function shortDay(lang: Lang, value: number | Date): string {
  let format = days.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(DAY_LOCALE[lang], { month: lang === 'zh' ? 'long' : 'short', day: 'numeric', timeZone: 'UTC' });
    days.set(lang, format);
  }
  return format.format(value);
}

/**
 * A y axis of amounts (in `currency`) or of counts (no currency), its labels short. `drawn` is told each label the
 * chart draws (the browser tests read them off the chart's element: a canvas has no text to find).
 */
export function amountAxis(lang: Lang, currency?: string, position: 'left' | 'bottom' = 'left', drawn?: (label: string) => void): AgNumberAxisOptions {
  const formatter = ({ value }: AgAxisLabelFormatterParams) => {
    const label = shortAmount(lang, Number(value), currency);
    drawn?.(label);
    return label;
  };
  return { type: 'number', position, label: { formatter } };
}

/** Keeps the labels an axis drew on an element's `data-axis-labels` (see amountAxis's `drawn`). */
export function labelsOn(element: () => HTMLElement | null): (label: string) => void {
  const labels = new Set<string>();
  return (label) => {
    labels.add(label);
    const target = element();
    if (target) target.dataset.axisLabels = [...labels].join('|');
  };
}

/** Gap kept between two day ticks (px): about a tick a week on a drawer's 90 days. */
const DAY_TICK_SPACING = 64;

/**
 * An x axis of days: `unit-time` gives each day a band (bars and lines alike, so two charts of one period line up),
 * `time` a continuous axis. `from` and `to` (epoch ms of the first and last day) pin the period, so charts over the
 * same days cover the same span even where one series starts later.
 */
export function dayAxis(lang: Lang, kind: 'unit-time', range?: { from: number; to: number }): AgUnitTimeAxisOptions;
export function dayAxis(lang: Lang, kind: 'time', range?: { from: number; to: number }): AgTimeAxisOptions;
export function dayAxis(lang: Lang, kind: 'unit-time' | 'time', range?: { from: number; to: number }): AgUnitTimeAxisOptions | AgTimeAxisOptions {
  const label = { formatter: ({ value }: AgAxisLabelFormatterParams) => shortDay(lang, value as Date | number) };
  const span = range ? { min: new Date(range.from), max: new Date(range.to) } : {};
  if (kind === 'unit-time') {
    return { type: 'unit-time', position: 'bottom', unit: 'day', label, parentLevel: { enabled: false }, interval: { minSpacing: DAY_TICK_SPACING }, ...span };
  }
  return { type: 'time', position: 'bottom', label, parentLevel: { enabled: false }, interval: { minSpacing: DAY_TICK_SPACING }, ...span };
}
