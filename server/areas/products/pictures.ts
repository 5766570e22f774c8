import { PRODUCT_PICTURE_RETENTION_DAYS, PRODUCT_PICTURES_CAP } from '../../../contract/products';
import type { Database } from '../../db/database';
import type { Leases } from '../../db/leases';
import { createLeasedSchedule } from '../../db/schedule';
import { ApiError } from '../../http/errors';
import { PUBLIC_PICTURE_PATH } from '../edit/watermarkJobs';

/**
 * Pictures sellers upload for their products' cards (/product/image/upload): kept in edit_images with origin
 * 'product' and served at a public address for Ozon to fetch. Each seller keeps at most PRODUCT_PICTURES_CAP; a
 * scheduled cleanup deletes those older than PRODUCT_PICTURE_RETENTION_DAYS that nothing refers to any more.
 */

type NewPicture = { name: string; contentType: string; width: number; height: number; bytes: Buffer; token: string; now: Date };

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/**
 * Stores an uploaded picture unless it would take the seller past the cap (one statement: two uploads at once
 * cannot both slip under it by much).
 */
export async function storeProductPicture(database: Database, userId: number, picture: NewPicture): Promise<void> {
  const rows = await database.query<{ id: number }>(
    `insert into edit_images (user_id, name, content_type, width, height, size, bytes, created_at, origin, public_token)
     select $1, $2, $3, $4, $5, $6::int, $7, $8, 'product', $9
     where (select count(*) < $10::int and coalesce(sum(size), 0) + $6::int <= $11::bigint from edit_images where user_id = $1 and origin = 'product')
     returning id`,
    [userId, picture.name, picture.contentType, picture.width, picture.height, picture.bytes.length, picture.bytes, picture.now, picture.token, PRODUCT_PICTURES_CAP.count, PRODUCT_PICTURES_CAP.bytes],
  );
  if (rows.length === 0) {
    throw new ApiError(400, { key: 'productPicturesFull', params: { count: String(PRODUCT_PICTURES_CAP.count), size: mb(PRODUCT_PICTURES_CAP.bytes), days: String(PRODUCT_PICTURE_RETENTION_DAYS) } }, 'file');
  }
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A public picture's token inside any text that holds its address (contract: publicToken in watermarkJobs.ts). */
const TOKEN_PATTERN = `${escapeRegex(PUBLIC_PICTURE_PATH)}([A-Za-z0-9_-]{16,64})\\.(?:png|jpg)`;
/** Pictures looked at per round of the cleanup. */
const CLEANUP_ROUND = 500;

/**
 * Deletes uploaded product pictures made before `cutoff` that no product card of their owner refers to (its main
 * picture, or its pictures as last synced or sent) and no job that may still send them (a re-upload not done, a
 * watermark job's originals). Answers how many went. Each round reads the owners' references once, so its cost
 * follows the owners' catalogues, not catalogue times candidates.
 */
export async function removeUnusedPictures(database: Database, cutoff: Date): Promise<number> {
  let removed = 0;
  let after = 0;
  for (;;) {
    const candidates = await database.query<{ id: number }>(
      `select id from edit_images where origin = 'product' and created_at < $1 and id > $2 order by id limit $3`,
      [cutoff, after, CLEANUP_ROUND],
    );
    if (candidates.length === 0) return removed;
    const ids = candidates.map((c) => c.id);
    after = ids[ids.length - 1]!;
    const gone = await database.query<{ id: number }>(
      `with candidates as (select id, user_id, public_token from edit_images where id = any($1::int[])),
       owners as (select distinct user_id from candidates),
       texts as (
         select p.image as text from products p where p.user_id in (select user_id from owners) and not p.deleted and strpos(p.image, $3) > 0
         union all
         select r.data #>> '{info,images}' from mp_records r join mp_shops s on s.id = r.shop_id
           where s.user_id in (select user_id from owners) and r.entity = 'products' and strpos(r.data #>> '{info,images}', $3) > 0
         union all
         select i.card #>> '{item,images}' from reupload_items i where i.user_id in (select user_id from owners) and i.step <> 'done' and i.card is not null
         union all
         select w.source_url from watermark_items w join watermark_jobs j on j.id = w.job_id where j.user_id in (select user_id from owners) and strpos(w.source_url, $3) > 0
       ),
       referenced as (select distinct (regexp_matches(t.text, $2, 'g'))[1] as token from texts t where t.text is not null)
       delete from edit_images e using candidates c
       where e.id = c.id and (c.public_token is null or c.public_token not in (select token from referenced where token is not null))
       returning e.id`,
      [ids, TOKEN_PATTERN, PUBLIC_PICTURE_PATH],
    );
    removed += gone.length;
  }
}

export const PICTURE_CLEANUP_LEASE = 'product-picture-cleanup';
export const PICTURE_CLEANUP_INTERVAL_MS = 6 * 60 * 60_000;

export type PictureCleanupOptions = {
  database: Database;
  leases: Leases;
  now: () => Date;
  /** 0 or less: no timer, `tick()` only (tests). */
  intervalMs: number;
  log: { info(object: unknown, message: string): void; error(object: unknown, message: string): void };
};

/** The cleanup's schedule: every `intervalMs` one server instance (the lease's holder) removes unused pictures. */
export function createPictureCleanup(options: PictureCleanupOptions) {
  return createLeasedSchedule({
    leases: options.leases,
    name: PICTURE_CLEANUP_LEASE,
    intervalMs: options.intervalMs,
    idle: 0,
    log: options.log,
    run: async () => {
      const cutoff = new Date(options.now().getTime() - PRODUCT_PICTURE_RETENTION_DAYS * 24 * 60 * 60_000);
      const removed = await removeUnusedPictures(options.database, cutoff);
      if (removed > 0) options.log.info({ removed }, 'unused product pictures removed');
      return removed;
    },
  });
}
export type PictureCleanup = ReturnType<typeof createPictureCleanup>;
