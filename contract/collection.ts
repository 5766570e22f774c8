import { z } from 'zod';
import { COLLECT_SITES } from './collectSources';
import { COPY_MAX_SHOPS, COPY_STATUSES, copyErrorSchema, historyQuerySchema, priceRuleSchema } from './copy';
import { defineEndpoint } from './endpoint';
import { looseRowId, queryInt, rowId } from './fields';
import { lazySchema } from './lazySchema';

/**
 * The collection (seller-tool /collection/collection-list and /collection/upload-history): products collected from
 * an Ozon or 1688 page (by the browser plugin or by pasting a link), edited, mapped to an Ozon category with its
 * attributes, priced by a template (the copy area's) and uploaded to one or more shops; every upload is a record
 * whose status follows Ozon's import to the end, like a copy's.
 */

/** Items one upload takes, and pictures Ozon takes per card. */
export const COLLECTION_UPLOAD_MAX_ITEMS = 100;
export const OZON_MAX_IMAGES = 15;

const money = () => z.string().trim().regex(/^\d{1,9}(\.\d{1,2})?$/, 'invalid');
const imageUrl = () => z.url({ protocol: /^https?$/ }).max(1000);

export const collectedVariantSchema = lazySchema(() =>
  z.object({
    /** The source's id of the variant (1688's skuId, Ozon's SKU). */
    key: z.string().trim().min(1).max(60),
    name: z.string().trim().min(1).max(200),
    props: z.record(z.string().max(100), z.string().max(200)),
    price: money(),
    image: imageUrl().nullable(),
    stock: z.number().int().min(0).nullable(),
  }),
);

/** A product as a source page shows it (what the plugin sends, and what the link collector reads). */
export const collectedProductSchema = lazySchema(() =>
  z.object({
    site: z.enum(COLLECT_SITES),
    sourceId: z.string().trim().regex(/^\d{1,19}$/, 'invalid'),
    url: z.url({ protocol: /^https?$/ }).max(2000),
    title: z.string().trim().min(1).max(500),
    description: z.string().max(20_000).default(''),
    images: z.array(imageUrl()).max(30),
    price: money(),
    currency: z.string().regex(/^[A-Z]{3}$/, 'invalid'),
    variants: z.array(collectedVariantSchema).max(200).default([]),
    attributes: z.array(z.object({ name: z.string().trim().min(1).max(100), value: z.string().max(1000) })).max(200).default([]),
  }),
);
export type CollectedProduct = z.input<typeof collectedProductSchema>;

/** A value of an Ozon attribute, as Ozon's import takes it. */
export const ozonAttributeSchema = lazySchema(() =>
  z.object({
    id: z.number().int().min(1),
    complexId: z.number().int().min(0).default(0),
    values: z.array(z.object({ dictionaryValueId: z.number().int().min(1).optional(), value: z.string().max(5000) })).max(50),
  }),
);
export type OzonAttributeValue = z.infer<typeof ozonAttributeSchema>;

export const dimensionsSchema = lazySchema(() =>
  z.object({
    /** Millimetres and grams, as the seller packs it. */
    depth: z.number().int().min(1).max(10_000),
    width: z.number().int().min(1).max(10_000),
    height: z.number().int().min(1).max(10_000),
    weight: z.number().int().min(1).max(1_000_000),
  }),
);

/** A variant as the collection keeps it: whether it goes to Ozon, and its own values of the type's per-variant attributes (colour, size). */
export const collectionVariantSchema = lazySchema(() => collectedVariantSchema.extend({ selected: z.boolean(), ozonAttributes: z.array(ozonAttributeSchema) }));
export type CollectionVariant = z.infer<typeof collectionVariantSchema>;

export const collectionItemSchema = lazySchema(() =>
  z.object({
    id: z.number().int(),
    site: z.enum(COLLECT_SITES),
    sourceId: z.string(),
    url: z.string(),
    title: z.string(),
    description: z.string(),
    images: z.array(z.string()),
    /** The source's price (1688: CNY) and currency. */
    price: z.string(),
    currency: z.string(),
    variants: z.array(collectionVariantSchema),
    /** What the source page listed (name and value), in its language. */
    attributes: z.array(z.object({ name: z.string(), value: z.string() })),
    /** The Ozon category (description category and type) it is mapped to; null until the seller picks one. */
    categoryId: z.number().int().nullable(),
    typeId: z.number().int().nullable(),
    ozonAttributes: z.array(ozonAttributeSchema),
    dimensions: dimensionsSchema.nullable(),
    /** How it was collected: by the browser plugin or by a pasted link. */
    via: z.enum(['plugin', 'link']),
    /** Uploads made of it so far, and the newest one's status. */
    uploads: z.number().int(),
    lastStatus: z.enum(COPY_STATUSES).nullable(),
    createdAt: z.number(),
    updatedAt: z.number(),
  }),
);
export type CollectionItem = z.infer<typeof collectionItemSchema>;

export const collectionQuerySchema = lazySchema(() =>
  z.object({
    page: queryInt(1, 1_000_000).default(1),
    rows: queryInt(1, 200).default(20),
    site: z.enum(COLLECT_SITES).optional(),
    /** 'mapped': has an Ozon category; 'unmapped': not yet; 'uploaded': uploaded at least once. */
    state: z.enum(['mapped', 'unmapped', 'uploaded']).optional(),
    /** Part of the title or the source's id. */
    search: z.string().trim().max(100).optional(),
    id: looseRowId().optional(),
  }),
);
export type CollectionQuery = z.input<typeof collectionQuerySchema>;
export const collectionPageSchema = lazySchema(() => z.object({ list: z.array(collectionItemSchema), total: z.number().int() }));
export type CollectionPage = z.infer<typeof collectionPageSchema>;

export const collectionUpdateSchema = lazySchema(() =>
  z.object({
    id: rowId(),
    title: z.string().trim().min(1).max(500).optional(),
    description: z.string().max(20_000).optional(),
    images: z.array(imageUrl()).min(1).max(OZON_MAX_IMAGES).optional(),
    /** Which variants go to Ozon, their names and prices as the seller changed them, and their per-variant attributes. */
    variants: z
      .array(
        z.object({
          key: z.string().min(1).max(60),
          selected: z.boolean(),
          name: z.string().trim().min(1).max(200).optional(),
          price: money().optional(),
          ozonAttributes: z.array(ozonAttributeSchema).max(100).optional(),
        }),
      )
      .max(200)
      .optional(),
    categoryId: z.number().int().min(1).nullable().optional(),
    typeId: z.number().int().min(1).nullable().optional(),
    ozonAttributes: z.array(ozonAttributeSchema).max(300).optional(),
    dimensions: dimensionsSchema.nullable().optional(),
  }),
);
export type CollectionUpdate = z.input<typeof collectionUpdateSchema>;

/** Collect by the plugin (the product as read on the page) or by a link (the server reads the page). */
export const collectBodySchema = lazySchema(() =>
  z.union([z.object({ product: collectedProductSchema }), z.object({ url: z.string().trim().min(1).max(2000) })]),
);
export type CollectBody = z.input<typeof collectBodySchema>;
export const collectAnswerSchema = lazySchema(() =>
  z.object({
    item: collectionItemSchema,
    /** false: the product was in the list already and was refreshed from the page. */
    created: z.boolean(),
    /** Where it went: the collection list's path with this item (the plugin shows it as a link). */
    path: z.string(),
  }),
);
export type CollectAnswer = z.infer<typeof collectAnswerSchema>;

export const collectionIdsSchema = lazySchema(() => z.object({ ids: z.array(rowId()).min(1).max(1000) }));
export const collectionCountSchema = lazySchema(() => z.object({ count: z.number().int() }));

export const collectionUploadBodySchema = lazySchema(() =>
  z.object({
    ids: z.array(rowId()).min(1).max(COLLECTION_UPLOAD_MAX_ITEMS),
    shopIds: z.array(rowId()).min(1).max(COPY_MAX_SHOPS),
    rule: priceRuleSchema,
  }),
);
export type CollectionUploadBody = z.input<typeof collectionUploadBodySchema>;

/** One variant of one collected item uploaded into one shop. */
export const uploadRecordSchema = lazySchema(() =>
  z.object({
    id: z.number().int(),
    itemId: z.number().int().nullable(),
    shopId: z.number().int(),
    shopName: z.string(),
    site: z.enum(COLLECT_SITES),
    offerId: z.string(),
    name: z.string(),
    variant: z.string(),
    image: z.string().nullable(),
    price: z.string(),
    currency: z.string(),
    status: z.enum(COPY_STATUSES),
    productId: z.number().nullable(),
    errors: z.array(copyErrorSchema),
    createdAt: z.number(),
    updatedAt: z.number(),
  }),
);
export type UploadRecord = z.infer<typeof uploadRecordSchema>;

/** The upload history takes the copy history's query: page, rows, status, shop and a search of name or offer id. */
export const uploadQuerySchema = historyQuerySchema;
export type UploadQuery = z.input<typeof uploadQuerySchema>;
export const uploadPageSchema = lazySchema(() => z.object({ list: z.array(uploadRecordSchema), total: z.number().int(), unsettled: z.number().int() }));
export type UploadPage = z.infer<typeof uploadPageSchema>;

export const formatUrlBodySchema = lazySchema(() =>
  z.object({ urls: z.array(z.string().max(2000)).min(1).max(100), base: z.url({ protocol: /^https?$/ }).optional() }),
);
/** Each link normalised (absolute https, no resize suffix), or null when it is not a picture link. */
export const formatUrlAnswerSchema = lazySchema(() => z.object({ urls: z.array(z.string().nullable()) }));

export const COLLECTION_ENDPOINTS = {
  list: defineEndpoint({
    method: 'GET',
    path: '/collection/list',
    summary: "The caller's collected products, newest first",
    access: 'collection',
    input: collectionQuerySchema,
    answer: collectionPageSchema,
  }),
  update: defineEndpoint({
    method: 'POST',
    path: '/collection/update',
    summary: 'Change a collected product: title, description, pictures, variants, Ozon category and attributes, dimensions',
    access: 'collection',
    action: 'edit',
    input: collectionUpdateSchema,
    answer: collectionItemSchema,
  }),
  delete: defineEndpoint({
    method: 'POST',
    path: '/collection/delete',
    summary: 'Delete collected products (their upload records stay)',
    access: 'collection',
    action: 'delete',
    input: collectionIdsSchema,
    answer: collectionCountSchema,
  }),
  upload: defineEndpoint({
    method: 'POST',
    path: '/collection/upload',
    summary: 'Upload collected products to shops at a template’s price: one record per selected variant and shop',
    access: 'collection',
    action: 'publish',
    input: collectionUploadBodySchema,
    answer: lazySchema(() => z.object({ list: z.array(uploadRecordSchema) })),
    settings: { timeout: 200_000 },
  }),
  collect: defineEndpoint({
    method: 'POST',
    path: '/CollectProduct',
    summary: 'Add a product to the collection: as the plugin read it, or by reading its page from a link',
    access: 'collection',
    action: 'edit',
    pluginToken: true,
    input: collectBodySchema,
    answer: collectAnswerSchema,
    settings: { timeout: 60_000 },
  }),
  uploadList: defineEndpoint({
    method: 'GET',
    path: '/upload/list',
    summary: "The caller's uploads, newest first, each with where Ozon's import stands",
    access: 'collection',
    input: uploadQuerySchema,
    answer: uploadPageSchema,
  }),
  uploadDelete: defineEndpoint({
    method: 'POST',
    path: '/upload/delete',
    summary: 'Delete upload records (the products on Ozon stay)',
    access: 'collection',
    action: 'delete',
    input: collectionIdsSchema,
    answer: collectionCountSchema,
  }),
  formatUrl: defineEndpoint({
    method: 'POST',
    path: '/upload/formatUrl',
    summary: "Normalise picture links from the sources: absolute https, without the sites' resize suffixes",
    access: 'collection',
    action: 'view',
    input: formatUrlBodySchema,
    answer: formatUrlAnswerSchema,
  }),
} as const;
