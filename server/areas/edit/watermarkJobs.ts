import { randomBytes } from 'node:crypto';
import { eachLang, localized, textIn, type Lang, type Localized, type ZhEnText } from '../../../contract/errors';
import type { SkuImageResult } from '../../../contract/products';
import {
  PUBLIC_PICTURE_PATH,
  WATERMARK_MESSAGES,
  type WatermarkApplyBody,
  type WatermarkJob,
  type WatermarkJobDetail,
  type WatermarkSettings,
} from '../../../contract/watermark';
import type { Database } from '../../db/database';
import type { Leases } from '../../db/leases';
import { ApiError } from '../../http/errors';
import { isOzonError } from '../../marketplace/ozon/errors';
import { capParams, roomFor, SERVED_PICTURES } from '../products/pictures';
import { shopScopeSql } from '../team/shopScope';
import { checkOzonImage } from './imageRules';
import { applyWatermark, type Mark } from './watermark';

/**
 * Watermark jobs: every picture of the chosen products of a shop, watermarked on the server and put on the Ozon
 * cards. A job is rows, not memory: one item per picture (its original kept) and one row per product (its card's
 * send and Ozon's answer). The runner takes the next pending item, makes its picture and, in ONE statement, stores
 * the picture and marks the item done (only while it is still pending and this runner still holds the job's
 * lease); so a server that stops at any moment leaves each item either done with its picture or untouched, and
 * the next runner (a restart, or another instance once the lease ran out) goes on from the first pending item
 * without making any picture twice. Pictures are always made from the original, never from an output, so a job
 * run over a card that already carries our pictures starts from their originals too.
 * Cards are sent once all their pictures are settled; a card whose send was cut off is sent again, which is safe:
 * Ozon's pictures import replaces the card's pictures with the same list.
 */

export type WatermarkDeps = {
  database: Database;
  leases: Leases;
  now: () => Date;
  /** An original picture's bytes (the simulator's in-process, our own from the database, others over HTTPS). */
  fetchPicture: (url: string) => Promise<Buffer>;
  /** Puts the pictures on the product's Ozon card (products' /updateSkuImage path): Ozon's answer per picture. */
  sendPictures: (userId: number, productId: string, images: string[]) => Promise<SkuImageResult>;
  /** The job moved on (a picture settled, a card sent, the job ended): the browser hears it. */
  notify?: (userId: number, jobId: number) => void;
  log: { error(object: unknown, message: string): void };
  /** Tests: runs after each picture is stored; a throw there stops the run as a crash of the server would. */
  afterPicture?: (itemId: number) => void | Promise<void>;
};

const LEASE_MS = 60_000;
const leaseName = (jobId: number) => `watermark-job:${jobId}`;

/** A picture not made because the seller's made pictures are at the cap. */
class CapReached extends Error {}
const texts = (key: keyof typeof WATERMARK_MESSAGES): Localized => WATERMARK_MESSAGES[key];
function reasonTexts(error: unknown): Localized {
  if (isOzonError(error)) return error.texts;
  if (error instanceof ApiError) return eachLang((lang) => error.localized(lang));
  return localized('operationFailed');
}

type JobRow = {
  id: number;
  user_id: number;
  shop_id: number;
  shop_name: string;
  template_name: string;
  kind: 'watermark' | 'restore';
  send: boolean;
  state: 'running' | 'done' | 'failed';
  created_at: Date | string;
  finished_at: Date | string | null;
  products: number;
  pictures: number;
  pictures_done: number;
  pictures_failed: number;
  products_sent: number;
  products_failed: number;
};

const JOB_SELECT = `
  select j.id, j.user_id, j.shop_id, j.shop_name, j.template_name, j.kind, j.send, j.state, j.created_at, j.finished_at,
    (select count(*)::int from watermark_products p where p.job_id = j.id) as products,
    (select count(*)::int from watermark_items i where i.job_id = j.id) as pictures,
    (select count(*)::int from watermark_items i where i.job_id = j.id and i.state = 'done') as pictures_done,
    (select count(*)::int from watermark_items i where i.job_id = j.id and i.state = 'failed') as pictures_failed,
    (select count(*)::int from watermark_products p where p.job_id = j.id and p.send = 'sent') as products_sent,
    (select count(*)::int from watermark_products p where p.job_id = j.id and p.send = 'failed') as products_failed
  from watermark_jobs j`;

const iso = (value: Date | string) => new Date(value).toISOString();
const jobOf = (row: JobRow): WatermarkJob => ({
  id: row.id,
  shopId: row.shop_id,
  shopName: row.shop_name,
  templateName: row.template_name,
  kind: row.kind,
  send: row.send,
  state: row.state,
  products: row.products,
  pictures: row.pictures,
  picturesDone: row.pictures_done,
  picturesFailed: row.pictures_failed,
  productsSent: row.products_sent,
  productsFailed: row.products_failed,
  createdAt: iso(row.created_at),
  finishedAt: row.finished_at === null ? null : iso(row.finished_at),
});

/** This server's address as the caller reached it: where Ozon fetches the pictures we serve. */
export const publicBaseOf = (request: { protocol: string; host: string }) => `${request.protocol}://${request.host}`;
/** The unguessable name a public picture is served by. */
export const newPictureToken = () => randomBytes(18).toString('base64url');
const pictureExtension = (contentType: string) => (contentType === 'image/png' ? 'png' : 'jpg');
/** Where one of our pictures is served without a session (Ozon fetches it there). */
export const publicPictureUrl = (publicBase: string, token: string, contentType: string) => `${publicBase}${PUBLIC_PICTURE_PATH}${token}.${pictureExtension(contentType)}`;

/** The token of one of our public pictures in `url`, or null. */
export function publicToken(url: string): string | null {
  try {
    const { pathname } = new URL(url);
    if (!pathname.startsWith(PUBLIC_PICTURE_PATH)) return null;
    return /^([A-Za-z0-9_-]{16,64})\.(png|jpg)$/.exec(pathname.slice(PUBLIC_PICTURE_PATH.length))?.[1] ?? null;
  } catch {
    return null;
  }
}

type TemplateRow = { id: number; name: string; kind: 'text' | 'image'; text: string; color: string; position: WatermarkSettings['position']; opacity: number; scale: number; margin: number; tile: boolean; picture: Uint8Array | null };

export const settingsOf = (row: TemplateRow): WatermarkSettings => ({
  name: row.name,
  kind: row.kind,
  text: row.text,
  color: row.color,
  position: row.position,
  opacity: Number(row.opacity),
  scale: Number(row.scale),
  margin: Number(row.margin),
  tile: row.tile,
});

export async function templateMark(database: Database, userId: number, id: number): Promise<{ name: string; mark: Mark }> {
  const [row] = await database.query<TemplateRow>(
    `select id, name, kind, text, color, position, opacity, scale, margin, tile, picture from watermark_templates where id = $1 and user_id = $2`,
    [id, userId],
  );
  if (!row) throw new ApiError(404, WATERMARK_MESSAGES.templateNotFound, 'templateId');
  return { name: row.name, mark: { settings: settingsOf(row), picture: row.picture ? Buffer.from(row.picture) : null } };
}

type ProductPictures = { id: string; offerId: string; name: string; images: string[] };

/**
 * The pictures of the user's products in a shop (all of them, or `ids`), in the card's order, from the last sync
 * (Ozon's product info); a card the sync saw no pictures of falls back to its main image. In a request, only the
 * caller's shops (a member's scope).
 */
export async function productPictures(database: Database, userId: number, shopId: number | null, ids: readonly string[] | null): Promise<ProductPictures[]> {
  const rows = await database.query<{ id: string; offer_id: string; name: string; image: string; images: unknown }>(
    `select p.id, p.offer_id, p.name, p.image, r.data#>'{info,images}' as images
     from products p
     left join mp_records r on r.shop_id = p.shop_id and r.entity = 'products' and r.external_id = p.product_id
     where p.user_id = $1 and not p.deleted and ($2::int is null or p.shop_id = $2) and ($3::text[] is null or p.id = any($3::text[]))${shopScopeSql('p.shop_id')}
     order by p.id`,
    [userId, shopId, ids],
  );
  return rows.map((row) => {
    const listed = Array.isArray(row.images) ? row.images.filter((url): url is string => typeof url === 'string' && url.length > 0) : [];
    return { id: row.id, offerId: row.offer_id, name: row.name, images: listed.length ? listed : row.image ? [row.image] : [] };
  });
}

/** Our own pictures among `urls` mapped back to the originals they were made from. */
async function originalsOf(database: Database, urls: readonly string[]): Promise<Map<string, string>> {
  const tokens = new Map<string, string>();
  for (const url of urls) {
    const token = publicToken(url);
    if (token) tokens.set(token, url);
  }
  if (tokens.size === 0) return new Map();
  const rows = await database.query<{ public_token: string; source_url: string }>(
    `select public_token, source_url from edit_images where public_token = any($1::text[]) and source_url is not null`,
    [[...tokens.keys()]],
  );
  return new Map(rows.map((row) => [tokens.get(row.public_token)!, row.source_url]));
}

export function createWatermarkJobs(deps: WatermarkDeps) {
  const { database } = deps;
  const running = new Map<number, Promise<void>>();
  let stopping = false;

  async function jobRow(userId: number, id: number): Promise<JobRow> {
    // A member sees the jobs of their shops only (a job of another shop is as missing).
    const [row] = await database.query<JobRow>(`${JOB_SELECT} where j.id = $1 and j.user_id = $2${shopScopeSql('j.shop_id')}`, [id, userId]);
    if (!row) throw new ApiError(404, WATERMARK_MESSAGES.jobNotFound, 'id');
    return row;
  }

  async function shopName(userId: number, shopId: number): Promise<string> {
    const [shop] = await database.query<{ name: string }>(`select name from mp_shops where id = $1 and user_id = $2`, [shopId, userId]);
    if (!shop) throw new ApiError(404, 'shopNotFound', 'shopId');
    return shop.name;
  }

  type NewItem = { product: string; idx: number; source: string; done: boolean };
  type NewProduct = { product: string; position: number; offerId: string; name: string };

  async function insertJob(
    userId: number,
    job: { shopId: number; shopName: string; kind: 'watermark' | 'restore'; templateName: string; mark: Mark | null; send: boolean; publicBase: string },
    products: NewProduct[],
    items: NewItem[],
  ): Promise<WatermarkJob> {
    const [created] = await database.query<{ id: number }>(
      `insert into watermark_jobs (user_id, shop_id, shop_name, kind, template_name, mark, picture, send, state, public_base, created_at)
       values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, 'running', $9, $10) returning id`,
      [userId, job.shopId, job.shopName, job.kind, job.templateName, JSON.stringify(job.mark?.settings ?? {}), job.mark?.picture ?? null, job.send, job.publicBase, deps.now()],
    );
    const jobId = created!.id;
    await database.query(
      `insert into watermark_products (job_id, product_id, position, offer_id, name)
       select $1, x.product, x.position, x."offerId", x.name from jsonb_to_recordset($2::jsonb) as x(product text, position int, "offerId" text, name text)`,
      [jobId, JSON.stringify(products)],
    );
    // A restore's items are the originals themselves: nothing to make, only to send.
    await database.query(
      `insert into watermark_items (job_id, product_id, idx, source_url, state, output_url)
       select $1, x.product, x.idx, x.source, case when x.done then 'done' else 'pending' end, case when x.done then x.source end
       from jsonb_to_recordset($2::jsonb) as x(product text, idx int, source text, done boolean)`,
      [jobId, JSON.stringify(items)],
    );
    start(jobId);
    return jobOf(await jobRow(userId, jobId));
  }

  /**
   * Refuses a job whose pictures would take the seller past the cap of made pictures, counting those stored and those
   * the running jobs are still to make (sizes are checked as each picture is stored).
   */
  async function checkRoom(userId: number, need: number, field: string): Promise<void> {
    const [row] = await database.query<{ have: number; pending: number }>(
      `select (select count(*)::int from edit_images where user_id = $1 and origin = 'watermark') as have,
         (select count(*)::int from watermark_items i join watermark_jobs j on j.id = i.job_id where j.user_id = $1 and j.state = 'running' and i.state = 'pending') as pending`,
      [userId],
    );
    const left = Math.max(0, SERVED_PICTURES.watermark.cap.count - Number(row?.have ?? 0) - Number(row?.pending ?? 0));
    if (need > left) throw new ApiError(400, { key: 'watermarkPicturesShort', params: { ...capParams('watermark'), need: String(need), left: String(left) } }, field);
  }

  /** POST /waterMarker/apply: a job over the chosen products of the shop (or all its products with pictures). */
  async function apply(userId: number, body: WatermarkApplyBody & { send: boolean }, publicBase: string): Promise<WatermarkJob> {
    const { name: templateName, mark } = await templateMark(database, userId, Number(body.templateId));
    const shopId = Number(body.shopId);
    const name = await shopName(userId, shopId);
    const products = (await productPictures(database, userId, shopId, body.productIds ? [...new Set(body.productIds)] : null)).filter((p) => p.images.length > 0);
    if (products.length === 0) throw new ApiError(400, WATERMARK_MESSAGES.noProducts, body.productIds ? 'productIds' : 'shopId');
    const originals = await originalsOf(database, products.flatMap((p) => p.images));
    const items = products.flatMap((p) => p.images.map((url, idx) => ({ product: p.id, idx, source: originals.get(url) ?? url, done: false })));
    await checkRoom(userId, items.length, body.productIds ? 'productIds' : 'shopId');
    return insertJob(
      userId,
      { shopId, shopName: name, kind: 'watermark', templateName, mark, send: body.send, publicBase },
      products.map((p, position) => ({ product: p.id, position, offerId: p.offerId, name: p.name })),
      items,
    );
  }

  /** POST /waterMarker/restore: the originals of a finished job's sent cards, put back on Ozon. */
  async function restore(userId: number, jobId: number, publicBase: string): Promise<WatermarkJob> {
    const job = await jobRow(userId, jobId);
    if (job.state === 'running') throw new ApiError(400, WATERMARK_MESSAGES.jobRunning, 'id');
    const products = await database.query<{ product_id: string; position: number; offer_id: string; name: string }>(
      `select product_id, position, offer_id, name from watermark_products where job_id = $1 and send = 'sent' order by position`,
      [jobId],
    );
    if (products.length === 0) throw new ApiError(400, WATERMARK_MESSAGES.noProducts, 'id');
    const items = await database.query<{ product_id: string; idx: number; source_url: string }>(
      `select i.product_id, i.idx, i.source_url from watermark_items i join watermark_products p on p.job_id = i.job_id and p.product_id = i.product_id
       where i.job_id = $1 and p.send = 'sent' order by i.id`,
      [jobId],
    );
    return insertJob(
      userId,
      { shopId: job.shop_id, shopName: job.shop_name, kind: 'restore', templateName: job.template_name, mark: null, send: true, publicBase },
      products.map((p) => ({ product: p.product_id, position: p.position, offerId: p.offer_id, name: p.name })),
      items.map((i) => ({ product: i.product_id, idx: i.idx, source: i.source_url, done: true })),
    );
  }

  async function list(userId: number): Promise<WatermarkJob[]> {
    const rows = await database.query<JobRow>(`${JOB_SELECT} where j.user_id = $1${shopScopeSql('j.shop_id')} order by j.id desc limit 50`, [userId]);
    return rows.map(jobOf);
  }

  async function detail(userId: number, jobId: number, lang: Lang): Promise<WatermarkJobDetail> {
    const job = jobOf(await jobRow(userId, jobId));
    const products = await database.query<{ product_id: string; offer_id: string; name: string; send: WatermarkJobDetail['products'][number]['send']; message: ZhEnText | null; ozon: SkuImageResult['pictures'] }>(
      `select product_id, offer_id, name, send, message, ozon from watermark_products where job_id = $1 order by position`,
      [jobId],
    );
    const items = await database.query<{ product_id: string; idx: number; source_url: string; output_url: string | null; state: 'pending' | 'done' | 'failed'; message: ZhEnText | null }>(
      `select product_id, idx, source_url, output_url, state, message from watermark_items where job_id = $1 order by product_id, idx`,
      [jobId],
    );
    const byProduct = new Map<string, WatermarkJobDetail['products'][number]['pictures']>();
    for (const item of items) {
      const list = byProduct.get(item.product_id) ?? [];
      list.push({ index: item.idx, source: item.source_url, output: item.output_url, state: item.state, message: item.message ? textIn(item.message, lang) : '' });
      byProduct.set(item.product_id, list);
    }
    return {
      job,
      products: products.map((p) => ({
        productId: p.product_id,
        offerId: p.offer_id,
        name: p.name,
        pictures: byProduct.get(p.product_id) ?? [],
        send: p.send,
        sendMessage: p.message ? textIn(p.message, lang) : '',
        ozon: p.ozon,
      })),
    };
  }

  // ---- the runner ----

  function start(jobId: number): Promise<void> {
    let run = running.get(jobId);
    if (!run) {
      run = runJob(jobId)
        .catch((error: unknown) => deps.log.error({ err: error, jobId }, 'watermark job stopped'))
        .finally(() => running.delete(jobId));
      running.set(jobId, run);
    }
    return run;
  }

  async function makePicture(job: { id: number; user_id: number; public_base: string }, mark: Mark, item: { id: number; product_id: string; idx: number; source_url: string }, holding: { name: string; owner: string; generation: number }) {
    let outcome: { ok: true; bytes: Buffer; contentType: string; width: number; height: number } | { ok: false; reason: Localized };
    const full = localized(SERVED_PICTURES.watermark.full, capParams('watermark'));
    const [room] = await database.query<{ ok: boolean }>(`select ${roomFor('watermark', '$1', '0')} as ok`, [job.user_id]);
    try {
      if (!room?.ok) throw new CapReached();
      let original: Buffer;
      try {
        original = await deps.fetchPicture(item.source_url);
      } catch {
        // One more try: a CDN's passing refusal is common.
        await new Promise((resolve) => setTimeout(resolve, 300));
        original = await deps.fetchPicture(item.source_url);
      }
      const made = await applyWatermark(original, mark).catch(() => {
        throw new ApiError(400, WATERMARK_MESSAGES.pictureUnreadable);
      });
      await checkOzonImage(made.bytes);
      outcome = { ok: true, ...made };
    } catch (error) {
      outcome = { ok: false, reason: error instanceof CapReached ? full : error instanceof ApiError || isOzonError(error) ? reasonTexts(error) : texts('pictureFetchFailed') };
    }
    const held = `exists (select 1 from job_leases where name = $3 and owner = $4 and generation = $5)`;
    const failItem = (reason: Localized) =>
      database.query(`update watermark_items set state = 'failed', message = $2::jsonb where id = $1 and state = 'pending' and ${held}`, [
        item.id,
        JSON.stringify(reason),
        holding.name,
        holding.owner,
        holding.generation,
      ]);
    if (!outcome.ok) {
      await failItem(outcome.reason);
      return;
    }
    const token = newPictureToken();
    const extension = pictureExtension(outcome.contentType);
    const url = publicPictureUrl(job.public_base, token, outcome.contentType);
    // One statement: the picture is stored and the item marked done together, or neither (also when the seller's
    // made pictures are at the cap: the item then fails with the reason, below).
    const done = await database.query<{ id: number }>(
      `with claimed as (
         select id from watermark_items where id = $1 and state = 'pending' and ${held} for update
       ), stored as (
         insert into edit_images (user_id, name, content_type, width, height, size, bytes, created_at, origin, public_token, source_url)
         select $6, $7, $8, $9, $10, $11, $12, $13, 'watermark', $14, $15 from claimed where ${roomFor('watermark', '$6', '$11')}
         returning id
       )
       update watermark_items i set state = 'done', image_id = stored.id, output_url = $2, message = null from stored where i.id = $1 returning i.id`,
      [
        item.id,
        url,
        holding.name,
        holding.owner,
        holding.generation,
        job.user_id,
        `${item.product_id}-${item.idx + 1}.${extension}`,
        outcome.contentType,
        outcome.width,
        outcome.height,
        outcome.bytes.length,
        outcome.bytes,
        deps.now(),
        token,
        item.source_url,
      ],
    );
    // Not stored while still ours to make: the cap was in the way (a lost lease or a settled item fail nothing here).
    if (done.length === 0) await failItem(full);
  }

  async function sendCards(job: { id: number; user_id: number; send: boolean }) {
    if (!job.send) {
      await database.query(`update watermark_products set send = 'skipped', message = $2::jsonb where job_id = $1 and send = 'pending'`, [job.id, JSON.stringify(texts('notSent'))]);
      return;
    }
    for (;;) {
      if (stopping) return;
      const [product] = await database.query<{ product_id: string; failed: number; outputs: string[] }>(
        `select p.product_id,
           (select count(*)::int from watermark_items i where i.job_id = p.job_id and i.product_id = p.product_id and i.state <> 'done') as failed,
           coalesce((select array_agg(i.output_url order by i.idx) from watermark_items i where i.job_id = p.job_id and i.product_id = p.product_id and i.state = 'done'), '{}') as outputs
         from watermark_products p where p.job_id = $1 and p.send = 'pending' order by p.position limit 1`,
        [job.id],
      );
      if (!product) return;
      if (product.failed > 0) {
        await database.query(`update watermark_products set send = 'failed', message = $3::jsonb where job_id = $1 and product_id = $2`, [job.id, product.product_id, JSON.stringify(texts('picturesFailed'))]);
      } else {
        try {
          const answer = await deps.sendPictures(job.user_id, product.product_id, product.outputs);
          await database.query(`update watermark_products set send = 'sent', message = null, ozon = $3::jsonb where job_id = $1 and product_id = $2`, [
            job.id,
            product.product_id,
            JSON.stringify(answer.pictures),
          ]);
        } catch (error) {
          await database.query(`update watermark_products set send = 'failed', message = $3::jsonb where job_id = $1 and product_id = $2`, [job.id, product.product_id, JSON.stringify(reasonTexts(error))]);
        }
      }
      deps.notify?.(job.user_id, job.id);
    }
  }

  async function runJob(jobId: number): Promise<void> {
    const holding = await deps.leases.acquire(leaseName(jobId), LEASE_MS);
    if (!holding) return;
    try {
      const [job] = await database.query<{ id: number; user_id: number; mark: WatermarkSettings; picture: Uint8Array | null; send: boolean; public_base: string; kind: string }>(
        `select id, user_id, mark, picture, send, public_base, kind from watermark_jobs where id = $1 and state = 'running'`,
        [jobId],
      );
      if (!job) return;
      const mark: Mark = { settings: job.mark, picture: job.picture ? Buffer.from(job.picture) : null };
      for (;;) {
        if (stopping) return;
        const [item] = await database.query<{ id: number; product_id: string; idx: number; source_url: string }>(
          `select id, product_id, idx, source_url from watermark_items where job_id = $1 and state = 'pending' order by id limit 1`,
          [jobId],
        );
        if (!item) break;
        if (!(await deps.leases.renew(holding, LEASE_MS))) return;
        await makePicture(job, mark, item, holding);
        deps.notify?.(job.user_id, jobId);
        await deps.afterPicture?.(item.id);
      }
      await sendCards(job);
      if (stopping) return;
      await database.query(`update watermark_jobs set state = 'done', finished_at = $2 where id = $1 and state = 'running'`, [jobId, deps.now()]);
      deps.notify?.(job.user_id, jobId);
    } finally {
      await deps.leases.release(leaseName(jobId)).catch(() => undefined);
    }
  }

  return {
    apply,
    restore,
    list,
    detail,
    /** Takes up every job still running whose lease is free (at start, and on a timer for another instance's jobs). */
    async resumeAll(): Promise<void> {
      const rows = await database.query<{ id: number }>(`select id from watermark_jobs where state = 'running' order by id`);
      for (const { id } of rows) void start(id);
    },
    /** Resolves when every run this instance started has ended (tests). */
    async settled(): Promise<void> {
      while (running.size) await Promise.all([...running.values()]);
    },
    async stop(): Promise<void> {
      stopping = true;
      await Promise.all([...running.values()]);
    },
  };
}
export type WatermarkJobs = ReturnType<typeof createWatermarkJobs>;
