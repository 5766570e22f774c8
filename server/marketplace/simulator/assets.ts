import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
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

/**
 * The label's faces, tried in order for each character: Noto Sans SC's Latin, Cyrillic and Chinese sets (the
 * @fontsource files the designer uses too). Each is embedded as a subset of the glyphs the labels use, so a PDF of a
 * few labels stays small while "深圳数码 Yiwu FBS" and "Склад Москва" print as written.
 */
const requireFrom = createRequire(import.meta.url);
/** What the label needs of a fontkit font. */
type Font = { hasGlyphForCodePoint(codePoint: number): boolean };
const LABEL_FACES = ['latin', 'cyrillic', 'chinese-simplified'].map((set) => `@fontsource/noto-sans-sc/files/noto-sans-sc-${set}-400-normal.woff`);
let labelFaces: Promise<{ bytes: Uint8Array; font: Font }[]> | null = null;

/**
 * A WOFF file as the plain OpenType font it wraps. fontkit reads a WOFF's tables compressed and inflates a table
 * again at every access: subsetting the Chinese face read its glyph table once per glyph (seconds a label).
 */
export function sfntOfWoff(woff: Uint8Array): Uint8Array {
  const view = new DataView(woff.buffer, woff.byteOffset, woff.byteLength);
  if (view.getUint32(0) !== 0x774f4646) throw new Error('not a WOFF file');
  const count = view.getUint16(12);
  const tables = Array.from({ length: count }, (_, i) => {
    const at = 44 + i * 20;
    const offset = view.getUint32(at + 4);
    const compressed = view.getUint32(at + 8);
    const length = view.getUint32(at + 12);
    const stored = woff.subarray(offset, offset + compressed);
    return { tag: view.getUint32(at), checksum: view.getUint32(at + 16), data: compressed < length ? new Uint8Array(inflateSync(stored)) : stored };
  });
  let size = 12 + 16 * count;
  for (const table of tables) size += (table.data.length + 3) & ~3;
  const out = new Uint8Array(size);
  const sfnt = new DataView(out.buffer);
  sfnt.setUint32(0, view.getUint32(4));
  sfnt.setUint16(4, count);
  const power = 2 ** Math.floor(Math.log2(count));
  sfnt.setUint16(6, power * 16);
  sfnt.setUint16(8, Math.log2(power));
  sfnt.setUint16(10, count * 16 - power * 16);
  let offset = 12 + 16 * count;
  tables.forEach((table, i) => {
    const at = 12 + i * 16;
    sfnt.setUint32(at, table.tag);
    sfnt.setUint32(at + 4, table.checksum);
    sfnt.setUint32(at + 8, offset);
    sfnt.setUint32(at + 12, table.data.length);
    out.set(table.data, offset);
    offset += (table.data.length + 3) & ~3;
  });
  return out;
}

function loadLabelFaces(): Promise<{ bytes: Uint8Array; font: Font }[]> {
  labelFaces ??= Promise.all(
    LABEL_FACES.map(async (file) => {
      const bytes = sfntOfWoff(new Uint8Array(await readFile(requireFrom.resolve(file))));
      return { bytes, font: fontkit.create(Buffer.from(bytes)) as Font };
    }),
  );
  return labelFaces;
}

/** Text in runs of one face each: the first face with a glyph for the character (the last one otherwise). */
function runsOf(text: string, faces: readonly Font[]): { face: number; text: string }[] {
  const runs: { face: number; text: string }[] = [];
  for (const char of text) {
    const code = char.codePointAt(0)!;
    let face = faces.findIndex((font) => font.hasGlyphForCodePoint(code));
    if (face < 0) face = faces.length - 1;
    const last = runs[runs.length - 1];
    if (last && last.face === face) last.text += char;
    else runs.push({ face, text: char });
  }
  return runs;
}

/** One 75x120 mm page per posting, with the posting number as text and as a (decorative) barcode. */
export async function labelPdf(postings: LabelPosting[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle('Ozon package labels');
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const faces = await loadLabelFaces();
  const embedded = new Map<number, PDFFont>();
  const faceFont = async (face: number) => {
    let font = embedded.get(face);
    if (!font) embedded.set(face, (font = await doc.embedFont(faces[face]!.bytes, { subset: true })));
    return font;
  };
  const write = async (page: PDFPage, text: string, x: number, y: number, size: number, maxWidth: number) => {
    let at = x;
    for (const run of runsOf(text, faces.map((face) => face.font))) {
      const font = await faceFont(run.face);
      let shown = run.text;
      while (shown && at + font.widthOfTextAtSize(shown, size) > x + maxWidth) shown = shown.slice(0, -1);
      if (shown) page.drawText(shown, { x: at, y, size, font });
      at += font.widthOfTextAtSize(shown, size);
      if (shown !== run.text) break;
    }
  };
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
