import { PDFDocument, rgb, type PDFImage } from 'pdf-lib';
import fontkit from '@pdf-lib/fontkit';
import sharp from 'sharp';
import type { Lang } from '../../../contract/errors';
import { PICKING_TEXTS, type PickingFormat } from '../../../contract/orders';
import { writeXlsx } from '../../../contract/xlsx';
import { ApiError } from '../../http/errors';
import { pdfTextWriter } from '../../pdf/text';
import { shopScopeSql } from '../team/shopScope';
import { callerScopeSql, type OrdersDeps } from './service';

/** One line of a picking list: a product of the selection and how many of it the selected rows hold. */
export type PickingLine = { sku: string; offerId: string; name: string; image: string; shops: string; quantity: number; postings: number };

/**
 * The selected rows' products, quantities summed (one line per offer id and SKU), most wanted first. Pictures come
 * from the synced cards; a product whose card is not synced has none.
 */
export async function pickingLines(deps: OrdersDeps, userId: number, ids: readonly string[]): Promise<{ lines: PickingLine[]; postings: number }> {
  const rows = await deps.database.query<{ sku: string; offer_id: string; name: string; image: string; shops: string; quantity: number; postings: number }>(
    `with picked as (
       select o.* from orders o where o.user_id = $1 and o.id = any($2::text[]) and not o.deleted${callerScopeSql('o.')}
     )
     select o.sku, o.offer_id, min(o.product_name) as name, string_agg(distinct o.shop_name, ', ') as shops,
            sum(o.quantity)::int as quantity, count(distinct o.shop_id || ':' || coalesce(nullif(o.posting_number, ''), o.id))::int as postings,
            coalesce((select p.image from products p where p.user_id = $1 and p.shop_id = any(array_agg(o.shop_id)) and p.offer_id = o.offer_id
                        and p.image <> '' and not p.deleted limit 1), '') as image
     from picked o
     group by o.sku, o.offer_id
     order by quantity desc, o.offer_id, o.sku`,
    [userId, ids],
  );
  if (rows.length === 0) throw new ApiError(404, 'orderNotFound', 'ids');
  const [count] = await deps.database.query<{ postings: number }>(
    `select count(distinct o.shop_id || ':' || coalesce(nullif(o.posting_number, ''), o.id))::int as postings
     from orders o where o.user_id = $1 and o.id = any($2::text[]) and not o.deleted${callerScopeSql('o.')}`,
    [userId, ids],
  );
  return {
    lines: rows.map((r) => ({ sku: r.sku, offerId: r.offer_id, name: r.name, image: r.image, shops: r.shops ?? '', quantity: Number(r.quantity), postings: Number(r.postings) })),
    postings: Number(count?.postings ?? 0),
  };
}

const fill = (template: string, values: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key] ?? ''));
const summaryOf = (lines: readonly PickingLine[], postings: number, lang: Lang) =>
  fill(PICKING_TEXTS.summary[lang], { postings, products: lines.length, quantity: lines.reduce((sum, line) => sum + line.quantity, 0) });

export function pickingXlsx(lines: readonly PickingLine[], postings: number, lang: Lang): Uint8Array {
  const T = PICKING_TEXTS;
  const header = [T.sku[lang], T.offerId[lang], T.name[lang], T.quantity[lang], T.postings[lang], T.shops[lang], T.picture[lang]];
  const rows = lines.map((line) => [line.sku, line.offerId, line.name, line.quantity, line.postings, line.shops, line.image]);
  rows.push(['', '', summaryOf(lines, postings, lang), lines.reduce((sum, line) => sum + line.quantity, 0), postings, '', '']);
  return writeXlsx(T.title[lang], header, rows, [14, 18, 48, 8, 8, 24, 60]);
}

/** A picture's bytes by its address, or null (not reachable, not a picture). */
export type PictureBytes = (url: string) => Promise<Uint8Array | null>;

/** Pictures fetched for one list at most, and at once. */
const MAX_PICTURES = 300;
const PICTURES_AT_ONCE = 8;
const THUMB_PX = 96;

/** Each distinct picture as a small JPEG (any format the fetch brings: sharp reads WebP and AVIF, pdf-lib does not). */
async function thumbnails(urls: readonly string[], bytesOf: PictureBytes): Promise<Map<string, Uint8Array>> {
  const wanted = [...new Set(urls.filter(Boolean))].slice(0, MAX_PICTURES);
  const thumbs = new Map<string, Uint8Array>();
  for (let i = 0; i < wanted.length; i += PICTURES_AT_ONCE) {
    await Promise.all(
      wanted.slice(i, i + PICTURES_AT_ONCE).map(async (url) => {
        try {
          const bytes = await bytesOf(url);
          if (!bytes) return;
          thumbs.set(url, new Uint8Array(await sharp(bytes).resize(THUMB_PX, THUMB_PX, { fit: 'inside' }).flatten({ background: '#ffffff' }).jpeg({ quality: 80 }).toBuffer()));
        } catch {
          // No picture for that line: its box stays empty.
        }
      }),
    );
  }
  return thumbs;
}

/** A4 pages of a table: picture, SKU and offer id, name, quantity; the total at the end. Chinese and Russian names print as written. */
export async function pickingPdf(lines: readonly PickingLine[], postings: number, lang: Lang, bytesOf: PictureBytes, now: Date): Promise<Uint8Array> {
  const T = PICKING_TEXTS;
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle(T.title[lang]);
  const write = await pdfTextWriter(doc);
  const thumbs = await thumbnails(lines.map((line) => line.image), bytesOf);
  const images = new Map<string, PDFImage>();
  for (const [url, bytes] of thumbs) images.set(url, await doc.embedJpg(bytes));

  const [width, height] = [595.28, 841.89];
  const margin = 36;
  const rowHeight = 52;
  const columns = { picture: margin, sku: margin + 56, name: margin + 176, quantity: width - margin - 40 };
  let page = doc.addPage([width, height]);
  let y = height - margin;
  const header = async () => {
    await write(page, T.picture[lang], columns.picture, y - 12, 9, 50);
    await write(page, `${T.sku[lang]} / ${T.offerId[lang]}`, columns.sku, y - 12, 9, 116);
    await write(page, T.name[lang], columns.name, y - 12, 9, columns.quantity - columns.name - 8);
    await write(page, T.quantity[lang], columns.quantity, y - 12, 9, 40);
    page.drawLine({ start: { x: margin, y: y - 18 }, end: { x: width - margin, y: y - 18 }, thickness: 0.8, color: rgb(0.5, 0.5, 0.5) });
    y -= 22;
  };
  await write(page, T.title[lang], margin, y - 16, 16, width - 2 * margin);
  await write(page, `${summaryOf(lines, postings, lang)}  ·  ${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`, margin, y - 34, 9, width - 2 * margin);
  y -= 48;
  await header();
  for (const line of lines) {
    if (y - rowHeight < margin) {
      page = doc.addPage([width, height]);
      y = height - margin;
      await header();
    }
    const image = images.get(line.image);
    if (image) {
      const scaled = image.scaleToFit(44, 44);
      page.drawImage(image, { x: columns.picture + (44 - scaled.width) / 2, y: y - 4 - 44 + (44 - scaled.height) / 2, width: scaled.width, height: scaled.height });
    } else {
      page.drawRectangle({ x: columns.picture, y: y - 48, width: 44, height: 44, borderColor: rgb(0.85, 0.85, 0.85), borderWidth: 0.5 });
    }
    await write(page, line.sku || '—', columns.sku, y - 16, 10, 116);
    await write(page, line.offerId || '—', columns.sku, y - 30, 8, 116);
    await write(page, line.name, columns.name, y - 16, 10, columns.quantity - columns.name - 8);
    if (line.shops) await write(page, line.shops, columns.name, y - 30, 8, columns.quantity - columns.name - 8);
    await write(page, String(line.quantity), columns.quantity, y - 20, 14, 40);
    page.drawLine({ start: { x: margin, y: y - rowHeight + 2 }, end: { x: width - margin, y: y - rowHeight + 2 }, thickness: 0.3, color: rgb(0.8, 0.8, 0.8) });
    y -= rowHeight;
  }
  return doc.save();
}

/** The file of a picking list and how it is named. */
export async function pickingFile(
  deps: OrdersDeps,
  userId: number,
  ids: readonly string[],
  format: PickingFormat,
  lang: Lang,
  bytesOf: PictureBytes,
): Promise<{ bytes: Uint8Array; type: string; name: string }> {
  const { lines, postings } = await pickingLines(deps, userId, ids);
  return format === 'xlsx'
    ? { bytes: pickingXlsx(lines, postings, lang), type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', name: 'picking-list.xlsx' }
    : { bytes: await pickingPdf(lines, postings, lang, bytesOf, deps.now()), type: 'application/pdf', name: 'picking-list.pdf' };
}

/** The main picture of each (shop, offer) asked for that has one, from the caller's synced cards. */
export async function orderPictures(deps: OrdersDeps, userId: number, items: readonly { shopId: number; offerId: string }[]) {
  const rows = await deps.database.query<{ shop_id: number; offer_id: string; image: string }>(
    `select distinct on (p.shop_id, p.offer_id) p.shop_id, p.offer_id, p.image
     from products p join jsonb_to_recordset($2::jsonb) as w(shop integer, offer text) on p.shop_id = w.shop and p.offer_id = w.offer
     where p.user_id = $1 and p.image <> '' and not p.deleted${shopScopeSql('p.shop_id')}
     order by p.shop_id, p.offer_id, p.updated_at desc`,
    [userId, JSON.stringify(items.map((item) => ({ shop: item.shopId, offer: item.offerId })))],
  );
  return rows.map((r) => ({ shopId: r.shop_id, offerId: r.offer_id, url: r.image }));
}
