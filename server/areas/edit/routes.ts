import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { EDIT_ENDPOINTS, type DesignSummary, type EditImage } from '../../../contract/edit';
import { route } from '../../http/route';
import { ownRecordsSql } from '../team/shopScope';
import { fail, PICTURE_UPLOAD_LIMITS, readUploadedImage } from './imageRules';
import { newPictureToken, publicBaseOf, publicPictureUrl } from './watermarkJobs';
import { watermarkRoutes, type WatermarkRoutesOptions } from './watermarkRoutes';

type DesignRow = { id: number; name: string; width: number; height: number; thumbnail: string; updated_at: Date | string };
type ImageRow = { id: number; name: string; width: number; height: number; size: number; content_type: string; created_at: Date | string };

const iso = (value: Date | string) => new Date(value).toISOString();
const summaryOf = (row: DesignRow): DesignSummary => ({ id: row.id, name: row.name, width: row.width, height: row.height, thumbnail: row.thumbnail, updatedAt: iso(row.updated_at) });
const imageOf = (row: ImageRow): EditImage => ({ id: row.id, name: row.name, width: row.width, height: row.height, size: row.size, contentType: row.content_type, createdAt: iso(row.created_at) });

/**
 * Image editing: the designer's designs and the stored edited images. Every row carries its owner; every query is
 * scoped to the signed-in user, so another user's id answers "not found" exactly like a missing one. A member whose
 * role keeps them to their own records reaches only the designs and uploads they made (created_by), the same way.
 */
export type EditRoutesOptions = WatermarkRoutesOptions;

export async function editRoutes(app: FastifyInstance, options: EditRoutesOptions = {}) {
  await app.register(multipart, PICTURE_UPLOAD_LIMITS);
  const q = app.database.query.bind(app.database);
  const E = EDIT_ENDPOINTS;
  const ownDesigns = () => ownRecordsSql('created_by');
  // Pictures a watermark job or the product list's image action made are the shops' (reached by shop scope).
  const ownUploads = () => ownRecordsSql('created_by', "origin <> 'upload'");
  await watermarkRoutes(app, options);

  route(app, E.designs, async ({ user }) => {
    const rows = await q<DesignRow>(`select id, name, width, height, thumbnail, updated_at from edit_designs where user_id = $1${ownDesigns()} order by updated_at desc, id desc limit 500`, [user.accountId]);
    return { list: rows.map(summaryOf) };
  });

  route(app, E.design, async ({ user, input }) => {
    const [row] = await q<DesignRow & { json: string }>(`select id, name, width, height, thumbnail, json, updated_at from edit_designs where id = $1 and user_id = $2${ownDesigns()}`, [input.id, user.accountId]);
    if (!row) throw fail(404, 'designNotFound', 'id');
    return { id: row.id, name: row.name, width: row.width, height: row.height, json: row.json, updatedAt: iso(row.updated_at) };
  });

  route(app, E.saveDesign, async ({ user, input }) => {
    try {
      const parsed: unknown = JSON.parse(input.json);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    } catch {
      throw fail(400, 'designNotJson', 'json');
    }
    const values = [user.accountId, input.name, input.width, input.height, input.json, input.thumbnail, app.now()];
    const rows =
      input.id === undefined
        ? await q<DesignRow>(
            `insert into edit_designs (user_id, name, width, height, json, thumbnail, updated_at, created_by) values ($1, $2, $3, $4, $5, $6, $7, $8)
             returning id, name, width, height, thumbnail, updated_at`,
            [...values, user.id],
          )
        : await q<DesignRow>(
            `update edit_designs set name = $2, width = $3, height = $4, json = $5, thumbnail = $6, updated_at = $7 where user_id = $1 and id = $8${ownDesigns()}
             returning id, name, width, height, thumbnail, updated_at`,
            [...values, input.id],
          );
    if (!rows[0]) throw fail(404, 'designNotFound', 'id');
    return summaryOf(rows[0]);
  });

  route(app, E.deleteDesign, async ({ user, input }) => {
    const rows = await q<{ id: number }>(`delete from edit_designs where id = $1 and user_id = $2${ownDesigns()} returning id`, [input.id, user.accountId]);
    if (!rows[0]) throw fail(404, 'designNotFound', 'id');
    return { id: rows[0].id };
  });

  route(app, E.upload, async ({ user, request }) => {
    const { bytes, name, contentType, width, height } = await readUploadedImage(request);
    const [row] = await q<ImageRow>(
      `insert into edit_images (user_id, name, content_type, width, height, size, bytes, created_at, created_by) values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       returning id, name, width, height, size, content_type, created_at`,
      [user.accountId, name, contentType, width, height, bytes.length, bytes, app.now(), user.id],
    );
    return imageOf(row!);
  });

  route(app, E.images, async ({ user }) => {
    const rows = await q<ImageRow>(`select id, name, width, height, size, content_type, created_at from edit_images where user_id = $1 and origin = 'upload'${ownUploads()} order by created_at desc, id desc limit 500`, [user.accountId]);
    return { list: rows.map(imageOf) };
  });

  route(app, E.publishImage, async ({ user, input, request }) => {
    // The first call gives the token; later calls (a retry, another product) answer the same address.
    const [row] = await q<{ id: number; public_token: string; content_type: string }>(
      `update edit_images set public_token = coalesce(public_token, $3) where id = $1 and user_id = $2${ownUploads()} returning id, public_token, content_type`,
      [input.id, user.accountId, newPictureToken()],
    );
    if (!row) throw fail(404, 'imageNotFound', 'id');
    return { id: row.id, url: publicPictureUrl(publicBaseOf(request), row.public_token, row.content_type) };
  });

  route(app, E.image, async ({ user, params, reply }) => {
    const [row] = await q<{ bytes: Uint8Array; content_type: string }>(`select bytes, content_type from edit_images where id = $1 and user_id = $2${ownUploads()}`, [params.id, user.accountId]);
    if (!row) throw fail(404, 'imageNotFound', 'id');
    return reply
      .header('Content-Type', row.content_type)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, max-age=86400')
      .send(Buffer.from(row.bytes));
  });
}
