import type { MessageParams } from '../../../contract/errors';
import { PRODUCT_PICTURE_RETENTION_DAYS, PRODUCT_PICTURES_CAP } from '../../../contract/products';
import { PUBLIC_PICTURE_PATH, WATERMARK_PICTURE_RETENTION_DAYS, WATERMARK_PICTURES_CAP } from '../../../contract/watermark';
import type { Database } from '../../db/database';
import type { Leases } from '../../db/leases';
import { createLeasedSchedule } from '../../db/schedule';
import { ApiError } from '../../http/errors';

/**
 * The pictures we keep in edit_images and serve at a public address for Ozon to fetch: those sellers upload for
 * their products' cards (/product/image/upload, origin 'product') and those watermark jobs make (origin 'watermark').
 * Each seller keeps at most the origin's cap; a scheduled cleanup deletes those older than the origin's retention
 * that nothing refers to any more.
 */
export const SERVED_PICTURES = {
  product: { cap: PRODUCT_PICTURES_CAP, retentionDays: PRODUCT_PICTURE_RETENTION_DAYS, full: 'productPicturesFull' },
  watermark: { cap: WATERMARK_PICTURES_CAP, retentionDays: WATERMARK_PICTURE_RETENTION_DAYS, full: 'watermarkPicturesFull' },
} as const;
export type ServedOrigin = keyof typeof SERVED_PICTURES;

const mb = (bytes: number) => (bytes >= 1024 ** 3 ? `${Math.round(bytes / 1024 ** 3)} GB` : `${Math.round(bytes / 1024 / 1024)} MB`);

/** The cap's figures as the catalogue's texts name them ({count}, {size}, {days}). */
export function capParams(origin: ServedOrigin): MessageParams {
  const { cap, retentionDays } = SERVED_PICTURES[origin];
  return { count: String(cap.count), size: mb(cap.bytes), days: String(retentionDays) };
}

/**
 * A SQL condition: the user (`userId`, a parameter) may store one more picture of `origin` of `size` bytes (a
 * parameter). Put in the statement that stores the picture, so two stores at once cannot both slip under it by much.
 */
export function roomFor(origin: ServedOrigin, userId: string, size: string): string {
  const { cap } = SERVED_PICTURES[origin];
  return `(select count(*) < ${cap.count} and coalesce(sum(size), 0) + ${size}::int <= ${cap.bytes}::bigint from edit_images where user_id = ${userId} and origin = '${origin}')`;
}


type NewPicture = { name: string; contentType: string; width: number; height: number; bytes: Buffer; token: string; now: Date };

/** Stores an uploaded picture unless it would take the seller past the cap. */
export async function storeProductPicture(database: Database, userId: number, picture: NewPicture): Promise<void> {
  const rows = await database.query<{ id: number }>(
    `insert into edit_images (user_id, name, content_type, width, height, size, bytes, created_at, origin, public_token)
     select $1, $2, $3, $4, $5, $6::int, $7, $8, 'product', $9
     where ${roomFor('product', '$1', '$6')}
     returning id`,
    [userId, picture.name, picture.contentType, picture.width, picture.height, picture.bytes.length, picture.bytes, picture.now, picture.token],
  );
  if (rows.length === 0) throw new ApiError(400, { key: SERVED_PICTURES.product.full, params: capParams('product') }, 'file');
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A public picture's token inside any text that holds its address (contract: publicToken in watermarkJobs.ts). */
const TOKEN_PATTERN = `${escapeRegex(PUBLIC_PICTURE_PATH)}([A-Za-z0-9_-]{16,64})\\.(?:png|jpg)`;
/** Pictures looked at per round of the cleanup. */
const CLEANUP_ROUND = 500;

/**
 * Deletes the pictures of `origin` made before `cutoff` that no product card of their owner refers to (its main
 * picture, or its pictures as last synced or sent) and no job that may still send them (a re-upload not done, a
 * watermark job's originals, a running watermark job's made pictures). Answers how many went. Each round reads the
 * owners' references once, so its cost follows the owners' catalogues, not catalogue times candidates.
 */
export async function removeUnusedPictures(database: Database, origin: ServedOrigin, cutoff: Date): Promise<number> {
  let removed = 0;
  let after = 0;
  for (;;) {
    const candidates = await database.query<{ id: number }>(
      `select id from edit_images where origin = $4 and created_at < $1 and id > $2 order by id limit $3`,
      [cutoff, after, CLEANUP_ROUND, origin],
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
         union all
         select w.output_url from watermark_items w join watermark_jobs j on j.id = w.job_id
           where j.user_id in (select user_id from owners) and j.state = 'running' and strpos(w.output_url, $3) > 0
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

/** The cleanup's schedule: every `intervalMs` one server instance (the lease's holder) removes unused pictures of every origin. */
export function createPictureCleanup(options: PictureCleanupOptions) {
  return createLeasedSchedule({
    leases: options.leases,
    name: PICTURE_CLEANUP_LEASE,
    intervalMs: options.intervalMs,
    idle: 0,
    log: options.log,
    run: async () => {
      let removed = 0;
      for (const [origin, { retentionDays }] of Object.entries(SERVED_PICTURES) as [ServedOrigin, (typeof SERVED_PICTURES)[ServedOrigin]][]) {
        const cutoff = new Date(options.now().getTime() - retentionDays * 24 * 60 * 60_000);
        const gone = await removeUnusedPictures(options.database, origin, cutoff);
        if (gone > 0) options.log.info({ removed: gone, origin }, 'unused served pictures removed');
        removed += gone;
      }
      return removed;
    },
  });
}
export type PictureCleanup = ReturnType<typeof createPictureCleanup>;
