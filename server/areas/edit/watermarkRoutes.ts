import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import {
  WATERMARK_ENDPOINTS,
  WATERMARK_MESSAGES,
  WATERMARK_PICTURE_RULES,
  WATERMARK_TEMPLATES_MAX,
  watermarkSettingsSchema,
  type WatermarkTemplate,
} from '../../../contract/watermark';
import { createLeases } from '../../db/leases';
import { ApiError, SERVER_MESSAGES, ValidationFailure } from '../../http/errors';
import { route } from '../../http/route';
import { isPublicAddress } from '../../marketplace/baseUrl';
import { SIMULATOR_PREFIX } from '../../marketplace/plugin';
import { injectFetch } from '../../marketplace/simulator/injectFetch';
import { updateSkuImage, type ProductsDeps } from '../products/service';
import { clientForShop } from '../store/service';
import { applyWatermark } from './watermark';
import { createWatermarkJobs, productPictures, publicBaseOf, publicToken, settingsOf, templateMark, type WatermarkDeps, type WatermarkJobs } from './watermarkJobs';

export type WatermarkRoutesOptions = Pick<WatermarkDeps, 'afterPicture'> & {
  /** Replaces how originals are fetched (tests count and refuse fetches). */
  fetchPicture?: WatermarkDeps['fetchPicture'];
  /** Hands out this instance's jobs runner (tests wait for it and resume it as a restarted server would). */
  onJobs?: (jobs: WatermarkJobs) => void;
  /** How often running jobs whose lease ran out (another instance stopped) are taken up; 0: only at start. */
  resumeIntervalMs?: number;
};

const refuse = (key: keyof typeof WATERMARK_MESSAGES, field: string | null = null, code = 400) => new ApiError(code, WATERMARK_MESSAGES[key], field);
const PICTURE_MAX_BYTES = 15 * 1024 * 1024;
const SIMULATOR_HOSTS = new Set(['simulator', 'localhost', '127.0.0.1']);

type TemplateRow = Parameters<typeof settingsOf>[0] & { picture_type: string | null; updated_at: Date | string };
const templateOf = (row: TemplateRow): WatermarkTemplate => ({
  id: row.id,
  ...settingsOf(row),
  hasPicture: row.picture !== null,
  updatedAt: new Date(row.updated_at).toISOString(),
});
const TEMPLATE_COLUMNS = `id, name, kind, text, color, position, opacity, scale, margin, tile, picture, picture_type, updated_at`;

/** A PNG or JPEG within the template picture's rules; answers its content type. */
async function checkMarkPicture(bytes: Buffer): Promise<string> {
  if (bytes.length > WATERMARK_PICTURE_RULES.maxBytes) throw refuse('pictureTooLarge', 'file');
  const meta = await sharp(bytes)
    .metadata()
    .catch(() => null);
  const type = meta?.format === 'png' ? 'image/png' : meta?.format === 'jpeg' ? 'image/jpeg' : null;
  if (!meta || !type || !meta.width || !meta.height) throw refuse('pictureNotImage', 'file');
  const { minSide, maxSide } = WATERMARK_PICTURE_RULES;
  if (Math.min(meta.width, meta.height) < minSide || Math.max(meta.width, meta.height) > maxSide) throw refuse('pictureBadSize', 'file');
  return type;
}

/**
 * How the server reads an original picture: its own public pictures from the database, the embedded simulator's
 * in-process, anything else over HTTP(S) from a host that resolves to public addresses only (a card's picture
 * address is the seller's to set, so it must not point the server at its own network), without redirects.
 */
function pictureFetcher(app: FastifyInstance): WatermarkDeps['fetchPicture'] {
  const inProcess = injectFetch(app);
  const read = async (response: Response) => {
    if (!response.ok) throw new Error(`picture answered ${response.status}`);
    const bytes = Buffer.from(await response.arrayBuffer());
    if (bytes.length > PICTURE_MAX_BYTES) throw new Error('picture too large');
    return bytes;
  };
  return async (url) => {
    const token = publicToken(url);
    if (token) {
      const [row] = await app.database.query<{ bytes: Uint8Array }>(`select bytes from edit_images where public_token = $1`, [token]);
      if (row) return Buffer.from(row.bytes);
    }
    const parsed = new URL(url);
    // The embedded simulator names its pictures by the address it was reached at in-process.
    if (app.marketplace.simulator && SIMULATOR_HOSTS.has(parsed.hostname) && parsed.pathname.startsWith(`${SIMULATOR_PREFIX}/`)) return read(await inProcess(url));
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('not a web address');
    const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
    const allowed = app.config.ozonAllowedHosts.some((entry) => entry === host || entry === parsed.host);
    if (!allowed) {
      const addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
      if (addresses.length === 0 || !addresses.every(isPublicAddress)) throw new Error('picture host is not public');
    }
    return read(await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(20_000) }));
  };
}


/** Watermark templates, previews and jobs (contract/watermark.ts); every row scoped to its owner. */
export async function watermarkRoutes(app: FastifyInstance, options: WatermarkRoutesOptions = {}) {
  const q = app.database.query.bind(app.database);
  const productDeps: ProductsDeps = {
    database: app.database,
    now: () => app.now(),
    clientFor: async (userId, shopId) =>
      (await clientForShop({ database: app.database, secretKey: app.config.secretKey, clientFor: app.marketplace.clientFor }, userId, shopId)).client,
  };
  const fetchPicture = options.fetchPicture ?? pictureFetcher(app);
  const jobs = createWatermarkJobs({
    database: app.database,
    leases: createLeases(app.database),
    now: () => app.now(),
    fetchPicture,
    sendPictures: async (userId, productId, images) => {
      const { result, changed } = await updateSkuImage(productDeps, userId, { id: productId, images });
      if (changed) app.push.toAccount(userId, { type: 'products.changed' });
      return result;
    },
    log: app.log,
    afterPicture: options.afterPicture,
  });
  options.onJobs?.(jobs);
  let timer: ReturnType<typeof setInterval> | null = null;
  const resume = () => jobs.resumeAll().catch((error: unknown) => app.log.error({ err: error }, 'watermark resume failed'));
  app.addHook('onReady', async () => {
    // A start the database interrupts still starts: the timer takes the jobs up later.
    await resume();
    const every = options.resumeIntervalMs ?? 90_000;
    if (every > 0) {
      timer = setInterval(() => void resume(), every);
      timer.unref?.();
    }
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await jobs.stop();
  });
  const E = WATERMARK_ENDPOINTS;

  route(app, E.list, async ({ user }) => {
    const rows = await q<TemplateRow>(`select ${TEMPLATE_COLUMNS} from watermark_templates where user_id = $1 order by updated_at desc, id desc`, [user.accountId]);
    return { list: rows.map(templateOf) };
  });

  route(app, E.upload, async ({ user, request }) => {
    if (!request.isMultipart()) throw refuse('settingsInvalid', 'settings');
    const fields: Record<string, string> = {};
    let picture: Buffer | null = null;
    for await (const part of request.parts({ limits: { fieldSize: 4_000, fileSize: WATERMARK_PICTURE_RULES.maxBytes } })) {
      if (part.type === 'field') fields[part.fieldname] = String(part.value);
      else {
        const bytes = await part.toBuffer().catch(() => null);
        if (!bytes || part.file.truncated) throw refuse('pictureTooLarge', 'file');
        if (bytes.length > 0) picture = bytes;
      }
    }
    let raw: unknown;
    try {
      raw = JSON.parse(fields.settings ?? '');
    } catch {
      throw refuse('settingsInvalid', 'settings');
    }
    const parsed = watermarkSettingsSchema.safeParse(raw);
    if (!parsed.success) throw new ValidationFailure(`settings.${parsed.error.issues[0]?.path.join('.') ?? ''}`, SERVER_MESSAGES.invalid);
    const settings = parsed.data;
    const id = fields.id ? Number(fields.id) : null;
    if (id !== null && !(Number.isInteger(id) && id > 0)) throw refuse('templateNotFound', 'id', 404);
    const [existing] = id === null ? [] : await q<{ has_picture: boolean }>(`select picture is not null as has_picture from watermark_templates where id = $1 and user_id = $2`, [id, user.accountId]);
    if (id !== null && !existing) throw refuse('templateNotFound', 'id', 404);
    if (settings.kind === 'text' && !settings.text) throw refuse('textNeeded', 'settings.text');
    const pictureType = picture ? await checkMarkPicture(picture) : null;
    if (settings.kind === 'image' && !picture && !existing?.has_picture) throw refuse('pictureNeeded', 'file');
    const values = [user.accountId, settings.name, settings.kind, settings.text, settings.color, settings.position, settings.opacity, settings.scale, settings.margin, settings.tile, picture, pictureType, app.now()];
    let rows: TemplateRow[];
    if (id === null) {
      const [{ n } = { n: 0 }] = await q<{ n: number }>(`select count(*)::int as n from watermark_templates where user_id = $1`, [user.accountId]);
      if (n >= WATERMARK_TEMPLATES_MAX) throw refuse('templatesFull');
      rows = await q<TemplateRow>(
        `insert into watermark_templates (user_id, name, kind, text, color, position, opacity, scale, margin, tile, picture, picture_type, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) returning ${TEMPLATE_COLUMNS}`,
        values,
      );
    } else {
      // A text template drops its picture; a picture template without a new file keeps the one it has.
      rows = await q<TemplateRow>(
        `update watermark_templates set name = $2, kind = $3, text = $4, color = $5, position = $6, opacity = $7, scale = $8, margin = $9, tile = $10,
           picture = case when $3 = 'text' then null else coalesce($11, picture) end,
           picture_type = case when $3 = 'text' then null else coalesce($12, picture_type) end,
           updated_at = $13
         where user_id = $1 and id = $14 returning ${TEMPLATE_COLUMNS}`,
        [...values, id],
      );
    }
    return templateOf(rows[0]!);
  });

  route(app, E.delete, async ({ user, input }) => {
    const rows = await q<{ id: number }>(`delete from watermark_templates where id = $1 and user_id = $2 returning id`, [input.id, user.accountId]);
    if (!rows[0]) throw refuse('templateNotFound', 'id', 404);
    return { id: rows[0].id };
  });

  route(app, E.picture, async ({ user, params, reply }) => {
    const [row] = await q<{ picture: Uint8Array | null; picture_type: string | null }>(`select picture, picture_type from watermark_templates where id = $1 and user_id = $2`, [params.id, user.accountId]);
    if (!row?.picture) throw refuse('templateNotFound', 'id', 404);
    return reply
      .header('Content-Type', row.picture_type ?? 'image/png')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, no-cache')
      .send(Buffer.from(row.picture));
  });

  route(app, E.preview, async ({ user, input, reply }) => {
    const { mark } = await templateMark(app.database, user.accountId, input.templateId);
    const [product] = await productPictures(app.database, user.accountId, null, [input.productId]);
    if (!product) throw refuse('productNotFound', 'productId', 404);
    const source = product.images[Math.min(input.picture, product.images.length - 1)];
    if (!source) throw refuse('productHasNoPictures', 'productId');
    let original: Buffer;
    try {
      original = await fetchPicture(source);
    } catch {
      throw refuse('pictureFetchFailed', 'productId', 502);
    }
    const made = await applyWatermark(original, mark).catch(() => {
      throw refuse('pictureUnreadable', 'productId');
    });
    return reply.header('Content-Type', made.contentType).header('Cache-Control', 'no-store').send(made.bytes);
  });

  route(app, E.apply, async ({ user, input, request }) => jobs.apply(user.accountId, input, publicBaseOf(request)));
  route(app, E.restore, async ({ user, input, request }) => jobs.restore(user.accountId, input.id, publicBaseOf(request)));
  route(app, E.jobs, async ({ user }) => ({ list: await jobs.list(user.accountId) }));
  route(app, E.job, async ({ user, input, lang }) => jobs.detail(user.accountId, input.id, lang));

  route(app, E.publicPicture, async ({ params, reply }) => {
    const token = params.token.replace(/\.(png|jpg)$/, '');
    const [row] = await q<{ bytes: Uint8Array; content_type: string }>(`select bytes, content_type from edit_images where public_token = $1`, [token]);
    if (!row) throw refuse('pictureNotFound', 'token', 404);
    return reply
      .header('Content-Type', row.content_type)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .send(Buffer.from(row.bytes));
  });
}
