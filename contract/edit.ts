import { z } from 'zod';
import { defineEndpoint, routePaths } from './endpoint';
import type { Localized } from './errors';
import { looseRowId, rowId } from './fields';
import { lazySchema } from './lazySchema';

/**
 * Image editing (seller-tool /edit/edit-image, issue 33): the poster designer's designs, saved per owner and opened
 * again, and the edited images a seller stores to put on a product. A design is fabric.js's canvas JSON (pictures
 * inside it as data URLs), kept as text: the server never interprets it beyond its size and that it is JSON.
 */

/** Ozon's picture rules (seller portal, "Требования к изображениям"): JPEG or PNG, at most 10 MB, sides 200–7680 px. */
export const OZON_IMAGE_RULES = { minSide: 200, maxSide: 7_680, maxBytes: 10 * 1024 * 1024, types: ['image/jpeg', 'image/png'] } as const;

/** A design's JSON: the API's body limit is 10 MB; the rest is the envelope and the thumbnail. */
export const DESIGN_MAX_CHARS = 9 * 1024 * 1024;
/** The list's preview: a small JPEG data URL. */
export const THUMBNAIL_MAX_CHARS = 200_000;
/** Canvas sides the designer allows (Ozon's largest accepted side). */
export const CANVAS_MIN_SIDE = 50;
export const CANVAS_MAX_SIDE = OZON_IMAGE_RULES.maxSide;

export const EDIT_MESSAGES = {
  designNotFound: { zh: '设计不存在或已被删除', en: 'The design does not exist or has been deleted', pt: 'O design não existe ou foi excluído' },
  designTooLarge: { zh: '设计太大（超过9MB），请缩小或减少图片后再保存', en: 'The design is too large (over 9 MB); make its pictures smaller or fewer and save again', pt: 'O design é grande demais (mais de 9 MB); use imagens menores ou em menor número e salve de novo' },
  designNotJson: { zh: '设计内容不是有效的JSON', en: 'The design is not valid JSON', pt: 'O design não é um JSON válido' },
  imageNotFound: { zh: '图片不存在或已被删除', en: 'The image does not exist or has been deleted', pt: 'A imagem não existe ou foi excluída' },
  notAnImage: { zh: '文件不是JPG或PNG图片', en: 'The file is not a JPG or PNG image', pt: 'O arquivo não é uma imagem JPG ou PNG' },
  imageTooLarge: { zh: '图片不能超过10MB', en: 'The image must not be larger than 10 MB', pt: 'A imagem não pode passar de 10 MB' },
  imageTooSmall: { zh: '图片边长不能小于200像素（Ozon要求）', en: 'Each side of the image must be at least 200 px (Ozon\'s rule)', pt: 'Cada lado da imagem deve ter pelo menos 200 px (regra da Ozon)' },
  imageTooBig: { zh: '图片边长不能大于7680像素（Ozon要求）', en: 'No side of the image may be longer than 7680 px (Ozon\'s rule)', pt: 'Nenhum lado da imagem pode passar de 7680 px (regra da Ozon)' },
  noFile: { zh: '请选择文件', en: 'Select a file', pt: 'Selecione um arquivo' },
} as const satisfies Record<string, Localized>;

const designName = () => z.string().trim().min(1).max(80);
const side = () => z.number().int().min(CANVAS_MIN_SIDE).max(CANVAS_MAX_SIDE);

export const designSummarySchema = lazySchema(() =>
  z.object({
    id: rowId(),
    name: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    /** A small JPEG data URL of the design, or '' when none was given. */
    thumbnail: z.string(),
    updatedAt: z.string(),
  }),
);
export type DesignSummary = z.infer<typeof designSummarySchema>;

export const designSchema = lazySchema(() => z.object({ id: rowId(), name: z.string(), width: z.number().int(), height: z.number().int(), json: z.string(), updatedAt: z.string() }));
export type Design = z.infer<typeof designSchema>;

export const saveDesignBodySchema = lazySchema(() =>
  z.object({
    /** Absent: a new design. */
    id: looseRowId().optional(),
    name: designName(),
    width: side(),
    height: side(),
    json: z.string().min(2).max(DESIGN_MAX_CHARS),
    thumbnail: z
      .string()
      .max(THUMBNAIL_MAX_CHARS)
      .regex(/^(data:image\/(jpeg|png);base64,[A-Za-z0-9+/=]+)?$/, 'invalid')
      .default(''),
  }),
);
export type SaveDesignBody = z.input<typeof saveDesignBodySchema>;

export const designIdSchema = lazySchema(() => z.object({ id: looseRowId() }));

export const editImageSchema = lazySchema(() =>
  z.object({
    id: rowId(),
    name: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    size: z.number().int(),
    contentType: z.string(),
    createdAt: z.string(),
  }),
);
export type EditImage = z.infer<typeof editImageSchema>;

/** A stored image given its public address: what Ozon fetches when the image is put on a card (/updateSkuImage). */
export const publishedImageSchema = lazySchema(() => z.object({ id: rowId(), url: z.string().url() }));
export type PublishedImage = z.infer<typeof publishedImageSchema>;

export const uploadImageFieldsSchema = lazySchema(() => z.object({ name: z.string().max(120).optional() }));
export const imageParamsSchema = lazySchema(() => z.object({ id: looseRowId() }));

/** The designer's designs and the edited images, each its owner's only. */
export const EDIT_ENDPOINTS = {
  designs: defineEndpoint({
    method: 'GET',
    path: '/edit/designs',
    summary: "The signed-in user's designs, newest first, with small previews.",
    access: 'editImage',
    answer: lazySchema(() => z.object({ list: z.array(designSummarySchema) })),
  }),
  design: defineEndpoint({
    method: 'GET',
    path: '/edit/design',
    summary: "One of the user's designs with its canvas JSON.",
    access: 'editImage',
    input: designIdSchema,
    answer: designSchema,
    settings: { timeout: 30_000 },
  }),
  saveDesign: defineEndpoint({
    method: 'POST',
    path: '/edit/design/save',
    summary: 'Saves a design: a new one without id, else replaces the one with that id (its owner only).',
    access: 'editImage',
    action: 'edit',
    input: saveDesignBodySchema,
    answer: designSummarySchema,
    settings: { timeout: 60_000, retries: 0 },
  }),
  deleteDesign: defineEndpoint({
    method: 'POST',
    path: '/edit/design/delete',
    summary: 'Deletes one of the user\'s designs.',
    access: 'editImage',
    action: 'delete',
    input: designIdSchema,
    answer: lazySchema(() => z.object({ id: rowId() })),
  }),
  upload: defineEndpoint({
    method: 'POST',
    path: '/edit/upload',
    summary: "Stores an edited image (JPEG or PNG within Ozon's sizes) for the user's products (multipart: `name`, then `file`).",
    access: 'editImage',
    action: 'edit',
    multipart: { fields: uploadImageFieldsSchema, file: 'file' },
    answer: editImageSchema,
    settings: { timeout: 120_000, retries: 0 },
  }),
  images: defineEndpoint({
    method: 'GET',
    path: '/edit/images',
    summary: "The user's stored edited images, newest first.",
    access: 'editImage',
    answer: lazySchema(() => z.object({ list: z.array(editImageSchema) })),
  }),
  publishImage: defineEndpoint({
    method: 'POST',
    path: '/edit/image/publish',
    summary: "Gives one of the user's stored images an unguessable public address (the same on every call), for Ozon to fetch it.",
    access: 'editImage',
    action: 'publish',
    input: imageParamsSchema,
    answer: publishedImageSchema,
    settings: { timeout: 20_000, retries: 0 },
  }),
  image: defineEndpoint({
    method: 'GET',
    path: '/edit/image/:id',
    summary: "One of the user's stored images, its bytes.",
    access: 'editImage',
    params: imageParamsSchema,
    raw: { contentType: 'image/png', description: 'The image (PNG or JPEG).' },
    settings: { responseType: 'blob', silent: true },
  }),
} as const;

export const EDIT_PATHS = routePaths(EDIT_ENDPOINTS);
