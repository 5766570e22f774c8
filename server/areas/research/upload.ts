import type { MultipartFile } from '@fastify/multipart';
import { MARKET_IMPORT_MAX_BYTES, MARKET_IMPORT_STEPS, MARKET_IMPORTS_LISTED, type MarketData, type MarketImport, type MarketImportStep } from '../../../contract/research';
import { localized, textIn, type Lang, type Localized } from '../../../contract/errors';
import type { Database } from '../../db/database';
import { ApiError } from '../../http/errors';
import { entityOfFile, importMarket, ImportStop, type ImportSource } from './importer';
import type { Entity } from './importFormat';
import { textLines } from './textLines';

/**
 * The administrator's upload of market data (/search/market/import): the products file, then the keywords file, as
 * two multipart parts read line by line while they arrive, into the same streamed import as `npm run market:import`
 * (COPY into the stage tables, built and swapped in whole; a refused line leaves the market as it was).
 */

/** An import still `running` after this long is taken for one whose server stopped (it no longer blocks another). */
const RUNNING_FOR_AT_MOST_MS = 6 * 3_600_000;

type ImportRow = {
  id: number;
  user_name: string | null;
  status: MarketImport['status'];
  progress: { step?: string; lines?: { products?: number; keywords?: number }; errors?: number };
  /** Stored in zh, en and pt; a plain string in rows written before that. */
  errors: { file: string; line: number; message: string | Localized }[];
  message: string | Localized | null;
  started_at: Date;
  finished_at: Date | null;
};

const readable = (text: string | Localized, lang: Lang) => (typeof text === 'string' ? text : textIn(text, lang));

const stepOf = (step: string | undefined): MarketImportStep | null => (MARKET_IMPORT_STEPS as readonly string[]).includes(step ?? '') ? (step as MarketImportStep) : null;

/** The market research reads now and the latest imports, newest first. */
export async function marketData(database: Database, lang: Lang): Promise<MarketData> {
  const [meta] = await database.query<{ as_of: string; source: string; products: number; keywords: number; loaded_at: Date }>(
    `select to_char(as_of, 'YYYY-MM-DD') as as_of, source, products, keywords, loaded_at from market_meta where id = 1`,
  );
  const rows = await database.query<ImportRow>(
    `select i.id, u.username as user_name, i.status, i.progress, i.errors, i.message, i.started_at, i.finished_at
     from market_imports i left join users u on u.id = i.user_id order by i.id desc limit ${MARKET_IMPORTS_LISTED}`,
  );
  return {
    current: meta ? { asOf: meta.as_of, source: meta.source, products: meta.products, keywords: meta.keywords, loadedAt: new Date(meta.loaded_at).getTime() } : null,
    imports: rows.map((row) => ({
      id: row.id,
      userName: row.user_name,
      status: row.status,
      step: row.status === 'running' ? stepOf(row.progress.step) : null,
      lines: { products: row.progress.lines?.products ?? 0, keywords: row.progress.lines?.keywords ?? 0 },
      errorCount: row.progress.errors ?? row.errors.length,
      errors: row.errors.map((error) => ({ file: error.file, line: error.line, message: readable(error.message, lang) })),
      message: row.message === null ? null : readable(row.message, lang),
      startedAt: new Date(row.started_at).getTime(),
      finishedAt: row.finished_at ? new Date(row.finished_at).getTime() : null,
    })),
  };
}

/** The lines of an uploaded part; ends with an error when the part was cut at the size limit. */
async function* partLines(part: MultipartFile): AsyncIterable<string> {
  yield* textLines(part.file);
  if (part.file.truncated) throw new ImportStop(localized('importFileTooLarge', { file: part.filename, max: String(MARKET_IMPORT_MAX_BYTES / 1024 ** 3) }));
}

/**
 * Runs the import of an upload's parts (`parts` as @fastify/multipart's `request.files()` gives them). The first part
 * must be the products file: anything else is refused before the market is touched. The keywords file is asked for
 * once the products are read; missing, or not a keywords file, it fails the import (the market stays).
 */
export async function importUpload(database: Database, userId: number, parts: AsyncIterableIterator<MultipartFile>, lang: Lang): Promise<MarketData> {
  const [running] = await database.query<{ id: number }>(
    `select id from market_imports where status = 'running' and started_at > now() - make_interval(secs => $1) limit 1`,
    [RUNNING_FOR_AT_MOST_MS / 1000],
  );
  if (running) throw new ApiError(400, 'marketImportRunning');
  const first = await parts.next();
  const products = first.done ? null : first.value;
  if (!products || entityOfFile(products.filename)?.entity !== 'products') {
    products?.file.resume();
    throw new ApiError(400, 'marketImportFiles', 'file');
  }
  const source = async (entity: Entity): Promise<ImportSource> => {
    const part = entity === 'products' ? products : (await parts.next()).value as MultipartFile | undefined;
    const kind = part ? entityOfFile(part.filename) : null;
    if (!part || kind?.entity !== entity) {
      part?.file.resume();
      throw new ImportStop(part ? localized('importKeywordsWrong', { file: part.filename }) : localized('importKeywordsMissing'));
    }
    return { name: part.filename, format: kind.format, lines: partLines(part) };
  };
  try {
    await importMarket(database, source, { userId });
  } finally {
    // Whatever the import did not read (a failure before the end, a third part) is let through, so the answer goes out.
    for await (const rest of parts) rest.file.resume();
  }
  return marketData(database, lang);
}
