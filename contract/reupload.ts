import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { queryInt } from './fields';
import { lazySchema } from './lazySchema';
import { productOutcomeSchema } from './products';

/**
 * Delist and re-upload (seller-tool /product/oz-reupload-product, call /product/reUpload): a seller picks cards that
 * have gone stale; for each one the server reads the full card (attributes, pictures, dimensions, prices, stocks) and
 * stores it, archives the old card and deletes it where Ozon allows (only cards without an SKU), imports the stored
 * card again under a new offer id through Ozon's asynchronous import, follows the import task and moderation to the
 * end, and restores the minimum price and the stock per warehouse.
 *
 * A batch is named by the browser (`batchId`): sending it again after a crash or a reload resumes it where each
 * product stands. The server moves it on in the background (server/areas/products/reuploadRunner.ts), whether or not
 * a browser watches; the page only reads where each product stands. Nothing on Ozon changes before a product's card
 * is stored, and the import is never sent twice.
 */

/** Products per re-upload batch: the server's runner works through it in the background (one card per import). */
export const REUPLOAD_MAX = 500;

export const REUPLOAD_STEPS = ['reading', 'archiving', 'deleting', 'importing', 'moderating', 'restoring', 'done', 'failed'] as const;
export type ReuploadStep = (typeof REUPLOAD_STEPS)[number];
/** Steps still under way: the browser asks again until none of its batch is in one. */
export const REUPLOAD_UNSETTLED: readonly ReuploadStep[] = ['reading', 'archiving', 'deleting', 'importing', 'moderating', 'restoring'];
export const isReuploadSettled = (step: ReuploadStep) => step === 'done' || step === 'failed';

/** What became of the old card: not touched yet, archived (Ozon keeps cards that have an SKU), or deleted. */
export const OLD_CARD_STATES = ['kept', 'archived', 'deleted'] as const;
export type OldCardState = (typeof OLD_CARD_STATES)[number];

/**
 * The new offer id sellers expect: the old one with `-R<n>` (the old one's own `-R<n>` counted on, so a card re-uploaded
 * twice becomes `…-R2`, not `…-R1-R1`), cut to Ozon's 50 characters; `taken` is asked until a free one comes.
 */
export function nextOfferId(oldOfferId: string, taken: (offerId: string) => boolean): string | null {
  const match = /^(.*)-R(\d{1,4})$/.exec(oldOfferId);
  const base = match ? match[1]! : oldOfferId;
  let n = match ? Number(match[2]) + 1 : 1;
  for (let tries = 0; tries < 50; tries++, n++) {
    const suffix = `-R${n}`;
    const candidate = `${base.slice(0, 50 - suffix.length)}${suffix}`;
    if (!taken(candidate)) return candidate;
  }
  return null;
}

export const reuploadErrorSchema = lazySchema(() => z.object({ code: z.string(), message: z.string(), attribute: z.string() }));
export type ReuploadError = z.infer<typeof reuploadErrorSchema>;

/** One product of a re-upload batch and where it stands. */
export const reuploadItemSchema = lazySchema(() =>
  z.object({
    id: z.number().int(),
    batchId: z.string(),
    /** The old card's product row id. */
    rowId: z.string(),
    shopId: z.number().int(),
    shopName: z.string(),
    name: z.string(),
    image: z.string(),
    oldOfferId: z.string(),
    oldProductId: z.string(),
    newOfferId: z.string(),
    /** Ozon's product id of the new card, once the import made it. */
    newProductId: z.string().nullable(),
    step: z.enum(REUPLOAD_STEPS),
    /** Where a failed one stopped (a retry resumes there). */
    failedStep: z.enum(REUPLOAD_STEPS).nullable(),
    oldCard: z.enum(OLD_CARD_STATES),
    /** Ozon's reasons for a failure, or the last passing problem while a step is tried again (caller's language). */
    errors: z.array(reuploadErrorSchema),
    createdAt: z.number(),
    updatedAt: z.number(),
  }),
);
export type ReuploadItem = z.infer<typeof reuploadItemSchema>;

const batchIdField = () => z.string().trim().min(1).max(64);

export const reuploadBodySchema = lazySchema(() =>
  z.object({ batchId: batchIdField(), ids: z.array(z.string().min(1).max(200)).min(1).max(REUPLOAD_MAX) }),
);
export type ReuploadBody = z.input<typeof reuploadBodySchema>;
/** The batch's products, and those refused before anything was done (with the reason). */
export const reuploadAnswerSchema = lazySchema(() => z.object({ items: z.array(reuploadItemSchema), refused: z.array(productOutcomeSchema) }));
export type ReuploadAnswer = z.infer<typeof reuploadAnswerSchema>;

export const reuploadBatchBodySchema = lazySchema(() => z.object({ batchId: batchIdField() }));
export const reuploadItemsSchema = lazySchema(() => z.object({ items: z.array(reuploadItemSchema) }));
export type ReuploadItems = z.infer<typeof reuploadItemsSchema>;

export const reuploadRetryBodySchema = lazySchema(() => z.object({ batchId: batchIdField(), ids: z.array(z.number().int().min(1)).min(1).max(REUPLOAD_MAX) }));

export const reuploadHistoryQuerySchema = lazySchema(() =>
  z.object({
    page: queryInt(1, 1_000_000).default(1),
    rows: queryInt(1, 200).default(20),
    step: z.enum(REUPLOAD_STEPS).optional(),
    /** Part of the name or either offer id. */
    search: z.string().trim().max(100).optional(),
  }),
);
export type ReuploadHistoryQuery = z.input<typeof reuploadHistoryQuerySchema>;
export const reuploadHistorySchema = lazySchema(() =>
  z.object({
    list: z.array(reuploadItemSchema),
    total: z.number().int(),
    /** Batches with products still under way, newest first: the page offers to follow them. */
    openBatches: z.array(z.object({ batchId: z.string(), unsettled: z.number().int(), total: z.number().int() })),
  }),
);
export type ReuploadHistory = z.infer<typeof reuploadHistorySchema>;

export const REUPLOAD_ENDPOINTS = {
  reUpload: defineEndpoint({
    method: 'POST',
    path: '/product/reUpload',
    summary: 'Starts (or resumes) a re-upload batch: each card stored, archived, deleted where Ozon allows, and imported under a new offer id.',
    access: 'products',
    action: 'publish',
    input: reuploadBodySchema,
    answer: reuploadAnswerSchema,
    settings: { retries: 1, retryDelay: 800, timeout: 60_000, silent: true },
  }),
  status: defineEndpoint({
    method: 'POST',
    path: '/product/reUpload/status',
    summary: "Where each product of a batch stands (the server's runner moves them on in the background).",
    access: 'products',
    action: 'view',
    input: reuploadBatchBodySchema,
    answer: reuploadItemsSchema,
    settings: { timeout: 60_000, silent: true },
  }),
  retry: defineEndpoint({
    method: 'POST',
    path: '/product/reUpload/retry',
    summary: 'Resumes failed products of a batch from the step each stopped at.',
    access: 'products',
    action: 'publish',
    input: reuploadRetryBodySchema,
    answer: reuploadItemsSchema,
    settings: { timeout: 60_000, silent: true },
  }),
  history: defineEndpoint({
    method: 'GET',
    path: '/product/reUpload/history',
    summary: "The caller's re-uploaded products, newest first, with the batches still under way.",
    access: 'products',
    input: reuploadHistoryQuerySchema,
    answer: reuploadHistorySchema,
  }),
} as const;
