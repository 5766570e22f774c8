import sharp from 'sharp';
import type { WatermarkPosition, WatermarkSettings } from '../../../contract/watermark';

/** A template as a job renders it: its settings and, for a picture watermark, the picture's bytes. */
export type Mark = { settings: WatermarkSettings; picture: Buffer | null };

export type Placement = { left: number; top: number; width: number; height: number };

/** The faces librsvg may use for a text watermark: Chinese, Latin and Cyrillic in one line. */
const TEXT_FONTS = "'Noto Sans CJK SC', 'Noto Sans SC', 'WenQuanYi Micro Hei', 'DejaVu Sans', sans-serif";
/** Text is drawn this large, trimmed to its ink, then scaled to the width the template asks for. */
const TEXT_DRAW_SIZE = 160;

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/** The text as a transparent PNG trimmed to its ink. */
async function textPicture(text: string, color: string): Promise<Buffer> {
  const width = Math.ceil(TEXT_DRAW_SIZE * 1.2 * Math.max(1, [...text].length)) + 40;
  const height = Math.ceil(TEXT_DRAW_SIZE * 1.6);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<text x="20" y="${Math.round(TEXT_DRAW_SIZE * 1.15)}" font-size="${TEXT_DRAW_SIZE}" font-weight="700" font-family="${escapeXml(TEXT_FONTS)}" fill="${color}">${escapeXml(text)}</text></svg>`;
  return sharp(Buffer.from(svg)).trim({ background: { r: 0, g: 0, b: 0, alpha: 0 } }).png().toBuffer();
}

/** Where one watermark of `mark` × `markHeight` goes on a `width` × `height` image (no tiling). */
export function placeMark(position: WatermarkPosition, width: number, height: number, markWidth: number, markHeight: number, margin: number): Placement {
  const x = position.endsWith('left') ? 'start' : position.endsWith('right') ? 'end' : 'middle';
  const y = position.startsWith('top') ? 'start' : position.startsWith('bottom') ? 'end' : 'middle';
  const along = (where: string, size: number, mark: number) =>
    Math.max(0, where === 'start' ? margin : where === 'end' ? size - mark - margin : Math.round((size - mark) / 2));
  return { left: along(x, width, markWidth), top: along(y, height, markHeight), width: markWidth, height: markHeight };
}

/** The margin in pixels: a share of the image's shorter side. */
export const marginPixels = (settings: WatermarkSettings, width: number, height: number) => Math.round(settings.margin * Math.min(width, height));

/**
 * The watermark as an RGBA layer for a `width` × `height` image: its width `scale` × the image's width (never taller
 * than the image minus its margins), its alpha multiplied by `opacity`.
 */
async function markLayer(mark: Mark, width: number, height: number): Promise<{ input: Buffer; width: number; height: number }> {
  const { settings } = mark;
  const source = settings.kind === 'text' ? await textPicture(settings.text || ' ', settings.color) : mark.picture;
  if (!source) throw new Error('a picture watermark without its picture');
  const margin = marginPixels(settings, width, height);
  const targetWidth = Math.max(4, Math.round(settings.scale * width));
  const maxHeight = Math.max(4, height - 2 * margin);
  const alpha = Math.round(settings.opacity * 255);
  const { data, info } = await sharp(source)
    .ensureAlpha()
    .resize({ width: targetWidth, height: maxHeight, fit: 'inside' })
    .composite([{ input: Buffer.from([255, 255, 255, alpha]), raw: { width: 1, height: 1, channels: 4 }, tile: true, blend: 'dest-in' }])
    .png()
    .toBuffer({ resolveWithObject: true });
  return { input: data, width: info.width, height: info.height };
}

/** An image's sides as shown (EXIF orientation 5–8 turns it a quarter). */
async function shownSize(image: Buffer): Promise<{ width: number; height: number; format: string | undefined; hasAlpha: boolean }> {
  const meta = await sharp(image).metadata();
  if (!meta.width || !meta.height) throw new Error('not an image');
  const turned = (meta.orientation ?? 1) >= 5;
  return { width: turned ? meta.height : meta.width, height: turned ? meta.width : meta.height, format: meta.format, hasAlpha: meta.hasAlpha ?? false };
}

export type Watermarked = { bytes: Buffer; contentType: 'image/png' | 'image/jpeg'; width: number; height: number; placement: Placement };

/**
 * Applies `mark` to `image`: once at the template's position and margin, or tiled over the whole image with the
 * margin as the gap between tiles. A PNG stays a PNG (its transparency kept); every other picture becomes a JPEG of
 * quality 90, which Ozon takes.
 */
export async function applyWatermark(image: Buffer, mark: Mark): Promise<Watermarked> {
  const shown = await shownSize(image);
  const layer = await markLayer(mark, shown.width, shown.height);
  const margin = marginPixels(mark.settings, shown.width, shown.height);
  const placement = placeMark(mark.settings.position, shown.width, shown.height, layer.width, layer.height, margin);
  const overlay = mark.settings.tile
    ? {
        input: await sharp(layer.input).extend({ right: margin, bottom: margin, background: { r: 0, g: 0, b: 0, alpha: 0 } }).png().toBuffer(),
        tile: true,
        gravity: 'northwest' as const,
      }
    : { input: layer.input, left: placement.left, top: placement.top };
  const png = shown.format === 'png';
  const pipeline = sharp(image).rotate().composite([overlay]);
  const { data, info } = await (png ? pipeline.png() : pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 90 })).toBuffer({ resolveWithObject: true });
  return { bytes: data, contentType: png ? 'image/png' : 'image/jpeg', width: info.width, height: info.height, placement };
}
