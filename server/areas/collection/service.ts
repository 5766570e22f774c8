import type {
  CollectedProduct,
  CollectionItem,
  CollectionUpdate,
  CollectionVariant,
  OzonAttributeValue,
  UploadRecord,
} from '../../../contract/collection';
import { OZON_MAX_IMAGES } from '../../../contract/collection';
import { normalizeImageUrl } from '../../../contract/collectSources';
import type { PriceRule } from '../../../contract/copy';
import type { CardAttribute, CategoryAttribute } from '../../../contract/create';
import { localized, textIn, type Lang } from '../../../contract/errors';
import { checkAttributes } from '../../../contract/ozonCard';
import type { Database } from '../../db/database';
import { ApiError } from '../../http/errors';
import type { OzonClient, ProductImportItem } from '../../marketplace/ozon/client';
import type { SourceReader } from '../../integrations/sources/reader';
import { SourceError } from '../../integrations/sources/reader';
import { shopScopeSql } from '../team/shopScope';
import { containsPattern, failureOf, followImports, importPage, type StoredError } from '../copy/follow';
import { oldPriceFor, targetPrice } from '../copy/pricing';
import { ratesInto, type CopyDeps } from '../copy/service';
import { attributesOf } from '../create/service';

export type CollectionDeps = {
  database: Database;
  rates: CopyDeps['rates'];
  reader: SourceReader;
  /** The caller's own shop with its client; refuses a shop that is not the caller's. */
  shopClient: CopyDeps['shopClient'];
};

/** Ozon takes 100 cards per import call. */
const IMPORT_BATCH = 100;
/** Ozon's common attribute ids: model name (cards with the same one are merged as variants), annotation, weight. */
const MODEL_NAME = 9048;
const ANNOTATION = 4191;
const WEIGHT = 4383;

type ItemRow = {
  id: number;
  site: CollectionItem['site'];
  source_id: string;
  url: string;
  title: string;
  description: string;
  images: string[];
  price: string;
  currency: string;
  variants: CollectionVariant[];
  attributes: { name: string; value: string }[];
  category_id: number | string | null;
  type_id: number | string | null;
  ozon_attributes: OzonAttributeValue[];
  dimensions: CollectionItem['dimensions'];
  via: CollectionItem['via'];
  uploads?: number;
  last_status?: CollectionItem['lastStatus'];
  created_at: Date | string;
  updated_at: Date | string;
};

const twoPlaces = (value: string) => Number(value).toFixed(2);
const nullableNumber = (value: number | string | null) => (value === null ? null : Number(value));

function itemOf(row: ItemRow): CollectionItem {
  return {
    id: row.id,
    site: row.site,
    sourceId: row.source_id,
    url: row.url,
    title: row.title,
    description: row.description,
    images: row.images,
    price: twoPlaces(row.price),
    currency: row.currency,
    variants: row.variants.map((v) => ({ ...v, ozonAttributes: v.ozonAttributes ?? [] })),
    attributes: row.attributes,
    categoryId: nullableNumber(row.category_id),
    typeId: nullableNumber(row.type_id),
    ozonAttributes: row.ozon_attributes,
    dimensions: row.dimensions,
    via: row.via,
    uploads: row.uploads ?? 0,
    lastStatus: row.last_status ?? null,
    createdAt: new Date(row.created_at).getTime(),
    updatedAt: new Date(row.updated_at).getTime(),
  };
}

const SELECT_ITEMS = `select i.*, coalesce(u.uploads, 0)::int as uploads, u.last_status
  from collection_items i
  left join lateral (select count(*) as uploads, (array_agg(status order by id desc))[1] as last_status
    from collection_uploads where item_id = i.id) u on true`;

async function itemsByIds(deps: CollectionDeps, userId: number, ids: readonly number[]): Promise<ItemRow[]> {
  return deps.database.query<ItemRow>(`${SELECT_ITEMS} where i.user_id = $1 and i.id = any($2::int[]) order by i.id desc`, [userId, ids]);
}

async function ownItem(deps: CollectionDeps, userId: number, id: number): Promise<ItemRow> {
  const [row] = await itemsByIds(deps, userId, [id]);
  if (!row) throw new ApiError(404, 'collectionItemNotFound', 'id');
  return row;
}

// ---- collect

/** A number of grams in a source attribute ("48g", "0.3kg", "48"), when the attribute is a weight. */
function gramsOf(attributes: readonly { name: string; value: string }[]): number | null {
  const found = attributes.find((a) => /重量|毛重|вес|weight/i.test(a.name));
  const match = found && /(\d+(?:[.,]\d+)?)\s*(kg|千克|公斤|кг|g|克|г)?/i.exec(found.value);
  if (!match) return null;
  const amount = Number(match[1]!.replace(',', '.'));
  const grams = /kg|千克|公斤|кг/i.test(match[2] ?? '') ? amount * 1000 : amount;
  return grams > 0 ? Math.round(grams) : null;
}

/** What the source gives for Ozon's common attributes: the model name, the annotation and the weight. */
function prefilledAttributes(product: Required<Pick<CollectedProduct, 'title' | 'description' | 'attributes'>>): OzonAttributeValue[] {
  const model = product.attributes.find((a) => /^(型号|货号|название модели|модель|model)$/i.test(a.name.trim()))?.value;
  const grams = gramsOf(product.attributes);
  const values: OzonAttributeValue[] = [{ id: MODEL_NAME, complexId: 0, values: [{ value: (model ?? product.title).slice(0, 200) }] }];
  if (product.description.trim()) values.push({ id: ANNOTATION, complexId: 0, values: [{ value: product.description.slice(0, 5000) }] });
  if (grams) values.push({ id: WEIGHT, complexId: 0, values: [{ value: String(grams) }] });
  return values;
}

type ParsedProduct = Omit<Required<CollectedProduct>, 'variants'> & { variants: Omit<CollectionVariant, 'selected' | 'ozonAttributes'>[] };

/**
 * Adds a product to the caller's collection, as the plugin read it or read from its link here. A product already
 * collected is refreshed from the page (link, price, variants' prices and stock, the page's attributes); the seller's
 * own edits (title, description, pictures, variant choice, Ozon mapping) stay.
 */
export async function collect(
  deps: CollectionDeps,
  userId: number,
  body: { product: ParsedProduct } | { url: string },
  publicOrigin: string,
): Promise<{ item: CollectionItem; created: boolean; path: string }> {
  let product: ParsedProduct;
  let via: CollectionItem['via'];
  if ('product' in body) {
    product = body.product;
    via = 'plugin';
  } else {
    try {
      product = await deps.reader.read(body.url, publicOrigin);
    } catch (error) {
      if (error instanceof SourceError) throw new ApiError(error.reason === 'collectSiteUnreachable' ? 502 : 400, error.reason, 'url');
      throw error;
    }
    via = 'link';
  }
  const images = [...new Set(product.images.flatMap((i) => normalizeImageUrl(i) ?? []))];
  const variants: CollectionVariant[] = product.variants.map((v) => ({ ...v, selected: v.stock !== 0, ozonAttributes: [] }));
  const [row] = await deps.database.query<{ id: number; created: boolean }>(
    `insert into collection_items (user_id, site, source_id, url, title, description, images, price, currency, variants, attributes, ozon_attributes, via)
     values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10::jsonb, $11::jsonb, $12::jsonb, $13)
     on conflict (user_id, site, source_id) do update set
       url = excluded.url, price = excluded.price, currency = excluded.currency, attributes = excluded.attributes,
       variants = (select coalesce(jsonb_agg(v || jsonb_build_object(
           'selected', coalesce((select (o->>'selected')::boolean from jsonb_array_elements(collection_items.variants) o where o->>'key' = v->>'key'), (v->>'selected')::boolean),
           'ozonAttributes', coalesce((select o->'ozonAttributes' from jsonb_array_elements(collection_items.variants) o where o->>'key' = v->>'key'), '[]'::jsonb))), '[]'::jsonb)
         from jsonb_array_elements(excluded.variants) v),
       updated_at = now()
     returning id, (xmax = 0) as created`,
    [
      userId,
      product.site,
      product.sourceId,
      product.url,
      product.title,
      product.description,
      JSON.stringify(images),
      product.price,
      product.currency,
      JSON.stringify(variants),
      JSON.stringify(product.attributes),
      JSON.stringify(prefilledAttributes(product)),
      via,
    ],
  );
  const item = itemOf(await ownItem(deps, userId, row!.id));
  return { item, created: row!.created, path: `/collection/collection-list?id=${item.id}` };
}

// ---- list, change, delete

type ParsedCollectionQuery = { page: number; rows: number; site?: CollectionItem['site']; state?: 'mapped' | 'unmapped' | 'uploaded'; search?: string; id?: number };

export async function list(deps: CollectionDeps, userId: number, query: ParsedCollectionQuery): Promise<{ list: CollectionItem[]; total: number }> {
  const search = containsPattern(query.search);
  const where = `i.user_id = $1 and ($2::text is null or i.site = $2) and ($3::text is null or i.title ilike $3 or i.source_id like $3)
    and ($4::int is null or i.id = $4)
    and ($5::text is null or ($5 = 'mapped' and i.type_id is not null) or ($5 = 'unmapped' and i.type_id is null)
      or ($5 = 'uploaded' and exists (select 1 from collection_uploads cu where cu.item_id = i.id)))`;
  const params = [userId, query.site ?? null, search, query.id ?? null, query.state ?? null];
  const [count] = await deps.database.query<{ total: number }>(`select count(*)::int as total from collection_items i where ${where}`, params);
  const rows = await deps.database.query<ItemRow>(`${SELECT_ITEMS} where ${where} order by i.id desc limit $6 offset $7`, [
    ...params,
    query.rows,
    (query.page - 1) * query.rows,
  ]);
  return { list: rows.map(itemOf), total: count?.total ?? 0 };
}

type ParsedUpdate = Omit<CollectionUpdate, 'ozonAttributes' | 'variants'> & {
  ozonAttributes?: OzonAttributeValue[];
  variants?: { key: string; selected: boolean; name?: string; price?: string; ozonAttributes?: OzonAttributeValue[] }[];
};

const cardAttributes = (values: readonly OzonAttributeValue[]): CardAttribute[] => values.map((a) => ({ id: a.id, values: a.values }));

/** The type's attributes as Ozon answers them now, asked with the given shop's key (absent: the caller's first shop). */
async function typeAttributes(deps: CollectionDeps, userId: number, categoryId: number, typeId: number, lang: Lang, shopId?: number): Promise<CategoryAttribute[]> {
  let id = shopId;
  if (id === undefined) {
    const [first] = await deps.database.query<{ id: number }>(`select id from mp_shops where user_id = $1 order by id limit 1`, [userId]);
    if (!first) throw new ApiError(400, 'cardNoShop', 'categoryId');
    id = first.id;
  }
  return attributesOf((await deps.shopClient(userId, id)).client, categoryId, typeId, lang);
}

/**
 * What Ozon would refuse in an item's attribute values (the item's shared ones and each selected variant's own; an
 * item without variants is one card), as a message naming the item, the variant and the attribute; null: nothing.
 */
function attributeProblem(item: CollectionItem, attributes: readonly CategoryAttribute[], required: boolean): { text: ApiError['text']; field: string } | null {
  const chosen = item.variants.filter((v) => v.selected);
  const own = item.variants.length ? chosen.map((v) => cardAttributes(v.ozonAttributes)) : [[]];
  const shared = cardAttributes(withModelName(item).ozonAttributes);
  // Without variants, the per-variant attributes are the item's own.
  const [problem] = item.variants.length ? checkAttributes(shared, own, attributes, { required }) : checkAttributes(shared, [shared], attributes, { required });
  if (!problem) return null;
  const title = item.title.slice(0, 40);
  const inner = localized(problem.key, problem.params ?? {});
  const variant = /^variants\.(\d+)\./.exec(problem.field);
  if (variant && item.variants.length) {
    return { text: { key: 'collectionVariantProblem', params: { title, variant: chosen[Number(variant[1])]!.name, problem: inner } }, field: 'variants' };
  }
  return { text: { key: 'collectionItemProblem', params: { title, problem: inner } }, field: 'ozonAttributes' };
}

export async function update(deps: CollectionDeps, userId: number, body: ParsedUpdate, lang: Lang = 'zh'): Promise<CollectionItem> {
  const row = await ownItem(deps, userId, body.id);
  let variants = row.variants;
  if (body.variants) {
    const changes = new Map(body.variants.map((v) => [v.key, v]));
    if (body.variants.some((v) => !row.variants.some((r) => r.key === v.key))) throw new ApiError(400, 'collectionVariantUnknown', 'variants');
    variants = row.variants.map((v) => {
      const change = changes.get(v.key);
      if (!change) return v;
      return {
        ...v,
        selected: change.selected,
        name: change.name ?? v.name,
        price: change.price ? twoPlaces(change.price) : v.price,
        ozonAttributes: change.ozonAttributes ?? v.ozonAttributes ?? [],
      };
    });
  }
  // A category is a pair: description category and type, set or cleared together.
  if ((body.categoryId === undefined) !== (body.typeId === undefined) || (body.categoryId === null) !== (body.typeId === null)) {
    throw new ApiError(400, 'invalidInput', body.categoryId === undefined || body.categoryId === null ? 'categoryId' : 'typeId');
  }
  // Attribute values are checked against the type as Ozon has it now (a draft may still lack required ones).
  const attributesChange = body.ozonAttributes !== undefined || body.variants?.some((v) => v.ozonAttributes !== undefined);
  const categoryId = body.categoryId === undefined ? nullableNumber(row.category_id) : body.categoryId;
  const typeId = body.typeId === undefined ? nullableNumber(row.type_id) : body.typeId;
  if (attributesChange && categoryId !== null && typeId !== null) {
    const next = itemOf({ ...row, variants, ozon_attributes: body.ozonAttributes ?? row.ozon_attributes });
    const problem = attributeProblem(next, await typeAttributes(deps, userId, categoryId, typeId, lang), false);
    if (problem) throw new ApiError(400, problem.text, problem.field);
  }
  const images = body.images ? [...new Set(body.images.map((i) => normalizeImageUrl(i) ?? i))] : undefined;
  await deps.database.query(
    `update collection_items set title = coalesce($3, title), description = coalesce($4, description), images = coalesce($5::jsonb, images),
       variants = $6::jsonb, category_id = case when $7 then $8::bigint else category_id end, type_id = case when $7 then $9::bigint else type_id end,
       ozon_attributes = coalesce($10::jsonb, ozon_attributes), dimensions = case when $11 then $12::jsonb else dimensions end, updated_at = now()
     where id = $1 and user_id = $2`,
    [
      body.id,
      userId,
      body.title ?? null,
      body.description ?? null,
      images ? JSON.stringify(images) : null,
      JSON.stringify(variants),
      body.categoryId !== undefined,
      body.categoryId ?? null,
      body.typeId ?? null,
      body.ozonAttributes ? JSON.stringify(body.ozonAttributes) : null,
      body.dimensions !== undefined,
      body.dimensions ? JSON.stringify(body.dimensions) : null,
    ],
  );
  return itemOf(await ownItem(deps, userId, body.id));
}

export async function remove(deps: CollectionDeps, userId: number, ids: readonly number[]): Promise<{ count: number }> {
  const rows = await deps.database.query(`delete from collection_items where user_id = $1 and id = any($2::int[]) returning id`, [userId, ids]);
  return { count: rows.length };
}

// ---- upload

type UploadRow = {
  id: number;
  item_id: number | null;
  shop_id: number;
  shop_name: string;
  site: UploadRecord['site'];
  offer_id: string;
  name: string;
  variant: string;
  image: string | null;
  price: string;
  currency: string;
  status: UploadRecord['status'];
  task_id: number | string | null;
  product_id: number | string | null;
  errors: StoredError[];
  created_at: Date | string;
  updated_at: Date | string;
};

function recordOf(row: UploadRow, lang: Lang): UploadRecord {
  return {
    id: row.id,
    itemId: row.item_id,
    shopId: row.shop_id,
    shopName: row.shop_name,
    site: row.site,
    offerId: row.offer_id,
    name: row.name,
    variant: row.variant,
    image: row.image,
    price: twoPlaces(row.price),
    currency: row.currency,
    status: row.status,
    productId: nullableNumber(row.product_id),
    errors: row.errors.map((e) => ({ code: e.code, message: textIn(e, lang), attributeId: e.attributeId, attributeName: e.attributeName })),
    createdAt: new Date(row.created_at).getTime(),
    updatedAt: new Date(row.updated_at).getTime(),
  };
}

const SELECT_UPLOADS = `select r.*, s.name as shop_name from collection_uploads r join mp_shops s on s.id = r.shop_id`;

/** One card Ozon will be sent: an item's selected variant (or the item itself when it has no variants). */
type PlannedCard = { itemId: number; site: UploadRecord['site']; offerId: string; variant: string; image: string | null; import: ProductImportItem };

/** The offer id of an item's variant: the source and its ids, so uploading again updates the same card. */
const offerIdOf = (row: ItemRow, variant: CollectionVariant | null) => `${row.site}-${row.source_id}${variant ? `-${variant.key}` : ''}`.slice(0, 50);

function planCards(rows: readonly ItemRow[], rule: PriceRule, convert: (amount: string, currency: string) => string): PlannedCard[] {
  return rows.flatMap((row) => {
    const item = itemOf(row);
    const chosen: (CollectionVariant | null)[] = item.variants.length ? item.variants.filter((v) => v.selected) : [null];
    const ozonOf = (values: readonly OzonAttributeValue[]) =>
      values.flatMap((a) => {
        const filled = a.values.filter((v) => v.dictionaryValueId !== undefined || v.value.trim() !== '');
        if (filled.length === 0) return [];
        return [{ id: a.id, complex_id: a.complexId, values: filled.map((v) => (v.dictionaryValueId ? { dictionary_value_id: v.dictionaryValueId, value: v.value } : { value: v.value.trim() })) }];
      });
    const attributes = ozonOf(withModelName(item).ozonAttributes);
    return chosen.map((variant): PlannedCard => {
      // A variant's own values (colour, size) stand beside the shared ones, in place of any of the same attribute.
      const own = variant ? ozonOf(variant.ozonAttributes) : [];
      const cardAttributes = [...attributes.filter((a) => !own.some((o) => o.id === a.id)), ...own];
      const price = targetPrice(convert(variant?.price ?? item.price, item.currency), rule);
      const oldPrice = oldPriceFor(price, rule.oldPriceFactor);
      const images = [...new Set([...(variant?.image ? [variant.image] : []), ...item.images])].slice(0, OZON_MAX_IMAGES);
      const dimensions = item.dimensions!;
      return {
        itemId: item.id,
        site: item.site,
        offerId: offerIdOf(row, variant),
        variant: variant?.name ?? '',
        image: images[0] ?? null,
        import: {
          offer_id: offerIdOf(row, variant),
          name: (variant && item.variants.length > 1 ? `${item.title} ${variant.name}` : item.title).slice(0, 500),
          description_category_id: item.categoryId!,
          type_id: item.typeId!,
          attributes: cardAttributes,
          price,
          old_price: oldPrice ?? '0',
          currency_code: rule.currency,
          vat: '0',
          images,
          depth: dimensions.depth,
          width: dimensions.width,
          height: dimensions.height,
          dimension_unit: 'mm',
          weight: dimensions.weight,
          weight_unit: 'g',
        },
      };
    });
  });
}

/** The item with a model name: its own, or its source and id (cards sharing a model name are one product with variants on Ozon). */
function withModelName(item: CollectionItem): CollectionItem {
  if (item.ozonAttributes.some((a) => a.id === MODEL_NAME && a.values.some((v) => v.value.trim()))) return item;
  const model = { id: MODEL_NAME, complexId: 0, values: [{ value: `${item.site}-${item.sourceId}` }] };
  return { ...item, ozonAttributes: [...item.ozonAttributes.filter((a) => a.id !== MODEL_NAME), model] };
}

/** Whether an item is ready for Ozon; the first thing missing is the 400 the seller reads. */
function checkReady(row: ItemRow) {
  const params = { title: row.title.slice(0, 40) };
  if (row.type_id === null || row.category_id === null) throw new ApiError(400, { key: 'collectionNeedsCategory', params }, 'ids');
  if (!row.dimensions) throw new ApiError(400, { key: 'collectionNeedsDimensions', params }, 'ids');
  if (row.images.length === 0) throw new ApiError(400, { key: 'collectionNeedsImages', params }, 'ids');
  if (row.variants.length > 0 && !row.variants.some((v) => v.selected)) throw new ApiError(400, { key: 'collectionNeedsVariant', params }, 'ids');
}

/** Every item's attribute values against its type as the shop's Ozon answers (each type asked once); the first problem is the 400. */
async function checkAttributesReady(deps: CollectionDeps, userId: number, rows: readonly ItemRow[], shopId: number, lang: Lang) {
  const byType = new Map<string, Promise<CategoryAttribute[]>>();
  for (const row of rows) {
    const item = itemOf(row);
    const key = `${item.categoryId}:${item.typeId}`;
    if (!byType.has(key)) byType.set(key, typeAttributes(deps, userId, item.categoryId!, item.typeId!, lang, shopId));
    const problem = attributeProblem(item, await byType.get(key)!, true);
    if (problem) throw new ApiError(400, problem.text, 'ids');
  }
}

/** Sends one shop's cards to Ozon's import in batches: each card's task, or the reason the batch was refused. */
async function sendCards(client: OzonClient, cards: readonly PlannedCard[]): Promise<{ taskId: number | null; status: UploadRecord['status']; errors: StoredError[] }[]> {
  const outcomes: { taskId: number | null; status: UploadRecord['status']; errors: StoredError[] }[] = [];
  for (let start = 0; start < cards.length; start += IMPORT_BATCH) {
    const batch = cards.slice(start, start + IMPORT_BATCH);
    try {
      const taskId = Number(await client.productImport(batch.map((c) => c.import)));
      outcomes.push(...batch.map(() => ({ taskId, status: 'importing' as const, errors: [] })));
    } catch (error) {
      const failure = failureOf(error);
      outcomes.push(...batch.map(() => ({ taskId: null, status: 'failed' as const, errors: [failure] })));
    }
  }
  return outcomes;
}

export async function upload(
  deps: CollectionDeps,
  userId: number,
  body: { ids: number[]; shopIds: number[]; rule: PriceRule },
  lang: Lang,
): Promise<{ list: UploadRecord[] }> {
  const rows = await itemsByIds(deps, userId, [...new Set(body.ids)]);
  if (rows.length !== new Set(body.ids).size) throw new ApiError(404, 'collectionItemNotFound', 'ids');
  rows.forEach(checkReady);
  await checkAttributesReady(deps, userId, rows, body.shopIds[0]!, lang);
  const { convert } = await ratesInto(deps, new Set(rows.map((r) => r.currency)), body.rule.currency);
  const cards = planCards(rows, body.rule, convert);
  // Every shop is checked to be the caller's before anything is sent.
  const shops = [];
  for (const shopId of [...new Set(body.shopIds)]) shops.push({ shopId, ...(await deps.shopClient(userId, shopId)) });
  const ids: number[] = [];
  for (const { shopId, client } of shops) {
    const outcomes = await sendCards(client, cards);
    for (const [i, card] of cards.entries()) {
      const outcome = outcomes[i]!;
      const [row] = await deps.database.query<{ id: number }>(
        `insert into collection_uploads (user_id, item_id, shop_id, site, offer_id, name, variant, image, price, currency, status, task_id, errors, checked_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, now()) returning id`,
        [
          userId,
          card.itemId,
          shopId,
          card.site,
          card.offerId,
          card.import.name,
          card.variant,
          card.image,
          card.import.price,
          body.rule.currency,
          outcome.status,
          outcome.taskId,
          JSON.stringify(outcome.errors),
        ],
      );
      ids.push(row!.id);
    }
  }
  const uploaded = await deps.database.query<UploadRow>(`${SELECT_UPLOADS} where r.user_id = $1 and r.id = any($2::int[]) order by r.id desc`, [userId, ids]);
  return { list: uploaded.map((r) => recordOf(r, lang)) };
}

// ---- upload history

/** Asks Ozon where the caller's unsettled uploads stand and stores the answers (see copy/follow.ts). */
export async function followUploads(deps: CollectionDeps, userId: number): Promise<void> {
  await followImports({ database: deps.database, table: 'collection_uploads', userId, shopClient: deps.shopClient });
}

type ParsedUploadQuery = { page: number; rows: number; status?: UploadRecord['status']; shopId?: number; search?: string };

export async function uploadList(deps: CollectionDeps, userId: number, query: ParsedUploadQuery, lang: Lang) {
  await followUploads(deps, userId);
  const where = `r.user_id = $1 and ($2::text is null or r.status = $2) and ($3::int is null or r.shop_id = $3)
    and ($4::text is null or r.name ilike $4 or r.offer_id ilike $4)${shopScopeSql('r.shop_id')}`;
  const params = [userId, query.status ?? null, query.shopId ?? null, containsPattern(query.search)];
  const { rows, total, unsettled } = await importPage<UploadRow>(deps.database, { table: 'collection_uploads', select: SELECT_UPLOADS, where, params, page: query.page, rows: query.rows });
  return { list: rows.map((r) => recordOf(r, lang)), total, unsettled };
}

export async function uploadDelete(deps: CollectionDeps, userId: number, ids: readonly number[]): Promise<{ count: number }> {
  const rows = await deps.database.query(`delete from collection_uploads where user_id = $1 and id = any($2::int[])${shopScopeSql('shop_id')} returning id`, [userId, ids]);
  return { count: rows.length };
}

export function formatUrls(urls: readonly string[], base?: string): { urls: (string | null)[] } {
  return { urls: urls.map((u) => normalizeImageUrl(u, base)) };
}
