import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { looseRowId, rowId } from './fields';
import { lazySchema } from './lazySchema';

/**
 * Creating products from Ozon's category tree and a category's attributes (seller-tool /create/create-product-1 and
 * /create/create-product-2, the "backup listing" filled from an existing product), and the category calls the
 * collection pages share: the tree, a type's attributes, and an attribute's dictionary values (searched and paged,
 * since a dictionary such as brands holds tens of thousands of values).
 *
 * Category data is asked of Ozon with one of the caller's shops' keys (Ozon answers it only to a seller); the same
 * tree serves every shop. Ozon's card rules are checked by contract/ozonCard.ts on both sides before sending.
 */

/** Ozon's VAT rates on a card ("0" none, "0.05" 5 % … "0.22" 22 % from 2026). */
export const VAT_RATES = ['0', '0.05', '0.07', '0.1', '0.2', '0.22'] as const;
export type VatRate = (typeof VAT_RATES)[number];
/** The currencies an Ozon card is priced in. */
export const CARD_CURRENCIES = ['CNY', 'RUB', 'USD', 'EUR'] as const;
export type CardCurrency = (typeof CARD_CURRENCIES)[number];

/** Ozon's card limits (seller API /v3/product/import). */
export const CARD_LIMITS = {
  offerId: 50,
  name: 500,
  images: 15,
  /** Items one import takes; a card's variants go in one import. */
  variants: 100,
  /** A string attribute's value. */
  value: 10_000,
  /** Dimensions in millimetres and weight in grams a parcel may have. */
  sideMm: 10_000,
  weightG: 1_000_000,
} as const;

/** How many dictionary values one page asks for, and a search at most. */
export const DICTIONARY_PAGE = 50;
export const DICTIONARY_PAGE_MAX = 2_000;
export const DICTIONARY_SEARCH_MAX = 100;

// ---- categories

export type CategoryType = { typeId: number; name: string; disabled: boolean };
/** A category of Ozon's tree: subcategories, and the leaf types that take products. */
export type CategoryNode = { categoryId: number; name: string; disabled: boolean; children: CategoryNode[]; types: CategoryType[] };

export const categoryNodeSchema: z.ZodType<CategoryNode> = z.lazy(() =>
  z.object({
    categoryId: z.number().int(),
    name: z.string(),
    disabled: z.boolean(),
    children: z.array(categoryNodeSchema),
    types: z.array(z.object({ typeId: z.number().int(), name: z.string(), disabled: z.boolean() })),
  }),
);

/** Which shop's key asks Ozon; absent: the caller's first shop. */
const shopChoice = () => looseRowId().optional();
const ozonId = () => z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

export const categoryTreeQuerySchema = lazySchema(() => z.object({ shopId: shopChoice() }));

export const categoryAttributeSchema = lazySchema(() =>
  z.object({
    id: z.number().int(),
    name: z.string(),
    description: z.string(),
    /** Ozon's type: String, multiline, Integer, Decimal, Boolean, URL, ImageURL … */
    type: z.string(),
    isRequired: z.boolean(),
    /** Takes several values (up to maxValueCount). */
    isCollection: z.boolean(),
    /** Differs between the variants of one model (colour, size): set per variant. */
    isAspect: z.boolean(),
    /** 0: free text; else the values come from this dictionary. */
    dictionaryId: z.number().int(),
    groupName: z.string(),
    maxValueCount: z.number().int(),
  }),
);
export type CategoryAttribute = z.infer<typeof categoryAttributeSchema>;

export const categoryAttributeBodySchema = lazySchema(() => z.object({ shopId: shopChoice(), categoryId: ozonId(), typeId: ozonId() }));
export type CategoryAttributeBody = z.input<typeof categoryAttributeBodySchema>;

export const attributeValuesBodySchema = lazySchema(() =>
  z.object({
    shopId: shopChoice(),
    categoryId: ozonId(),
    typeId: ozonId(),
    attributeId: ozonId(),
    /** Values containing this text; absent: the dictionary in order, from `lastValueId`. */
    search: z.string().trim().min(1).max(100).optional(),
    /** The last id of the previous page. */
    lastValueId: z.number().int().min(0).optional(),
    limit: z.number().int().min(1).max(DICTIONARY_PAGE_MAX).default(DICTIONARY_PAGE),
  }),
);
export type AttributeValuesBody = z.input<typeof attributeValuesBodySchema>;

export const dictionaryValueSchema = lazySchema(() => z.object({ id: z.number().int(), value: z.string(), info: z.string() }));
export type DictionaryValue = z.infer<typeof dictionaryValueSchema>;
export const attributeValuesPageSchema = lazySchema(() => z.object({ values: z.array(dictionaryValueSchema), hasNext: z.boolean() }));
export type AttributeValuesPage = z.infer<typeof attributeValuesPageSchema>;

// ---- a card

/** One value of an attribute: a dictionary value (its id, with its text for showing) or free text. */
export const attributeValueSchema = lazySchema(() =>
  z.object({ dictionaryValueId: z.number().int().min(1).optional(), value: z.string().max(CARD_LIMITS.value) }),
);
export type AttributeValue = z.infer<typeof attributeValueSchema>;
export const cardAttributeSchema = lazySchema(() => z.object({ id: ozonId(), values: z.array(attributeValueSchema).max(100) }));
export type CardAttribute = z.infer<typeof cardAttributeSchema>;

const moneyText = () => z.string().trim().max(20);
const measure = () => z.number().min(0).max(CARD_LIMITS.weightG).nullable();

/** One variant of the model: its own offer id, prices, barcode and the aspect attributes that tell it apart. */
export const cardVariantSchema = lazySchema(() =>
  z.object({
    offerId: z.string().trim().max(200),
    price: moneyText(),
    oldPrice: moneyText(),
    barcode: z.string().trim().max(100),
    attributes: z.array(cardAttributeSchema).max(100),
  }),
);
export type CardVariant = z.infer<typeof cardVariantSchema>;

/**
 * What the attribute form edits and /CreateProduct sends: the card shared by its variants (category, name,
 * attributes, pictures with the main one first, parcel size and weight, VAT, currency) and its variants.
 * Texts are kept as typed; the checks of contract/ozonCard.ts say what Ozon would refuse.
 */
export const cardDraftSchema = lazySchema(() =>
  z.object({
    categoryId: ozonId().nullable(),
    typeId: ozonId().nullable(),
    name: z.string().max(2_000),
    attributes: z.array(cardAttributeSchema).max(300),
    images: z.array(z.string().trim().max(1_000)).max(50),
    /** Millimetres. */
    depth: measure(),
    width: measure(),
    height: measure(),
    /** Grams. */
    weight: measure(),
    vat: z.enum(VAT_RATES),
    currency: z.enum(CARD_CURRENCIES),
    variants: z.array(cardVariantSchema).min(1).max(CARD_LIMITS.variants),
  }),
);
export type CardDraft = z.infer<typeof cardDraftSchema>;

export const createProductBodySchema = lazySchema(() => z.object({ shopId: rowId(), card: cardDraftSchema }));
export type CreateProductBody = z.input<typeof createProductBodySchema>;

export const CREATE_STATUSES = ['importing', 'moderating', 'listed', 'failed'] as const;
export type CreateStatus = (typeof CREATE_STATUSES)[number];

/** One of Ozon's reasons, in the caller's language, with the card field or attribute it concerns. */
export const createErrorSchema = lazySchema(() =>
  z.object({ code: z.string(), message: z.string(), field: z.string(), attributeId: z.number().int().nullable() }),
);
export type CreateError = z.infer<typeof createErrorSchema>;

export const createItemSchema = lazySchema(() =>
  z.object({
    offerId: z.string(),
    status: z.enum(CREATE_STATUSES),
    productId: z.number().nullable(),
    errors: z.array(createErrorSchema),
  }),
);
export type CreateItem = z.infer<typeof createItemSchema>;

/** An import of one card's variants into one shop, followed by `/create/status` until every item settles. */
export const createTaskSchema = lazySchema(() => z.object({ shopId: z.number().int(), taskId: z.number(), items: z.array(createItemSchema) }));
export type CreateTask = z.infer<typeof createTaskSchema>;

export const createStatusBodySchema = lazySchema(() =>
  z.object({ shopId: rowId(), taskId: ozonId(), offerIds: z.array(z.string().trim().min(1).max(CARD_LIMITS.offerId)).min(1).max(CARD_LIMITS.variants) }),
);
export type CreateStatusBody = z.input<typeof createStatusBodySchema>;

/** An existing product of the shop to fill the form from: its Ozon product id, SKU or offer id. */
export const templateBodySchema = lazySchema(() => z.object({ shopId: rowId(), product: z.string().trim().min(1).max(CARD_LIMITS.offerId) }));
export type TemplateBody = z.input<typeof templateBodySchema>;

export const CREATE_ENDPOINTS = {
  categoryTree: defineEndpoint({
    method: 'GET',
    path: '/description-category/tree',
    summary: "Ozon's category tree in the caller's language: categories, and the leaf types that take products",
    access: 'collection',
    input: categoryTreeQuerySchema,
    answer: lazySchema(() => z.array(categoryNodeSchema)),
    settings: { timeout: 30_000 },
  }),
  categoryAttribute: defineEndpoint({
    method: 'POST',
    path: '/description-category/attribute',
    summary: "A leaf type's attributes: required, type, dictionary, several values, per variant",
    access: 'collection',
    action: 'view',
    input: categoryAttributeBodySchema,
    answer: lazySchema(() => z.array(categoryAttributeSchema)),
    settings: { timeout: 15_000 },
  }),
  attributeValues: defineEndpoint({
    method: 'POST',
    path: '/description-category/attribute/values',
    summary: "A page of an attribute's dictionary, or the values containing a text",
    access: 'collection',
    action: 'view',
    input: attributeValuesBodySchema,
    answer: attributeValuesPageSchema,
    settings: { timeout: 15_000, cancellable: true },
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/CreateProduct',
    summary: "Create a card's variants in a shop (administrators): Ozon's rules checked, then Ozon's import started",
    access: 'create',
    action: 'publish',
    input: createProductBodySchema,
    answer: createTaskSchema,
    settings: { timeout: 200_000 },
  }),
  status: defineEndpoint({
    method: 'POST',
    path: '/create/status',
    summary: "Where a create import stands: each variant importing, moderating, listed, or failed with Ozon's reasons",
    access: 'create',
    action: 'view',
    input: createStatusBodySchema,
    answer: createTaskSchema,
    settings: { timeout: 30_000, silent: true },
  }),
  template: defineEndpoint({
    method: 'POST',
    path: '/create/template',
    summary: "An existing product of the shop as a card to start from (backup listing)",
    access: 'create',
    action: 'view',
    input: templateBodySchema,
    answer: cardDraftSchema,
    settings: { timeout: 30_000 },
  }),
} as const;
