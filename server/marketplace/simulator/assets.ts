import { crc32, deflateSync } from 'node:zlib';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { pdfTextWriter } from '../../pdf/text';
import { hash32 } from './random';

/** Product pictures and shipping labels the simulator serves: small, generated, the same for the same name. */

function colourOf(name: string): [number, number, number] {
  const h = hash32(name);
  return [64 + (h & 0x7f), 64 + ((h >>> 8) & 0x7f), 64 + ((h >>> 16) & 0x7f)];
}

export function productSvg(name: string): string {
  const [r, g, b] = colourOf(name);
  const label = name.replace(/[^\w-]/g, '').slice(0, 24);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400">`
    + `<rect width="400" height="400" fill="rgb(${r},${g},${b})"/>`
    + `<circle cx="200" cy="170" r="90" fill="rgba(255,255,255,0.35)"/>`
    + `<text x="200" y="340" font-family="sans-serif" font-size="28" text-anchor="middle" fill="#fff">${label}</text></svg>`;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** An 800x800 PNG: a colour field with a lighter square, as large as Ozon asks a card's picture to be (sides 200 px and up). */
export function productPng(name: string): Buffer {
  const size = 800;
  const [from, to] = [size / 4, (size * 3) / 4];
  const [r, g, b] = colourOf(name);
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const inner = x > from && x < to && y > from && y < to;
      row[1 + x * 3] = inner ? Math.min(255, r + 80) : r;
      row[2 + x * 3] = inner ? Math.min(255, g + 80) : g;
      row[3 + x * 3] = inner ? Math.min(255, b + 80) : b;
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export type LabelPosting = { postingNumber: string; warehouse: string; products: { offerId: string; name?: string; quantity: number }[] };

/** One 75x120 mm page per posting, with the posting number as text and as a (decorative) barcode. */
export async function labelPdf(postings: LabelPosting[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle('Ozon package labels');
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const write = await pdfTextWriter(doc);
  const mm = 72 / 25.4;
  for (const posting of postings) {
    const page = doc.addPage([75 * mm, 120 * mm]);
    const { width, height } = page.getSize();
    page.drawText('OZON', { x: 12, y: height - 30, size: 18, font: bold, color: rgb(0, 0.36, 1) });
    page.drawText(posting.postingNumber, { x: 12, y: height - 56, size: 13, font: bold });
    await write(page, posting.warehouse, 12, height - 74, 9, width - 24);
    // Bars from the posting number's digits: not a scannable symbology, just a recognisable label.
    let x = 12;
    for (const ch of posting.postingNumber.replace(/\D/g, '')) {
      const w = 1 + (Number(ch) % 3);
      page.drawRectangle({ x, y: height - 150, width: w, height: 60, color: rgb(0, 0, 0) });
      x += w + 2 + (Number(ch) % 2);
      if (x > width - 12) break;
    }
    let y = height - 172;
    for (const p of posting.products.slice(0, 6)) {
      await write(page, `${p.offerId}  x${p.quantity}`, 12, y, 9, width - 24);
      if (p.name) await write(page, p.name, 12, y - 11, 8, width - 24);
      y -= p.name ? 26 : 13;
    }
  }
  return doc.save();
}
