import { z } from 'zod';
import { defineEndpoint, routePaths } from './endpoint';
import type { Localized } from './errors';
import { looseRowId, rowId } from './fields';
import { lazySchema } from './lazySchema';

/**
 * Watermarks (seller-tool /waterMarker/upload, /waterMarker/delete, issue 33): templates saved per user (a picture or
 * a line of text, where it goes, its size relative to the image, opacity, margin, tiling), previewed on a product's
 * picture, then applied on the server to every picture of a shop's products as a job that survives a restart.
 * The originals are kept (each item names its source), so the job's pictures can be put back on Ozon.
 */

export const WATERMARK_POSITIONS = ['top-left', 'top', 'top-right', 'left', 'center', 'right', 'bottom-left', 'bottom', 'bottom-right'] as const;
export type WatermarkPosition = (typeof WATERMARK_POSITIONS)[number];
export const WATERMARK_KINDS = ['text', 'image'] as const;
export type WatermarkKind = (typeof WATERMARK_KINDS)[number];

/** A template's picture: PNG (transparency kept) or JPEG, at most 2 MB, sides 16–4000 px. */
export const WATERMARK_PICTURE_RULES = { maxBytes: 2 * 1024 * 1024, minSide: 16, maxSide: 4_000 } as const;
/** Products one job may take (a whole shop of the demo's size and then some); more go in another job. */
export const WATERMARK_JOB_MAX_PRODUCTS = 5_000;
/** Templates one user keeps. */
export const WATERMARK_TEMPLATES_MAX = 50;
/**
 * What one seller may keep of the pictures watermark jobs made (served for Ozon to fetch): a job that would pass it is
 * refused before it starts, a picture past it fails with the reason. Larger than uploaded product pictures' cap
 * (contract/products.ts) because one job makes a picture per picture of up to WATERMARK_JOB_MAX_PRODUCTS products.
 */
export const WATERMARK_PICTURES_CAP = { count: 10_000, bytes: 2 * 1024 * 1024 * 1024 } as const;
/**
 * Made pictures that no card (as last synced or sent), no unfinished re-upload and no running job refers to are
 * deleted this long after they were made; Ozon keeps its own copy of a picture it imported.
 */
export const WATERMARK_PICTURE_RETENTION_DAYS = 30;

export const WATERMARK_MESSAGES = {
  templateNotFound: { zh: '水印模板不存在或已被删除', en: 'The watermark template does not exist or has been deleted', pt: 'O modelo de marca d\'água não existe ou foi excluído' },
  templatesFull: { zh: '水印模板最多50个，请先删除不用的模板', en: 'You can keep at most 50 watermark templates; delete one you no longer use first', pt: 'Você pode ter no máximo 50 modelos de marca d\'água; exclua primeiro um que não usa mais' },
  pictureNeeded: { zh: '图片水印需要上传一张PNG或JPG图片', en: 'A picture watermark needs a PNG or JPG picture', pt: 'Uma marca d\'água de imagem precisa de uma imagem PNG ou JPG' },
  pictureNotImage: { zh: '水印图片不是PNG或JPG图片', en: 'The watermark picture is not a PNG or JPG image', pt: 'A imagem da marca d\'água não é PNG nem JPG' },
  pictureTooLarge: { zh: '水印图片不能超过2MB', en: 'The watermark picture must not be larger than 2 MB', pt: 'A imagem da marca d\'água não pode passar de 2 MB' },
  pictureBadSize: { zh: '水印图片边长须在16到4000像素之间', en: 'Each side of the watermark picture must be 16 to 4000 px', pt: 'Cada lado da imagem da marca d\'água deve ter de 16 a 4000 px' },
  textNeeded: { zh: '文字水印需要填写文字', en: 'A text watermark needs its text', pt: 'Uma marca d\'água de texto precisa do texto' },
  settingsInvalid: { zh: '水印设置无效', en: 'The watermark settings are not valid', pt: 'As configurações da marca d\'água não são válidas' },
  productNotFound: { zh: '商品不存在或不属于你的店铺', en: 'The product does not exist or is not in your shops', pt: 'O produto não existe ou não está nas suas lojas' },
  productHasNoPictures: { zh: '该商品没有图片', en: 'This product has no pictures', pt: 'Este produto não tem imagens' },
  noProducts: { zh: '所选店铺没有可加水印的商品图片', en: 'The chosen products have no pictures to watermark', pt: 'Os produtos escolhidos não têm imagens para marcar' },
  jobNotFound: { zh: '水印任务不存在', en: 'The watermark job does not exist', pt: 'A tarefa de marca d\'água não existe' },
  jobRunning: { zh: '任务仍在进行，请等待完成', en: 'The job is still running; wait until it is done', pt: 'A tarefa ainda está em andamento; aguarde o fim' },
  pictureFetchFailed: { zh: '原图下载失败', en: 'The original picture could not be downloaded', pt: 'Não foi possível baixar a imagem original' },
  pictureUnreadable: { zh: '原图不是可读的图片', en: 'The original picture is not a readable image', pt: 'A imagem original não é uma imagem legível' },
  pictureOutOfRules: { zh: '加水印后的图片不符合Ozon的图片要求', en: "The watermarked picture does not meet Ozon's picture rules", pt: 'A imagem com marca d\'água não atende às regras de imagem da Ozon' },
  picturesFailed: { zh: '有图片未能加水印，未提交到Ozon', en: 'Some pictures could not be watermarked; nothing was sent to Ozon', pt: 'Algumas imagens não puderam receber a marca d\'água; nada foi enviado à Ozon' },
  notSent: { zh: '未提交到Ozon（仅生成图片）', en: 'Not sent to Ozon (pictures made only)', pt: 'Não enviado à Ozon (só as imagens foram geradas)' },
  pictureNotFound: { zh: '图片不存在', en: 'The picture does not exist', pt: 'A imagem não existe' },
} as const satisfies Record<string, Localized>;

const hexColor = () => z.string().regex(/^#[0-9a-fA-F]{6}$/, 'invalid colour');

/** A template's settings as the seller chose them (the picture itself travels as the multipart file). */
export const watermarkSettingsSchema = lazySchema(() =>
  z.object({
    name: z.string().trim().min(1).max(40),
    kind: z.enum(WATERMARK_KINDS),
    /** The text of a text watermark ('' for a picture). */
    text: z.string().trim().max(60).default(''),
    color: hexColor().default('#ffffff'),
    position: z.enum(WATERMARK_POSITIONS).default('bottom-right'),
    /** 0.05 (barely there) to 1 (opaque). */
    opacity: z.number().min(0.05).max(1).default(0.6),
    /** The watermark's width as a share of the image's width. */
    scale: z.number().min(0.05).max(1).default(0.3),
    /** Space from the image's edges (and between tiles) as a share of the image's shorter side. */
    margin: z.number().min(0).max(0.25).default(0.03),
    /** Repeat the watermark over the whole image instead of placing it once. */
    tile: z.boolean().default(false),
  }),
);
export type WatermarkSettings = z.output<typeof watermarkSettingsSchema>;
export type WatermarkSettingsInput = z.input<typeof watermarkSettingsSchema>;

export const watermarkTemplateSchema = lazySchema(() =>
  z.object({
    id: rowId(),
    name: z.string(),
    kind: z.enum(WATERMARK_KINDS),
    text: z.string(),
    color: z.string(),
    position: z.enum(WATERMARK_POSITIONS),
    opacity: z.number(),
    scale: z.number(),
    margin: z.number(),
    tile: z.boolean(),
    /** Whether the template has a picture (GET /waterMarker/picture/:id). */
    hasPicture: z.boolean(),
    updatedAt: z.string(),
  }),
);
export type WatermarkTemplate = z.infer<typeof watermarkTemplateSchema>;

/** Multipart fields of /waterMarker/upload: `settings` (JSON of watermarkSettingsSchema), optional `id` to replace one. */
export const watermarkUploadFieldsSchema = lazySchema(() => z.object({ settings: z.string().max(2_000), id: z.string().optional() }));

export const watermarkIdSchema = lazySchema(() => z.object({ id: looseRowId() }));

export const watermarkPreviewBodySchema = lazySchema(() =>
  z.object({ templateId: looseRowId(), productId: z.string().min(1).max(200), picture: z.number().int().min(0).max(29).default(0) }),
);

export const watermarkApplyBodySchema = lazySchema(() =>
  z.object({
    templateId: looseRowId(),
    shopId: looseRowId(),
    /** The products to watermark (ids of the product list); absent: every product of the shop that has pictures. */
    productIds: z.array(z.string().min(1).max(200)).min(1).max(WATERMARK_JOB_MAX_PRODUCTS).optional(),
    /** Put the watermarked pictures on the Ozon cards (pictures import); false: only make them. */
    send: z.boolean().default(true),
  }),
);
export type WatermarkApplyBody = z.input<typeof watermarkApplyBodySchema>;

export const WATERMARK_JOB_STATES = ['running', 'done', 'failed'] as const;
export type WatermarkJobState = (typeof WATERMARK_JOB_STATES)[number];
export const WATERMARK_ITEM_STATES = ['pending', 'done', 'failed'] as const;
export type WatermarkItemState = (typeof WATERMARK_ITEM_STATES)[number];
/** A product's card on Ozon: waiting for its pictures, sent (Ozon's answer below), failed with the reason, or not sent. */
export const WATERMARK_SEND_STATES = ['pending', 'sent', 'failed', 'skipped'] as const;
export type WatermarkSendState = (typeof WATERMARK_SEND_STATES)[number];

export const watermarkJobSchema = lazySchema(() =>
  z.object({
    id: rowId(),
    shopId: z.number().int(),
    shopName: z.string(),
    templateName: z.string(),
    /** Restoring puts the originals back; a watermarking job makes and sends watermarked pictures. */
    kind: z.enum(['watermark', 'restore']),
    send: z.boolean(),
    state: z.enum(WATERMARK_JOB_STATES),
    products: z.number().int(),
    pictures: z.number().int(),
    picturesDone: z.number().int(),
    picturesFailed: z.number().int(),
    productsSent: z.number().int(),
    productsFailed: z.number().int(),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
  }),
);
export type WatermarkJob = z.infer<typeof watermarkJobSchema>;

export const watermarkJobProductSchema = lazySchema(() =>
  z.object({
    productId: z.string(),
    offerId: z.string(),
    name: z.string(),
    pictures: z.array(
      z.object({
        index: z.number().int(),
        source: z.string(),
        /** The watermarked picture's public address (what Ozon fetches), once made. */
        output: z.string().nullable(),
        state: z.enum(WATERMARK_ITEM_STATES),
        message: z.string(),
      }),
    ),
    send: z.enum(WATERMARK_SEND_STATES),
    /** Why the card was not changed, or '' . */
    sendMessage: z.string(),
    /** Ozon's answer per picture after the import. */
    ozon: z.array(z.object({ url: z.string(), state: z.string(), primary: z.boolean() })),
  }),
);
export type WatermarkJobProduct = z.infer<typeof watermarkJobProductSchema>;

export const watermarkJobDetailSchema = lazySchema(() => z.object({ job: watermarkJobSchema, products: z.array(watermarkJobProductSchema) }));
export type WatermarkJobDetail = z.infer<typeof watermarkJobDetailSchema>;

export const publicPictureParamsSchema = lazySchema(() => z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{16,64}\.(png|jpg)$/) }));

/** Watermark templates and jobs, each its owner's only; the made pictures are public by unguessable address (Ozon fetches them). */
export const WATERMARK_ENDPOINTS = {
  list: defineEndpoint({
    method: 'GET',
    path: '/waterMarker/list',
    summary: "The signed-in user's watermark templates, newest first.",
    access: 'editImage',
    answer: lazySchema(() => z.object({ list: z.array(watermarkTemplateSchema) })),
  }),
  upload: defineEndpoint({
    method: 'POST',
    path: '/waterMarker/upload',
    summary: 'Saves a watermark template (multipart: `settings` JSON and optional `id`, then the picture `file` of a picture watermark).',
    access: 'editImage',
    action: 'edit',
    multipart: { fields: watermarkUploadFieldsSchema, file: 'file' },
    answer: watermarkTemplateSchema,
    settings: { timeout: 60_000, retries: 0 },
  }),
  delete: defineEndpoint({
    method: 'POST',
    path: '/waterMarker/delete',
    summary: 'Deletes one of the user\'s watermark templates (jobs already made keep what they used).',
    access: 'editImage',
    action: 'delete',
    input: watermarkIdSchema,
    answer: lazySchema(() => z.object({ id: rowId() })),
  }),
  picture: defineEndpoint({
    method: 'GET',
    path: '/waterMarker/picture/:id',
    summary: "A template's picture.",
    access: 'editImage',
    params: watermarkIdSchema,
    raw: { contentType: 'image/png', description: 'The picture (PNG or JPEG).' },
    settings: { responseType: 'blob', silent: true },
  }),
  preview: defineEndpoint({
    method: 'POST',
    path: '/waterMarker/preview',
    summary: "One of a product's pictures with the template applied, exactly as the job would make it.",
    access: 'editImage',
    action: 'view',
    input: watermarkPreviewBodySchema,
    raw: { contentType: 'image/jpeg', description: 'The watermarked picture (JPEG or PNG as the original).' },
    settings: { responseType: 'blob', timeout: 30_000, silent: true, cancellable: true },
  }),
  apply: defineEndpoint({
    method: 'POST',
    path: '/waterMarker/apply',
    summary: "Starts a job watermarking every picture of the chosen products of a shop (or all of them), and putting them on the Ozon cards.",
    access: 'editImage',
    action: 'edit',
    input: watermarkApplyBodySchema,
    answer: watermarkJobSchema,
    settings: { timeout: 60_000, retries: 0 },
  }),
  restore: defineEndpoint({
    method: 'POST',
    path: '/waterMarker/restore',
    summary: "Starts a job putting a finished job's original pictures back on its products' Ozon cards.",
    access: 'editImage',
    action: 'edit',
    input: watermarkIdSchema,
    answer: watermarkJobSchema,
    settings: { timeout: 60_000, retries: 0 },
  }),
  jobs: defineEndpoint({
    method: 'GET',
    path: '/waterMarker/jobs',
    summary: "The user's watermark jobs, newest first (the latest 50).",
    access: 'editImage',
    answer: lazySchema(() => z.object({ list: z.array(watermarkJobSchema) })),
  }),
  job: defineEndpoint({
    method: 'GET',
    path: '/waterMarker/job',
    summary: 'One job with each product\'s pictures (source, result, state) and Ozon\'s answer.',
    access: 'editImage',
    input: watermarkIdSchema,
    answer: watermarkJobDetailSchema,
    settings: { silent: true },
  }),
  publicPicture: defineEndpoint({
    method: 'GET',
    path: '/edit/picture/:token',
    summary: 'A made picture by its unguessable address, without a session: what Ozon fetches when it imports the picture.',
    access: 'public',
    params: publicPictureParamsSchema,
    raw: { contentType: 'image/jpeg', description: 'The picture (JPEG or PNG).' },
    settings: { responseType: 'blob' },
  }),
} as const;

export const WATERMARK_PATHS = routePaths(WATERMARK_ENDPOINTS);
/** Where our served pictures (made by jobs, uploaded for cards) live without a session: the path before the token. */
export const PUBLIC_PICTURE_PATH = WATERMARK_PATHS.publicPicture.replace(':token', '');
