import type { boolResultSchema, importBySkuResponseSchema, importInfoResponseSchema, picturesImportResponseSchema, productAttributesResponseSchema, productInfoListResponseSchema, productLimitResponseSchema, productListResponseSchema, productsDeleteResponseSchema, taskResponseSchema } from '../../ozon/schemas';
import { attributeProblems, findLeaf, isCopyForbidden } from '../catalog';
import { badRequest, notFound } from '../errors';
import { fbsStock, productErrors, productStatuses, type SimProduct } from '../products';
import type { OzonRequest } from '../../ozon/versions';
import type { SimShop } from '../shop';
import type { Answer } from '../wire';
import { asNumbers, checkLimit, iso, setBounded, SIM_BOUNDS } from '../wire';

type ImportError = { code: string; message: string; field?: string; attribute_id?: number; attribute_name?: string; level?: string; state?: string };
type ImportTask = { createdAt: number; items: { offer_id: string; product_id: number; status: 'imported' | 'failed' | 'skipped'; errors: ImportError[] }[] };

const UNARCHIVE_DAILY_LIMIT = 10;
const DAILY_CREATE_LIMIT = 1_000;
const DAILY_UPDATE_LIMIT = 2_000;
const TOTAL_LIMIT = 50_000;

/**
 * Ozon area "products": /v3/product/list, /v3/product/info/list, /v4/product/info/attributes, /v3/product/import and
 * its task, /v1/product/import-by-sku, archive, unarchive, /v2/products/delete, pictures and /v4/product/info/limit,
 * with Ozon's quotas (daily creates, daily card updates, the assortment total, ten auto-archived restores a day).
 */
export class ProductsArea {
  private readonly shop: SimShop;
  readonly importTasks = new Map<number, ImportTask>();
  readonly restores: number[] = [];
  readonly creates: number[] = [];
  /** When cards were edited (an import over an existing card, a pictures import): Ozon's daily update quota. */
  readonly updates: number[] = [];
  nextProductK: number;

  constructor(shop: SimShop) {
    this.shop = shop;
    this.nextProductK = shop.products.length;
  }

  // ---- products
  productList(body: OzonRequest<'productList'>): Answer<typeof productListResponseSchema> {
    const limit = checkLimit(body.limit, 1000, false);
    const list = this.shop.filterProducts(body.filter);
    const after = body.last_id ? Number(body.last_id) : 0;
    const page = list.filter((p) => p.id > after).slice(0, limit);
    const more = list.some((p) => p.id > (page[page.length - 1]?.id ?? Infinity));
    return {
      result: {
        items: page.map((p) => ({
          product_id: p.id,
          offer_id: p.offerId,
          archived: p.archived,
          has_fbo_stocks: p.fboPresent > 0,
          has_fbs_stocks: fbsStock(p) > 0,
          is_discounted: false,
          quants: [],
        })),
        total: list.length,
        last_id: more ? String(page[page.length - 1]!.id) : '',
      },
    };
  }

  productInfoList(body: OzonRequest<'productInfoList'>, baseUrl: string): Answer<typeof productInfoListResponseSchema> {
    const offers = body.offer_id ?? [];
    const ids = asNumbers(body.product_id);
    const skus = asNumbers(body.sku);
    if (offers.length + ids.length + skus.length > 1000) throw badRequest('at most 1000 identifiers per request');
    const found = new Map<number, SimProduct>();
    for (const o of offers) {
      const p = this.shop.productByOffer.get(o);
      if (p) found.set(p.id, p);
    }
    for (const id of ids) {
      const p = this.shop.productById.get(id);
      if (p) found.set(p.id, p);
    }
    for (const sku of skus) {
      const p = this.shop.productBySku(sku);
      if (p) found.set(p.id, p);
    }
    return {
      items: [...found.values()].map((raw) => {
        const p = this.shop.settle(raw);
        const images = p.images.map((i) => this.shop.url(i, baseUrl));
        return {
          id: p.id,
          offer_id: p.offerId,
          sku: p.sku,
          name: p.name,
          barcodes: [p.barcode],
          images,
          primary_image: images.slice(0, 1),
          color_image: [],
          images360: [],
          price: p.price.toFixed(2),
          old_price: p.oldPrice ? p.oldPrice.toFixed(2) : '0.00',
          min_price: p.minPrice ? p.minPrice.toFixed(2) : '0.00',
          marketing_price: p.price.toFixed(2),
          currency_code: p.currency,
          vat: p.vat,
          description_category_id: p.categoryId,
          type_id: p.typeId,
          is_archived: p.archived && !p.autoArchived,
          is_autoarchived: p.autoArchived,
          is_discounted: false,
          is_kgt: false,
          statuses: productStatuses(p),
          errors: productErrors(p),
          stocks: {
            has_stock: fbsStock(p) + p.fboPresent > 0,
            stocks: [
              { present: fbsStock(p), reserved: p.reserved, sku: p.sku, source: 'fbs' },
              { present: p.fboPresent, reserved: 0, sku: p.sku, source: 'fbo' },
            ],
          },
          visibility_details: { has_price: true, has_stock: fbsStock(p) + p.fboPresent > 0 },
          commissions: [{ percent: 18, sale_schema: 'FBS', value: Math.round(p.price * 0.18), delivery_amount: 0, return_amount: 0 }],
          promotions: [],
          volume_weight: Math.round((p.depth * p.width * p.height) / 5_000_000 * 10) / 10,
          created_at: iso(p.createdAt),
          updated_at: iso(p.updatedAt),
        };
      }),
    };
  }

  productAttributes(body: OzonRequest<'productInfoAttributes'>, baseUrl: string): Answer<typeof productAttributesResponseSchema> {
    const limit = checkLimit(body.limit, 1000, false);
    const list = this.shop.filterProducts(body.filter);
    const desc = String(body.sort_dir ?? 'ASC').toUpperCase() === 'DESC';
    const ordered = desc ? [...list].reverse() : list;
    const after = body.last_id ? Number(body.last_id) : undefined;
    const startAt = after === undefined ? 0 : ordered.findIndex((p) => p.id === after) + 1;
    const page = ordered.slice(startAt, startAt + limit);
    const more = startAt + limit < ordered.length;
    return {
      result: page.map((p) => {
        const images = p.images.map((i) => this.shop.url(i, baseUrl));
        return {
          id: p.id,
          offer_id: p.offerId,
          sku: p.sku,
          name: p.name,
          barcode: p.barcode,
          barcodes: [p.barcode],
          description_category_id: p.categoryId,
          type_id: p.typeId,
          attributes: p.attributes,
          complex_attributes: [],
          attributes_with_defaults: [],
          images,
          primary_image: images[0] ?? '',
          color_image: '',
          depth: p.depth,
          width: p.width,
          height: p.height,
          dimension_unit: 'mm',
          weight: p.weight,
          weight_unit: 'g',
          pdf_list: [],
          model_info: { model_id: p.id, count: 1 },
        };
      }),
      last_id: more && page.length ? String(page[page.length - 1]!.id) : '',
      total: list.length,
    };
  }

  /** `baseUrl`: the address the caller reached the simulator at (absent: the simulator's own copy, links kept as they are). */
  productImport(body: OzonRequest<'productImport'>, baseUrl?: string): Answer<typeof taskResponseSchema> {
    const items = body.items ?? [];
    if (items.length === 0 || items.length > 100) throw badRequest('items must hold 1 to 100 products');
    const now = this.shop.env.now();
    const { dayStart } = this.shop.quotaDay();
    const results: ImportTask['items'] = items.map((item) => {
      const offerId = (item.offer_id ?? '').trim();
      const errors: ImportTask['items'][number]['errors'] = [];
      if (!offerId || offerId.length > 50) errors.push({ code: 'offer_id_invalid', field: 'offer_id', message: 'offer_id is required, at most 50 characters' });
      const name = item.name ?? '';
      if (!name || name.length > 500) errors.push({ code: 'name_invalid', field: 'name', message: 'name is required, at most 500 characters' });
      const leaf = findLeaf(Number(item.description_category_id), Number(item.type_id));
      if (!leaf) errors.push({ code: 'description_category_invalid', field: 'description_category_id', message: 'description_category_id and type_id must name a leaf type' });
      const price = Number(item.price);
      if (!Number.isFinite(price) || price <= 0) errors.push({ code: 'price_invalid', field: 'price', message: 'price must be positive' });
      const images = item.images ?? [];
      if (images.length > 15) errors.push({ code: 'too_many_images', field: 'images', message: 'at most 15 images' });
      const attributes = item.attributes ?? [];
      if (leaf) errors.push(...attributeProblems(leaf, attributes));
      const existing = offerId ? this.shop.productByOffer.get(offerId) : undefined;
      if (!existing && this.creates.filter((t) => t >= dayStart).length >= DAILY_CREATE_LIMIT) {
        errors.push({ code: 'item_limit_exceeded', field: '', message: 'daily create limit exceeded' });
      }
      if (existing && this.updatesToday() >= DAILY_UPDATE_LIMIT) {
        errors.push({ code: 'item_limit_exceeded', field: '', message: 'daily update limit exceeded' });
      }
      if (!existing && this.shop.products.length >= TOTAL_LIMIT) errors.push({ code: 'total_limit_exceeded', field: '', message: 'assortment limit exceeded' });
      if (errors.length) return { offer_id: offerId, product_id: existing?.id ?? 0, status: 'failed' as const, errors };
      const fields = {
        name,
        categoryId: leaf!.categoryId,
        typeId: leaf!.typeId,
        price,
        oldPrice: Number(item.old_price ?? 0) || 0,
        currency: item.currency_code ?? 'CNY',
        vat: item.vat ?? '0',
        images: baseUrl === undefined ? images : images.map((link) => this.shop.stored(link, baseUrl)),
        // Ozon takes ids as numbers or strings of digits; the card keeps them as the numbers it answers with.
        attributes: attributes.map((a) => ({
          id: Number(a.id),
          complex_id: Number(a.complex_id ?? 0),
          values: (a.values ?? []).map((v) => ({ ...(v.dictionary_value_id === undefined ? {} : { dictionary_value_id: Number(v.dictionary_value_id) }), value: v.value ?? '' })),
        })),
        barcode: item.barcode ?? '',
        depth: Number(item.depth ?? 100),
        width: Number(item.width ?? 100),
        height: Number(item.height ?? 100),
        weight: Number(item.weight ?? 100),
        updatedAt: now,
      };
      if (existing) {
        // An update sends the whole card and goes through moderation again.
        Object.assign(existing, fields, { state: existing.state === 'failed' ? 'moderating' : existing.state, readyAt: now + this.shop.env.taskDelayMs() });
        this.countUpdate(now);
        return { offer_id: offerId, product_id: existing.id, status: 'imported' as const, errors: [] };
      }
      const k = this.nextProductK++;
      const id = Number(this.shop.clientId) * 100_000 + k + 1;
      this.shop.addProduct({
        ...fields,
        id,
        offerId,
        sku: 0,
        minPrice: 0,
        archived: false,
        autoArchived: false,
        state: 'moderating',
        readyAt: now + this.shop.env.taskDelayMs(),
        stocks: new Map(this.shop.warehouses.map((w) => [w.id, 0])),
        fboPresent: 0,
        reserved: 0,
        createdAt: now,
      });
      this.creates.push(now);
      this.creates.splice(0, this.creates.findIndex((t) => t >= dayStart));
      return { offer_id: offerId, product_id: id, status: 'imported' as const, errors: [] };
    });
    const taskId = this.shop.nextTaskId();
    setBounded(this.importTasks, taskId, { createdAt: now, items: results }, SIM_BOUNDS.tasks);
    return { result: { task_id: taskId } };
  }

  importInfo(body: OzonRequest<'productImportInfo'>): Answer<typeof importInfoResponseSchema> {
    const task = this.importTasks.get(Number(body.task_id));
    if (!task) throw notFound('task not found');
    const pending = this.shop.env.holdImportTasks() || this.shop.env.now() - task.createdAt < this.shop.env.taskDelayMs();
    return {
      result: {
        items: task.items.map((i) => (pending ? { offer_id: i.offer_id, product_id: 0, status: 'pending', errors: [] } : i)),
        total: task.items.length,
      },
    };
  }

  importBySku(body: OzonRequest<'productImportBySku'>): Answer<typeof importBySkuResponseSchema> {
    const items = body.items ?? [];
    if (items.length === 0 || items.length > 1000) throw badRequest('items must hold 1 to 1000 products');
    const unmatched: number[] = [];
    const toImport: NonNullable<OzonRequest<'productImport'>['items']> = [];
    const refused: ImportTask['items'] = [];
    for (const item of items) {
      const sku = Number(item.sku);
      const source = this.shop.env.findSku(sku);
      if (!source) {
        unmatched.push(sku);
        continue;
      }
      if (isCopyForbidden(source.id)) {
        const offerId = item.offer_id || `COPY-${sku}`;
        refused.push({ offer_id: offerId, product_id: 0, status: 'failed', errors: [{ code: 'SKU_COPY_FORBIDDEN', field: 'sku', level: 'error', state: 'declined', message: 'the card owner forbids creating products from this SKU' }] });
        continue;
      }
      toImport.push({
        offer_id: item.offer_id || `COPY-${sku}`,
        name: item.name || source.name,
        description_category_id: source.categoryId,
        type_id: source.typeId,
        price: item.price ?? String(source.price),
        old_price: item.old_price ?? '0',
        currency_code: item.currency_code ?? source.currency,
        vat: item.vat ?? source.vat,
        attributes: source.attributes,
        images: source.images,
        depth: source.depth,
        width: source.width,
        height: source.height,
        weight: source.weight,
      });
    }
    if (toImport.length === 0) {
      const taskId = this.shop.nextTaskId();
      setBounded(this.importTasks, taskId, { createdAt: this.shop.env.now(), items: refused }, SIM_BOUNDS.tasks);
      return { result: { task_id: taskId, unmatched_sku_list: unmatched } };
    }
    const { result } = this.productImport({ items: toImport });
    this.importTasks.get(Number(result.task_id))?.items.push(...refused);
    return { result: { task_id: result.task_id, unmatched_sku_list: unmatched } };
  }

  private requireProducts(ids: unknown): SimProduct[] {
    const list = asNumbers(ids);
    if (list.length === 0 || list.length > 100) throw badRequest('product_id must hold 1 to 100 ids');
    return list.map((id) => {
      const p = this.shop.productById.get(id);
      if (!p) throw notFound(`product ${id} not found`);
      return p;
    });
  }

  archive(body: OzonRequest<'productArchive'>): Answer<typeof boolResultSchema> {
    const now = this.shop.env.now();
    for (const p of this.requireProducts(body.product_id)) {
      p.archived = true;
      p.autoArchived = false;
      p.updatedAt = now;
    }
    return { result: true };
  }

  unarchive(body: OzonRequest<'productUnarchive'>): Answer<typeof boolResultSchema> {
    const products = this.requireProducts(body.product_id);
    const now = this.shop.env.now();
    // The daily restore limit counts from 03:00 MSK, which is 00:00 UTC.
    const { dayStart } = this.shop.quotaDay();
    const autos = products.filter((p) => p.archived && p.autoArchived).length;
    const used = this.restores.filter((t) => t >= dayStart).length;
    if (used + autos > UNARCHIVE_DAILY_LIMIT) throw badRequest('restore limit exceeded');
    for (const p of products) {
      if (p.archived && p.autoArchived) {
        this.restores.push(now);
        this.restores.splice(0, this.restores.findIndex((t) => t >= dayStart));
      }
      p.archived = false;
      p.autoArchived = false;
      p.updatedAt = now;
    }
    return { result: true };
  }

  deleteProducts(body: OzonRequest<'productsDelete'>): Answer<typeof productsDeleteResponseSchema> {
    const items = body.products;
    if (items.length === 0 || items.length > 500) throw badRequest('products must hold 1 to 500 items');
    return {
      status: items.map(({ offer_id }) => {
        const p = this.shop.productByOffer.get(offer_id);
        if (!p) return { offer_id, is_deleted: false, error: 'PRODUCT_NOT_FOUND' };
        if (!p.archived) return { offer_id, is_deleted: false, error: 'PRODUCT_IS_NOT_ARCHIVED' };
        if (p.sku > 0) return { offer_id, is_deleted: false, error: 'PRODUCT_HAS_SKU' };
        this.shop.products.splice(this.shop.products.indexOf(p), 1);
        this.shop.productById.delete(p.id);
        this.shop.productByOffer.delete(p.offerId);
        // What was counted for the card goes with it, so create-and-delete cycles leave nothing behind.
        this.shop.areas.pricesStocks.priceChanges.delete(p.id);
        for (const w of this.shop.warehouses) this.shop.areas.pricesStocks.stockUpdates.delete(`${p.id}:${w.id}`);
        return { offer_id, is_deleted: true, error: '' };
      }),
    };
  }

  picturesImport(body: OzonRequest<'productPicturesImport'>, baseUrl: string): Answer<typeof picturesImportResponseSchema> {
    const p = this.shop.productById.get(Number(body.product_id));
    if (!p) throw notFound('product not found');
    const images = body.images ?? [];
    if (images.length === 0 || images.length > 30) throw badRequest('images must hold 1 to 30 links');
    if (this.updatesToday() >= DAILY_UPDATE_LIMIT) throw badRequest('item_limit_exceeded: daily update limit exceeded');
    this.countUpdate(this.shop.env.now());
    p.images = images.map((link) => this.shop.stored(link, baseUrl));
    p.updatedAt = this.shop.env.now();
    return { result: { pictures: images.map((url, i) => ({ product_id: p.id, url, state: 'imported', is_primary: i === 0, is_color: false, is_360: false })) } };
  }

  private updatesToday(): number {
    const { dayStart } = this.shop.quotaDay();
    return this.updates.filter((t) => t >= dayStart).length;
  }

  private countUpdate(now: number) {
    const { dayStart } = this.shop.quotaDay();
    this.updates.push(now);
    // Only today's are kept: the list stays bounded by the daily limit.
    const firstToday = this.updates.findIndex((t) => t >= dayStart);
    this.updates.splice(0, firstToday < 0 ? this.updates.length : firstToday);
  }

  limits(): Answer<typeof productLimitResponseSchema> {
    const { dayStart, resetAt } = this.shop.quotaDay();
    const created = this.creates.filter((t) => t >= dayStart).length;
    return {
      daily_create: { limit: DAILY_CREATE_LIMIT, usage: created, reset_at: resetAt },
      daily_update: { limit: DAILY_UPDATE_LIMIT, usage: this.updatesToday(), reset_at: resetAt },
      total: { limit: TOTAL_LIMIT, usage: this.shop.products.length },
    };
  }

}
