import { eachLang, localized, type Localized } from '../../../contract/errors';
import type { Database } from '../../db/database';
import { csvToObject, parseLine, splitCsvLine, KEYWORD_CSV_COLUMNS, PRODUCT_CSV_COLUMNS, type Entity } from './importFormat';
import { seriesEnd, StageWriter } from './stage';
import { beginLoad, buildKeywords, buildProducts, discardLoad, indexNext, STAGE, swapIn, type LoadSummary } from './store';

/**
 * The streamed market import (docs/market-import.md): `products` and `keywords` files, CSV or JSON lines, read line
 * by line into the stage tables, then built and swapped in whole (./store.ts). Any refused line fails the import
 * and the report names every refused line (the first MAX_REPORTED of them) with its file, number and reason; the
 * previous market stays, as it does when a file ends mid-line or its stream breaks.
 */

export type ImportFormat = 'csv' | 'jsonl';
export type ImportSource = { name: string; format: ImportFormat; lines: AsyncIterable<string> };
export type ImportSources = Record<Entity, ImportSource>;
/** A refused line; `message` is stored in every language and shown in the reader's (contract/errors.ts). */
export type LineError = { file: string; line: number; message: Localized };
export type ImportProgress = { step: 'products' | 'keywords' | 'building' | 'indexing' | 'swapping'; lines: number; loaded: number };
export type ImportResult =
  | { status: 'done'; summary: LoadSummary; lines: Record<Entity, number> }
  | { status: 'failed'; message: Localized; errors: LineError[]; errorCount: number; lines: Record<Entity, number> };

/** A reason the import stops that the reader gets in their language (the upload's parts, the size limit). */
export class ImportStop extends Error {
  constructor(readonly text: Localized) {
    super(text.en);
  }
}

export const MAX_REPORTED = 200;
const PROGRESS_EVERY = 20_000;

/** The format of a file by its name (`products.csv`, `keywords.jsonl`), or null. */
export function entityOfFile(name: string): { entity: Entity; format: ImportFormat } | null {
  const match = /^(products|keywords)\.(csv|jsonl)$/i.exec(name.split(/[\\/]/).pop() ?? '');
  return match ? { entity: match[1]!.toLowerCase() as Entity, format: match[2]!.toLowerCase() as ImportFormat } : null;
}

export type ImportOptions = { userId?: number | null; onProgress?: (progress: ImportProgress) => void };

/**
 * `sources` may be given one at a time (an upload's parts arrive in order: the keywords file only once the products
 * file is read); a source that cannot be had fails the import with its reason.
 */
export async function importMarket(database: Database, sources: ImportSources | ((entity: Entity) => Promise<ImportSource>), options: ImportOptions = {}): Promise<ImportResult> {
  const sourceOf = typeof sources === 'function' ? sources : async (entity: Entity) => sources[entity];
  const [job] = await database.query<{ id: number }>(`insert into market_imports (user_id, status) values ($1, 'running') returning id`, [options.userId ?? null]);
  const jobId = job!.id;
  const errors: LineError[] = [];
  let errorCount = 0;
  const lines: Record<Entity, number> = { products: 0, keywords: 0 };
  let lastSaved = 0;
  const report = async (progress: ImportProgress, force = false) => {
    options.onProgress?.(progress);
    if (!force && Date.now() - lastSaved < 1_000) return;
    lastSaved = Date.now();
    await database.query(`update market_imports set progress = $2 where id = $1`, [jobId, JSON.stringify({ ...progress, lines, errors: errorCount })]);
  };
  const refuse = (file: string, line: number, message: Localized) => {
    errorCount++;
    if (errors.length < MAX_REPORTED) errors.push({ file, line, message });
  };
  const finish = async (result: ImportResult) => {
    await database.query(`update market_imports set status = $2, errors = $3, message = $4, progress = $5, finished_at = now() where id = $1`, [
      jobId,
      result.status,
      JSON.stringify(result.status === 'failed' ? result.errors : []),
      result.status === 'failed' ? JSON.stringify(result.message) : null,
      JSON.stringify({ lines, errors: errorCount }),
    ]);
    return result;
  };

  await beginLoad(database);
  try {
    const writer = new StageWriter(database, STAGE);
    const skus = new Set<number>();
    const keywords = new Set<string>();
    let asOf: string | null = null;
    const sameDay = (from: string, length: number): Localized | null => {
      const end = seriesEnd(from, length);
      asOf ??= end;
      return end === asOf ? null : localized('importSeriesEnd', { end, asOf });
    };

    let productsName = 'products';
    for (const entity of ['products', 'keywords'] as const) {
      const source = await sourceOf(entity);
      if (entity === 'products') productsName = source.name;
      let header: string[] | null = null;
      let number = 0;
      for await (const raw of source.lines) {
        number++;
        lines[entity] = number;
        const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
        if (line.trim() === '') continue;
        let value: unknown;
        if (source.format === 'csv') {
          const fields = splitCsvLine(line);
          if (!header) {
            header = (fields ?? []).map((field) => field.trim().toLowerCase());
            const wanted = entity === 'products' ? PRODUCT_CSV_COLUMNS : KEYWORD_CSV_COLUMNS;
            const missing = wanted.filter((column) => !header!.includes(column));
            if (missing.length > 0) refuse(source.name, number, localized('importHeaderLacks', { columns: missing.join(', ') }));
            continue;
          }
          if (!fields) {
            refuse(source.name, number, localized('importQuoteOpen'));
            continue;
          }
          if (fields.length !== header.length) {
            refuse(source.name, number, localized('importFieldCount', { expected: String(header.length), found: String(fields.length) }));
            continue;
          }
          value = csvToObject(entity, header, fields);
        } else {
          try {
            value = JSON.parse(line);
          } catch {
            refuse(source.name, number, localized('importNotJson'));
            continue;
          }
        }
        const parsed = parseLine(entity, value);
        if (!parsed.ok) {
          refuse(source.name, number, parsed.message);
          // A product refused for another field still names its SKU: keywords ranking it are not refused for that too.
          const sku = (value as { sku?: unknown } | null)?.sku;
          if (entity === 'products' && typeof sku === 'number' && Number.isSafeInteger(sku)) skus.add(sku);
          continue;
        }
        if (parsed.product) {
          const p = parsed.product;
          if (skus.has(p.sku)) refuse(source.name, number, localized('importSkuRepeated', { sku: String(p.sku) }));
          else {
            skus.add(p.sku);
            const problem = sameDay(p.from, p.sales.length);
            if (problem) refuse(source.name, number, problem);
            else if (errorCount === 0) await writer.addProduct(p);
          }
        } else if (parsed.keyword) {
          const k = parsed.keyword;
          const key = k.keyword.toLowerCase();
          const unknown = k.topSkus.find((sku) => !skus.has(sku));
          if (keywords.has(key)) refuse(source.name, number, localized('importKeywordRepeated', { keyword: k.keyword }));
          else if (unknown !== undefined) refuse(source.name, number, localized('importSkuUnknown', { sku: String(unknown) }));
          else {
            keywords.add(key);
            const problem = sameDay(k.from, k.frequency.length);
            if (problem) refuse(source.name, number, problem);
            else if (errorCount === 0) await writer.addKeyword(k);
          }
        }
        if (number % PROGRESS_EVERY === 0) await report({ step: entity, lines: number, loaded: entity === 'products' ? writer.productCount : writer.keywordCount });
      }
      if (source.format === 'csv' && !header) refuse(source.name, 1, localized('importFileEmpty'));
    }
    if (skus.size === 0 && errorCount === 0) refuse(productsName, 1, localized('importNoProducts'));
    if (errorCount > 0) {
      await discardLoad(database);
      return await finish({ status: 'failed', message: localized('importRefused', { count: String(errorCount) }), errors, errorCount, lines });
    }
    await writer.flush();
    await report({ step: 'building', lines: lines.products + lines.keywords, loaded: writer.productCount + writer.keywordCount }, true);
    await buildProducts(database);
    await buildKeywords(database);
    await report({ step: 'indexing', lines: lines.products + lines.keywords, loaded: writer.productCount + writer.keywordCount }, true);
    await indexNext(database);
    await report({ step: 'swapping', lines: lines.products + lines.keywords, loaded: writer.productCount + writer.keywordCount }, true);
    const summary = await swapIn(database, `import:${productsName}`, asOf!);
    return await finish({ status: 'done', summary, lines });
  } catch (error) {
    await discardLoad(database).catch(() => undefined);
    // An unforeseen failure (the database's own) reads as it was raised, the same in every language.
    const reason = error instanceof ImportStop ? error.text : eachLang(() => (error as Error).message);
    return await finish({ status: 'failed', message: localized('importStopped', { reason }), errors, errorCount, lines });
  }
}
