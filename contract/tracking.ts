import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { lazySchema } from './lazySchema';

/**
 * Parcel tracking (seller-tool /track/track-search), open to every signed-in user. Each number goes to one carrier:
 * the seller's own Ozon postings first (answered from the app's data at once), then the prefix table (a number's first
 * two characters; built-in rows plus those an administrator adds), then automatic detection by the number's form.
 * Carriers' answers are cached with the time they were read; a number still moving is read again at most every
 * TRACK_REFRESH_MS.
 */

export const TRACK_MAX_NUMBERS = 40;
export const TRACK_REFRESH_MS = 30 * 60_000;

export const CARRIERS = ['ozon', 'russianPost', 'cainiao', 'track17'] as const;
export type Carrier = (typeof CARRIERS)[number];

/** A parcel's state in one vocabulary for every carrier (each carrier's own words stay in an event's `text`). */
export const TRACK_STATUSES = ['infoReceived', 'inTransit', 'pickup', 'delivered', 'returned', 'cancelled', 'exception', 'notFound'] as const;
export type TrackStatus = (typeof TRACK_STATUSES)[number];
/** Statuses after which a parcel does not move again: their answers are not read again. */
export const FINAL_STATUSES: readonly TrackStatus[] = ['delivered', 'returned', 'cancelled'];

/** 6 to 40 letters, digits or dashes (Ozon posting numbers have dashes); case is not significant. */
export const TRACK_NUMBER = /^[A-Z0-9][A-Z0-9-]{4,38}[A-Z0-9]$/;
export const normalizeTrackNumber = (value: string) => value.trim().toUpperCase();

export const trackEventSchema = lazySchema(() =>
  z.object({
    /** ISO time with its offset as the carrier gave it. */
    time: z.string(),
    place: z.string(),
    status: z.enum(TRACK_STATUSES),
    /** The carrier's own words for the event. */
    text: z.string(),
  }),
);
export type TrackEvent = z.infer<typeof trackEventSchema>;

/** Why a number has no answer: its carrier is down or refused, is not configured here, or none could be told. */
export const TRACK_PROBLEMS = ['carrierDown', 'carrierRefused', 'notConfigured', 'unknownCarrier'] as const;
export type TrackProblem = (typeof TRACK_PROBLEMS)[number];

export const trackResultSchema = lazySchema(() =>
  z.object({
    number: z.string(),
    carrier: z.enum(CARRIERS).nullable(),
    /** How the carrier was chosen: one of the seller's postings, the prefix table, or the number's form. */
    routedBy: z.enum(['own', 'prefix', 'auto']),
    /** For an own posting: its posting number and shop. */
    posting: z.object({ postingNumber: z.string(), shopName: z.string() }).nullable(),
    status: z.enum(TRACK_STATUSES).nullable(),
    /** Newest first. */
    events: z.array(trackEventSchema),
    /** When the carrier was read (ISO); null when it could not be. */
    fetchedAt: z.string().nullable(),
    fromCache: z.boolean(),
    problem: z.enum(TRACK_PROBLEMS).nullable(),
    /** The carrier's own reason, when it gave one. */
    detail: z.string().nullable(),
  }),
);
export type TrackResult = z.infer<typeof trackResultSchema>;

export const trackSearchInputSchema = lazySchema(() =>
  z.object({
    numbers: z
      .array(z.string().transform(normalizeTrackNumber).pipe(z.string().regex(TRACK_NUMBER, 'trackNumberInvalid')))
      .min(1)
      .max(TRACK_MAX_NUMBERS, 'trackTooMany'),
  }),
);
export const trackSearchAnswerSchema = lazySchema(() => z.object({ results: z.array(trackResultSchema) }));
export type TrackSearchAnswer = z.infer<typeof trackSearchAnswerSchema>;

export const PREFIX = /^[A-Z0-9]{2}$/;
export const trackPrefixSchema = lazySchema(() =>
  z.object({
    prefix: z.string().transform(normalizeTrackNumber).pipe(z.string().regex(PREFIX, 'invalid')),
    carrier: z.enum(CARRIERS).exclude(['ozon']),
  }),
);
export type TrackPrefix = z.output<typeof trackPrefixSchema>;
export const prefixesAnswerSchema = lazySchema(() =>
  z.object({
    prefixes: z.array(z.object({ prefix: z.string(), carrier: z.enum(CARRIERS), builtIn: z.boolean() })),
    /** Which outside carriers this server can read (configured, or simulated outside production). */
    carriers: z.array(z.object({ carrier: z.enum(CARRIERS), configured: z.boolean() })),
  }),
);
export type PrefixesAnswer = z.infer<typeof prefixesAnswerSchema>;

export const TRACK_ENDPOINTS = {
  search: defineEndpoint({
    method: 'POST',
    path: '/track/search',
    summary: 'Track up to 40 numbers, each at the carrier its posting, prefix or form names',
    access: 'open',
    // A read: the operation log leaves it out.
    action: 'view',
    input: trackSearchInputSchema,
    answer: trackSearchAnswerSchema,
    settings: { timeout: 60_000, cancellable: true },
  }),
  prefixes: defineEndpoint({
    method: 'GET',
    path: '/track/prefixes',
    summary: 'The prefix table and which carriers are configured',
    access: 'open',
    answer: prefixesAnswerSchema,
  }),
  savePrefix: defineEndpoint({
    method: 'POST',
    path: '/track/prefix/save',
    summary: 'Route numbers with a two-character prefix to a carrier (administrators)',
    access: 'admin',
    action: 'edit',
    input: trackPrefixSchema,
    answer: prefixesAnswerSchema,
  }),
  deletePrefix: defineEndpoint({
    method: 'POST',
    path: '/track/prefix/delete',
    summary: 'Remove an added prefix (administrators; built-in rows stay)',
    access: 'admin',
    action: 'delete',
    input: lazySchema(() => z.object({ prefix: z.string().transform(normalizeTrackNumber).pipe(z.string().regex(PREFIX, 'invalid')) })),
    answer: prefixesAnswerSchema,
  }),
} as const;

/**
 * What a seller pasted, as numbers: split on spaces, commas, semicolons and line breaks, upper-cased, each once.
 * `invalid` lists what is not a number (the page names them); more than TRACK_MAX_NUMBERS is `tooMany`.
 */
export function parseTrackNumbers(text: string): { numbers: string[]; invalid: string[]; tooMany: boolean } {
  const tokens = text.split(/[\s,;，；、]+/).map(normalizeTrackNumber).filter(Boolean);
  const numbers = [...new Set(tokens.filter((token) => TRACK_NUMBER.test(token)))];
  const invalid = [...new Set(tokens.filter((token) => !TRACK_NUMBER.test(token)))];
  return { numbers, invalid, tooMany: numbers.length > TRACK_MAX_NUMBERS };
}
