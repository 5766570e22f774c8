import sharp, { type Metadata } from 'sharp';
import { EDIT_MESSAGES, OZON_IMAGE_RULES } from '../../../contract/edit';
import { ApiError } from '../../http/errors';

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
