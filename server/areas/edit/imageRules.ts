import type { FastifyRequest } from 'fastify';
import sharp, { type Metadata } from 'sharp';
import { EDIT_MESSAGES, OZON_IMAGE_RULES } from '../../../contract/edit';
import { ApiError } from '../../http/errors';
import { cleanFileName } from '../chat/upload';

export const fail = (code: number, key: keyof typeof EDIT_MESSAGES, field: string | null = null) => new ApiError(code, EDIT_MESSAGES[key], field);

/**
 * Checks an image against Ozon's picture rules before it is stored or sent on: JPEG or PNG by its content (not its
 * name), within the size and the sides Ozon accepts. Answers its type and sides.
 */
export async function checkOzonImage(bytes: Buffer, field = 'file'): Promise<{ contentType: string; width: number; height: number }> {
  if (bytes.length > OZON_IMAGE_RULES.maxBytes) throw fail(400, 'imageTooLarge', field);
  let meta: Metadata;
  try {
    meta = await sharp(bytes).metadata();
  } catch {
    throw fail(400, 'notAnImage', field);
  }
  const contentType = meta.format === 'jpeg' ? 'image/jpeg' : meta.format === 'png' ? 'image/png' : null;
  if (!contentType || !meta.width || !meta.height) throw fail(400, 'notAnImage', field);
  if (Math.min(meta.width, meta.height) < OZON_IMAGE_RULES.minSide) throw fail(400, 'imageTooSmall', field);
  if (Math.max(meta.width, meta.height) > OZON_IMAGE_RULES.maxSide) throw fail(400, 'imageTooBig', field);
  return { contentType, width: meta.width, height: meta.height };
}

/** @fastify/multipart's limits for an upload of one picture and its name. */
export const PICTURE_UPLOAD_LIMITS = { throwFileSizeLimit: false, limits: { fileSize: OZON_IMAGE_RULES.maxBytes, files: 1, fields: 2, fieldSize: 400, parts: 4 } };

/** A picture uploaded as multipart (`name`, then `file`), checked against Ozon's rules, with its cleaned name. */
export async function readUploadedImage(request: FastifyRequest): Promise<{ bytes: Buffer; name: string; contentType: string; width: number; height: number }> {
  if (!request.isMultipart()) throw fail(400, 'noFile', 'file');
  const part = await request.file();
  if (!part) throw fail(400, 'noFile', 'file');
  const bytes = await part.toBuffer().catch(() => null);
  if (!bytes || part.file.truncated) throw fail(400, 'imageTooLarge', 'file');
  if (bytes.length === 0) throw fail(400, 'noFile', 'file');
  const checked = await checkOzonImage(bytes);
  const named = part.fields.name;
  const field = Array.isArray(named) ? named[0] : named;
  const name = cleanFileName(field && field.type === 'field' && String(field.value).trim() ? String(field.value) : part.filename);
  return { bytes, name, ...checked };
}
