import type {
  AttributeValuesPage,
  CardDraft,
  CategoryAttribute,
  CategoryNode,
  CreateError,
  CreateItem,
  CreateTask,
} from '../../../contract/create';
import { CARD_CURRENCIES, VAT_RATES } from '../../../contract/create';
import type { Lang } from '../../../contract/errors';
import { checkCard, filledValues, splitAttributes } from '../../../contract/ozonCard';
import type { Database } from '../../db/database';
import { ApiError } from '../../http/errors';
import type { CategoryLanguage, OzonClient, ProductImportItem } from '../../marketplace/ozon/client';
import { describeItemError, isOzonError } from '../../marketplace/ozon/errors';
import { shopScopeSql } from '../team/shopScope';
import type { OzonCategoryAttribute, OzonCategoryNode } from '../../marketplace/ozon/schemas';

export type CreateDeps = {
  database: Database;
  /** The caller's own shop's client; refuses a shop that is not the caller's. */
  shopClient: (userId: number, shopId: number) => Promise<OzonClient>;
  now: () => Date;
};

/** Ozon's tree is the same for every seller and changes rarely: kept this long per language. */
const TREE_TTL_MS = 60 * 60 * 1000;
const treeCache = new Map<string, { at: number; tree: CategoryNode[] }>();

const ozonLanguage = (lang: Lang): CategoryLanguage => (lang === 'zh' ? 'ZH_HANS' : 'EN');

/** A failure of Ozon as our API's answer: its code and the seller's text. */
function asApiError(error: unknown): never {
  if (isOzonError(error)) throw new ApiError(error.code, error.texts, null);
  throw error;
}

/** The given shop of the caller, or their first one; 400 when they have none. */
async function shopFor(deps: CreateDeps, userId: number, shopId: number | undefined): Promise<{ shopId: number; client: OzonClient }> {
  let id = shopId;
  if (id === undefined) {
    const [first] = await deps.database.query<{ id: number }>(`select id from mp_shops where user_id = $1${shopScopeSql('id')} order by id limit 1`, [userId]);
    if (!first) throw new ApiError(400, 'cardNoShop', 'shopId');
    id = first.id;
  }
  return { shopId: id, client: await deps.shopClient(userId, id) };
}

/** Ozon's tree node as ours: subcategories apart from the leaf types. */
export function nodeOf(node: OzonCategoryNode): CategoryNode | null {
  if (node.description_category_id === undefined) return null;
  const children: CategoryNode[] = [];
  const types: CategoryNode['types'] = [];
  for (const child of node.children) {
    if (child.type_id !== undefined) types.push({ typeId: child.type_id, name: child.type_name ?? String(child.type_id), disabled: child.disabled });
    else {
      const sub = nodeOf(child);
      if (sub) children.push(sub);
    }
  }
  return { categoryId: node.description_category_id, name: node.category_name ?? String(node.description_category_id), disabled: node.disabled, children, types };
}

export async function categoryTree(deps: CreateDeps, userId: number, shopId: number | undefined, lang: Lang): Promise<CategoryNode[]> {
  // Keyed by the shop asked: "the first" of a member scoped to some shops is not the owner's first.
  const { shopId: asked, client } = await shopFor(deps, userId, shopId);
  const key = `${asked}:${userId}:${lang}`;
  const cached = treeCache.get(key);
  if (cached && deps.now().getTime() - cached.at < TREE_TTL_MS) return cached.tree;
  try {
    const tree = (await client.categoryTree(ozonLanguage(lang))).flatMap((node) => nodeOf(node) ?? []);
    treeCache.set(key, { at: deps.now().getTime(), tree });
    return tree;
  } catch (error) {
    return asApiError(error);
  }
}

/** Ozon's attribute as the form's. */
export function attributeOf(a: OzonCategoryAttribute): CategoryAttribute {
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    type: a.type,
    isRequired: a.is_required,
    isCollection: a.is_collection,
    isAspect: a.is_aspect,
    dictionaryId: a.dictionary_id,
    groupName: a.group_name ?? '',
    maxValueCount: a.max_value_count ?? (a.is_collection ? 0 : 1),
  };
}

export async function attributesOf(client: OzonClient, categoryId: number, typeId: number, lang: Lang): Promise<CategoryAttribute[]> {
  try {
    const result = await client.categoryAttributes({ description_category_id: categoryId, type_id: typeId, language: ozonLanguage(lang) });
    return result.map(attributeOf);
  } catch (error) {
    return asApiError(error);
  }
}

export async function categoryAttributes(deps: CreateDeps, userId: number, input: { shopId?: number; categoryId: number; typeId: number }, lang: Lang) {
  const { client } = await shopFor(deps, userId, input.shopId);
  return attributesOf(client, input.categoryId, input.typeId, lang);
}

export async function attributeValues(
  deps: CreateDeps,
  userId: number,
  input: { shopId?: number; categoryId: number; typeId: number; attributeId: number; search?: string; lastValueId?: number; limit: number },
  lang: Lang,
): Promise<AttributeValuesPage> {
  const { client } = await shopFor(deps, userId, input.shopId);
  const ids = { description_category_id: input.categoryId, type_id: input.typeId, attribute_id: input.attributeId };
  try {
    if (input.search) {
      const found = await client.categoryAttributeValuesSearch({ ...ids, value: input.search, limit: Math.min(input.limit, 100) });
      return { values: found.map((v) => ({ id: v.id, value: v.value, info: v.info ?? '' })), hasNext: false };
    }
    const page = await client.categoryAttributeValues({ ...ids, last_value_id: input.lastValueId, limit: input.limit, language: ozonLanguage(lang) });
    return { values: page.result.map((v) => ({ id: v.id, value: v.value, info: v.info ?? '' })), hasNext: page.has_next };
  } catch (error) {
    return asApiError(error);
  }
}

// ---- create

type OzonAttribute = ProductImportItem['attributes'][number];

function ozonAttributes(card: CardDraft['attributes'], known: ReadonlySet<number>): OzonAttribute[] {
  return card.flatMap((a) => {
    const values = filledValues(a);
    if (!known.has(a.id) || values.length === 0) return [];
    return [{ id: a.id, complex_id: 0, values: values.map((v) => (v.dictionaryValueId !== undefined ? { dictionary_value_id: v.dictionaryValueId, value: v.value } : { value: v.value.trim() })) }];
  });
}

/** One import item per variant: the shared card with the variant's offer id, prices, barcode and aspect attributes. */
export function importItems(card: CardDraft, attributes: readonly CategoryAttribute[]): ProductImportItem[] {
  const { shared, perVariant } = splitAttributes(attributes);
  const sharedIds = new Set(shared.map((a) => a.id));
  const variantIds = new Set(perVariant.map((a) => a.id));
  const images = card.images.map((url) => url.trim()).filter(Boolean);
  return card.variants.map((variant) => ({
    offer_id: variant.offerId.trim(),
    name: card.name.trim(),
    description_category_id: card.categoryId!,
    type_id: card.typeId!,
    attributes: [...ozonAttributes(card.attributes, sharedIds), ...ozonAttributes(variant.attributes, variantIds)],
    price: variant.price.trim(),
    old_price: variant.oldPrice.trim() === '' ? '0' : variant.oldPrice.trim(),
    currency_code: card.currency,
    vat: card.vat,
    images,
    primary_image: images[0],
    ...(variant.barcode.trim() ? { barcode: variant.barcode.trim() } : {}),
    depth: card.depth!,
    width: card.width!,
    height: card.height!,
    dimension_unit: 'mm',
    weight: card.weight!,
    weight_unit: 'g',
  }));
}

/**
 * Checks the card against Ozon's rules and the type's attributes as Ozon answers them now, then starts Ozon's
 * import of its variants. A broken rule is a 400 naming the first field; nothing is sent then.
 */
export async function createProduct(deps: CreateDeps, userId: number, shopId: number, card: CardDraft, lang: Lang): Promise<CreateTask> {
  const { client } = await shopFor(deps, userId, shopId);
  if (card.categoryId === null || card.typeId === null) throw new ApiError(400, 'cardCategoryRequired', 'card.category');
  const attributes = await attributesOf(client, card.categoryId, card.typeId, lang);
  const known = new Set(attributes.map((a) => a.id));
  const unknown = [...card.attributes, ...card.variants.flatMap((v) => v.attributes)].find((a) => !known.has(a.id) && filledValues(a).length > 0);
  if (unknown) throw new ApiError(400, { key: 'cardAttributeUnknown', params: { id: String(unknown.id) } }, `card.attr.${unknown.id}`);
  const [problem] = checkCard(card, attributes);
  if (problem) throw new ApiError(400, { key: problem.key, params: problem.params ?? {} }, `card.${problem.field}`);
  const items = importItems(card, attributes);
  try {
    const taskId = Number(await client.productImport(items));
    return { shopId, taskId, items: items.map((i) => ({ offerId: i.offer_id, status: 'importing', productId: null, errors: [] })) };
  } catch (error) {
    return asApiError(error);
  }
}

/** Which form field an Ozon import error concerns. */
function fieldOf(error: { field?: string; attribute_id?: number }): string {
  if (error.attribute_id) return `attr.${error.attribute_id}`;
  const field = error.field ?? '';
  if (field === 'description_category_id' || field === 'type_id') return 'category';
  if (field === 'offer_id') return 'offerId';
  if (field === 'old_price') return 'oldPrice';
  return ['name', 'price', 'images', 'depth', 'width', 'height', 'weight', 'vat', 'barcode'].includes(field) ? field : '';
}

function createErrorOf(error: { code: string; message: string; field?: string; attribute_id?: number; attribute_name?: string }, lang: Lang): CreateError {
  const { texts } = describeItemError(error);
  const name = error.attribute_name;
  return {
    code: error.code,
    message: name ? (lang === 'zh' ? `「${name}」${texts.zh}` : `"${name}": ${texts.en}`) : texts[lang],
    field: fieldOf(error),
    attributeId: error.attribute_id ?? null,
  };
}

/**
 * Where the task's variants stand: Ozon's import task first (pending → importing; failed with its per-item errors),
 * then each imported card's moderation (moderating until it has an SKU; declined → failed with Ozon's reasons).
 */
export async function createStatus(deps: CreateDeps, userId: number, input: { shopId: number; taskId: number; offerIds: string[] }, lang: Lang): Promise<CreateTask> {
  const client = await deps.shopClient(userId, input.shopId);
  try {
    const info = await client.productImportInfo(input.taskId);
    const items = new Map<string, CreateItem>();
    const imported: string[] = [];
    for (const offerId of input.offerIds) {
      const item = info.items.find((i) => i.offer_id === offerId);
      if (!item || item.status === 'pending') items.set(offerId, { offerId, status: 'importing', productId: null, errors: [] });
      else if (item.status === 'failed') items.set(offerId, { offerId, status: 'failed', productId: item.product_id || null, errors: item.errors.map((e) => createErrorOf(e, lang)) });
      else imported.push(offerId);
    }
    if (imported.length) {
      const infos = await client.productInfoList({ offer_id: imported });
      for (const offerId of imported) {
        const product = infos.find((p) => p.offer_id === offerId);
        if (!product) {
          items.set(offerId, { offerId, status: 'moderating', productId: null, errors: [] });
          continue;
        }
        const declined = product.statuses?.moderate_status === 'declined' || (product.statuses?.status_failed ?? '') !== '';
        if (declined) {
          const reasons = product.errors.flatMap((e) => {
            const error = e as { code?: string; attribute_id?: number; field?: string; texts?: { attribute_name?: string; description?: string } };
            if (!error.code) return [];
            return [createErrorOf({ code: error.code, message: error.texts?.description ?? error.code, field: error.field, attribute_id: error.attribute_id, attribute_name: error.texts?.attribute_name }, lang)];
          });
          const fallback: CreateError = { code: 'failed_moderation', message: describeItemError({ code: 'failed_moderation', message: '' }).texts[lang], field: '', attributeId: null };
          items.set(offerId, { offerId, status: 'failed', productId: product.id, errors: reasons.length ? reasons : [fallback] });
        } else if (product.sku > 0 && product.statuses?.moderate_status !== 'moderating') {
          items.set(offerId, { offerId, status: 'listed', productId: product.id, errors: [] });
        } else {
          items.set(offerId, { offerId, status: 'moderating', productId: product.id, errors: [] });
        }
      }
    }
    return { shopId: input.shopId, taskId: input.taskId, items: input.offerIds.map((id) => items.get(id)!) };
  } catch (error) {
    return asApiError(error);
  }
}

// ---- template

const vatOf = (value: string | undefined): CardDraft['vat'] => {
  const number = Number(value ?? 0);
  return VAT_RATES.find((rate) => Number(rate) === number) ?? '0';
};
const currencyOf = (value: string): CardDraft['currency'] => CARD_CURRENCIES.find((c) => c === value) ?? 'CNY';
const toMm = (value: number | undefined, unit: string | undefined) => (value === undefined ? null : unit === 'cm' ? value * 10 : unit === 'in' ? Math.round(value * 25.4) : value);
const toG = (value: number | undefined, unit: string | undefined) => (value === undefined ? null : unit === 'kg' ? value * 1000 : unit === 'lb' ? Math.round(value * 453.592) : value);
/** Ozon's money texts come as '199.0000': the form keeps two places at most. */
const moneyOf = (value: string) => (value === '' || Number(value) === 0 ? '' : String(Number(Number(value).toFixed(2))));

/**
 * An existing product of the shop as the form's card (the backup listing): its category, name, attributes,
 * pictures, size, weight, VAT and prices. The offer id is left for the seller (a new card needs a new one).
 */
export async function templateCard(deps: CreateDeps, userId: number, shopId: number, product: string, lang: Lang): Promise<CardDraft> {
  const client = await deps.shopClient(userId, shopId);
  try {
    const digits = /^\d{1,18}$/.test(product);
    const filters = digits ? [{ product_id: [product] }, { sku: [product] }, { offer_id: [product] }] : [{ offer_id: [product] }];
    for (const filter of filters) {
      const page = await client.productInfoAttributes({ filter, limit: 1 });
      const found = page.result[0];
      if (!found) continue;
      const [info] = await client.productInfoList({ product_id: [found.id] });
      const attributes = await attributesOf(client, found.description_category_id, found.type_id, lang);
      const perVariant = new Set(splitAttributes(attributes).perVariant.map((a) => a.id));
      const known = new Set(attributes.map((a) => a.id));
      const asCard = (a: (typeof found.attributes)[number]) => ({ id: a.id, values: a.values.map((v) => ({ ...(v.dictionary_value_id ? { dictionaryValueId: v.dictionary_value_id } : {}), value: v.value })) });
      const images = [...new Set([...(found.primary_image ? [found.primary_image] : []), ...found.images])];
      return {
        categoryId: found.description_category_id,
        typeId: found.type_id,
        name: found.name,
        attributes: found.attributes.filter((a) => known.has(a.id) && !perVariant.has(a.id)).map(asCard),
        images,
        depth: toMm(found.depth, found.dimension_unit),
        width: toMm(found.width, found.dimension_unit),
        height: toMm(found.height, found.dimension_unit),
        weight: toG(found.weight, found.weight_unit),
        vat: vatOf(info?.vat),
        currency: currencyOf(info?.currency_code ?? 'CNY'),
        variants: [
          {
            offerId: '',
            price: info ? moneyOf(info.price) : '',
            oldPrice: info ? moneyOf(info.old_price) : '',
            barcode: '',
            attributes: found.attributes.filter((a) => perVariant.has(a.id)).map(asCard),
          },
        ],
      };
    }
  } catch (error) {
    return asApiError(error);
  }
  throw new ApiError(404, 'createTemplateNotFound', 'product');
}

