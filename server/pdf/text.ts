import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib';

/**
 * The faces of the PDFs the server writes (labels, picking lists), tried in order for each character: Noto Sans SC's Latin, Cyrillic and Chinese sets (the
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

/** Writes text on a page of `doc` in the faces above (`doc` must have fontkit registered), cut at `maxWidth`. */
export async function pdfTextWriter(doc: PDFDocument): Promise<(page: PDFPage, text: string, x: number, y: number, size: number, maxWidth: number) => Promise<void>> {
  const faces = await loadLabelFaces();
  const embedded = new Map<number, PDFFont>();
  const faceFont = async (face: number) => {
    let font = embedded.get(face);
    if (!font) embedded.set(face, (font = await doc.embedFont(faces[face]!.bytes, { subset: true })));
    return font;
  };
  return async (page, text, x, y, size, maxWidth) => {
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
}
