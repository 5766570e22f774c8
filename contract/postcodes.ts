import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { lazySchema } from './lazySchema';

/**
 * Russian postcodes (seller-tool /tool/rus-post), open to every signed-in user. The offices come from Russian Post's
 * published postcode database (PIndx: one DBF of every office, in CP866, usually zipped), loaded whole by an
 * administrator or `npm run postcodes:import FILE`; an office's street address and hours come from Russian Post's
 * post-office service when it is configured (or simulated), as they are not in the database.
 */

export const POSTCODE = /^\d{6}$/;
export const POSTCODE_SEARCH_LIMIT = 50;
/** The post's file is about 4 MB zipped, 12 MB as DBF. */
export const POSTCODE_IMPORT_MAX_BYTES = 64 * 1024 * 1024;

export const postOfficeSchema = lazySchema(() =>
  z.object({
    index: z.string(),
    /** OPSNAME: the office's name, e.g. МОСКВА 1, or ПОЧТАМТ. */
    name: z.string(),
    /** OPSTYPE: ОПС, ПОЧТАМТ, ГОПС, СОПС, УФПС... */
    type: z.string(),
    /** OPSSUBM: the index of the office it reports to. */
    parent: z.string(),
    region: z.string(),
    /** AUTONOM: an autonomous okrug within the region. */
    autonomous: z.string(),
    area: z.string(),
    city: z.string(),
    /** CITY_1: a settlement within the city's area. */
    settlement: z.string(),
    /** ACTDATE: when the post last changed this row (yyyy-mm-dd). */
    changed: z.string(),
    /** INDEXOLD: the index it had before, when it changed. */
    previousIndex: z.string(),
  }),
);
export type PostOffice = z.infer<typeof postOfficeSchema>;

export const officeDetailsSchema = lazySchema(() =>
  z.object({
    address: z.string(),
    /** Per weekday 1 (Monday) to 7: opening and closing times (HH:MM), null when closed that day; lunch breaks. */
    hours: z.array(z.object({ weekday: z.number().int().min(1).max(7), open: z.string().nullable(), close: z.string().nullable(), lunch: z.array(z.object({ from: z.string(), to: z.string() })) })),
    closed: z.boolean(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
  }),
);
export type OfficeDetails = z.infer<typeof officeDetailsSchema>;

export const datasetSchema = lazySchema(() =>
  z.object({
    /** The file last loaded and when; null when nothing was ever loaded. */
    file: z.string().nullable(),
    importedAt: z.string().nullable(),
    rows: z.number().int(),
    /** The newest ACTDATE in it: how current the post's data is. */
    newestChange: z.string().nullable(),
  }),
);
export type PostcodeDataset = z.infer<typeof datasetSchema>;

export const lookupAnswerSchema = lazySchema(() =>
  z.object({
    office: postOfficeSchema.nullable(),
    /** Offices whose previous index this was (the post renumbered them). */
    renumbered: z.array(postOfficeSchema),
    details: officeDetailsSchema.nullable(),
    /** Why there are no details: the service is not configured, down, or does not know the office. */
    detailsProblem: z.enum(['notConfigured', 'unavailable', 'unknown']).nullable(),
    dataset: datasetSchema,
  }),
);
export type LookupAnswer = z.infer<typeof lookupAnswerSchema>;

export const searchInputSchema = lazySchema(() =>
  z.object({
    /** Parts of the region, area, city, settlement or office name, in any order (two characters at least). */
    q: z.string().trim().min(2, 'postcodeQueryShort').max(80),
    region: z.string().trim().max(80).optional(),
  }),
);
export const searchAnswerSchema = lazySchema(() =>
  z.object({
    offices: z.array(postOfficeSchema),
    total: z.number().int(),
    /** Offices the post-office service finds for the query read as a street address (first in the page). */
    byAddress: z.array(postOfficeSchema),
    /** Why the address was not looked up: the service is not configured or could not be reached. */
    addressProblem: z.enum(['notConfigured', 'unavailable']).nullable(),
    dataset: datasetSchema,
  }),
);
export type PostcodeSearchAnswer = z.infer<typeof searchAnswerSchema>;

export const importAnswerSchema = lazySchema(() => z.object({ dataset: datasetSchema }));

export const POSTCODE_ENDPOINTS = {
  lookup: defineEndpoint({
    method: 'GET',
    path: '/tool/postcode/lookup',
    summary: "A six-digit postcode's office, with its address and hours when the post-office service answers",
    access: 'open',
    input: lazySchema(() => z.object({ index: z.string().trim().regex(POSTCODE, 'postcodeInvalid') })),
    answer: lookupAnswerSchema,
    settings: { timeout: 15_000, cancellable: true },
  }),
  search: defineEndpoint({
    method: 'GET',
    path: '/tool/postcode/search',
    summary: 'Offices whose region, area, city, settlement or name hold every word of the query (at most 50)',
    access: 'open',
    input: searchInputSchema,
    answer: searchAnswerSchema,
    settings: { cancellable: true },
  }),
  dataset: defineEndpoint({
    method: 'GET',
    path: '/tool/postcode/dataset',
    summary: 'Which postcode file is loaded, when, and how current it is',
    access: 'open',
    answer: datasetSchema,
  }),
  import: defineEndpoint({
    method: 'POST',
    path: '/tool/postcode/import',
    summary: "Replaces the postcode database with Russian Post's PIndx file (.zip or .dbf; administrators)",
    access: 'admin',
    action: 'edit',
    multipart: { fields: lazySchema(() => z.object({})), file: 'file' },
    answer: importAnswerSchema,
    settings: { timeout: 300_000, retries: 0 },
  }),
} as const;
