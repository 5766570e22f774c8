import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { lazySchema } from './lazySchema';

/**
 * The tools open to every signed-in user (seller-tool /tool/currency-change): the Bank of Russia's official rates,
 * conversion between any two currencies it publishes (and the rouble), and a rate's history.
 * Rates are decimal strings (roubles for `nominal` units, four decimals), so nothing is lost to floating point.
 */

const isoDate = () =>
  z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'invalid')
  .refine((value) => {
    const time = Date.parse(`${value}T00:00:00Z`);
    return Number.isFinite(time) && new Date(time).toISOString().startsWith(value) && value >= '1992-07-01' && value <= '2100-12-31';
  }, 'invalid');
const currencyCode = () => z.string().trim().toUpperCase().regex(/^[A-Z]{3}$/, 'invalid');

/** The currencies listed first in pickers: a cross-border seller's four. */
export const MAIN_CURRENCIES = ['CNY', 'RUB', 'USD', 'EUR'] as const;

export const rateSchema = lazySchema(() =>
  z.object({ code: z.string(), numCode: z.string(), name: z.string(), nominal: z.number().int(), value: z.string() }),
);
export type Rate = z.infer<typeof rateSchema>;

/** Where an answer's rates come from and how fresh they are (schemas are built on first use: contract/lazySchema.ts). */
const freshness = () => ({
  /** The date the rates were set for by the bank (yyyy-mm-dd). */
  date: z.string(),
  /** When this server last read them from the bank (ISO time). */
  fetchedAt: z.string(),
  /** The bank could not be reached just now: these are the latest stored. */
  stale: z.boolean(),
  /** Why the bank could not be reached, when it could not. */
  problem: z.string().nullable(),
  source: z.literal('cbr'),
});

export const ratesQuerySchema = lazySchema(() => z.object({ date: isoDate().optional() }));
export const ratesAnswerSchema = lazySchema(() => z.object({ ...freshness(), rates: z.array(rateSchema) }));
export type RatesAnswer = z.infer<typeof ratesAnswerSchema>;

export const convertQuerySchema = lazySchema(() =>
  z.object({
    from: currencyCode(),
    to: currencyCode(),
    /** At most two decimals, below a trillion. */
    amount: z.string().trim().regex(/^\d{1,12}(\.\d{1,2})?$/, 'invalid'),
    date: isoDate().optional(),
  }),
);
export type ConvertQuery = z.input<typeof convertQuerySchema>;
export const convertAnswerSchema = lazySchema(() =>
  z.object({
    ...freshness(),
    from: z.string(),
    to: z.string(),
    amount: z.string(),
    /** Rounded half up to the hundredth (kopecks, fen, cents). */
    result: z.string(),
    /** One unit of `from` in `to`, six decimals. */
    rate: z.string(),
  }),
);
export type ConvertAnswer = z.infer<typeof convertAnswerSchema>;

/** A history of at most about ten years per call. */
export const HISTORY_MAX_DAYS = 3_660;
export const historyQuerySchema = lazySchema(() =>
  z
    .object({ code: currencyCode(), from: isoDate(), to: isoDate() })
    .refine((query) => query.from <= query.to, { message: 'invalid', path: ['from'] })
    .refine((query) => (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000 <= HISTORY_MAX_DAYS, { message: 'invalid', path: ['to'] }),
);
export type HistoryQuery = z.input<typeof historyQuerySchema>;
export const historyAnswerSchema = lazySchema(() =>
  z.object({
    code: z.string(),
    points: z.array(z.object({ date: z.string(), value: z.string(), nominal: z.number().int() })),
    /** False when the bank could not be reached and part of the range is missing. */
    complete: z.boolean(),
    problem: z.string().nullable(),
    source: z.literal('cbr'),
  }),
);
export type HistoryAnswer = z.infer<typeof historyAnswerSchema>;

export const TOOL_ENDPOINTS = {
  rates: defineEndpoint({
    method: 'GET',
    path: '/tool/rates',
    summary: "The Bank of Russia's rates of a date (the latest when none is given)",
    access: 'open',
    input: ratesQuerySchema,
    answer: ratesAnswerSchema,
    settings: { timeout: 15_000 },
  }),
  convert: defineEndpoint({
    method: 'GET',
    path: '/tool/rates/convert',
    summary: 'An amount of one currency in another at the official rates of a date',
    access: 'open',
    input: convertQuerySchema,
    answer: convertAnswerSchema,
    settings: { timeout: 15_000, cancellable: true },
  }),
  history: defineEndpoint({
    method: 'GET',
    path: '/tool/rates/history',
    summary: "One currency's official rate on each date it was set within a range",
    access: 'open',
    input: historyQuerySchema,
    answer: historyAnswerSchema,
    settings: { timeout: 30_000, cancellable: true },
  }),
} as const;
