import { crc32, deflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
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

/** A 64x64 PNG: a colour field with a lighter square, enough for an image import to accept. */
export function productPng(name: string): Buffer {
  const size = 64;
  const [r, g, b] = colourOf(name);
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const inner = x > 16 && x < 48 && y > 16 && y < 48;
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

export type LabelPosting = { postingNumber: string; warehouse: string; products: { offerId: string; quantity: number }[] };

/** One 75x120 mm page per posting, with the posting number as text and as a (decorative) barcode. */
export async function labelPdf(postings: LabelPosting[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle('Ozon package labels');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const mm = 72 / 25.4;
  for (const posting of postings) {
    const page = doc.addPage([75 * mm, 120 * mm]);
    const { width, height } = page.getSize();
    page.drawText('OZON', { x: 12, y: height - 30, size: 18, font: bold, color: rgb(0, 0.36, 1) });
    page.drawText(posting.postingNumber, { x: 12, y: height - 56, size: 13, font: bold });
    page.drawText(ascii(posting.warehouse).slice(0, 32), { x: 12, y: height - 74, size: 9, font });
    // Bars from the posting number's digits: not a scannable symbology, just a recognisable label.
    let x = 12;
    for (const ch of posting.postingNumber.replace(/\D/g, '')) {
      const w = 1 + (Number(ch) % 3);
      page.drawRectangle({ x, y: height - 150, width: w, height: 60, color: rgb(0, 0, 0) });
      x += w + 2 + (Number(ch) % 2);
      if (x > width - 12) break;
    }
    let y = height - 172;
    for (const p of posting.products.slice(0, 8)) {
      page.drawText(`${ascii(p.offerId).slice(0, 28)}  x${p.quantity}`, { x: 12, y, size: 9, font });
      y -= 13;
    }
  }
  return doc.save();
}

/** Helvetica has no glyphs outside Latin-1. */
const ascii = (text: string) => text.replace(/[^\x20-\x7e]/g, '?');
