import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DBFFile } from 'dbffile';
import { POSTCODE_IMPORT_MAX_BYTES, type PostOffice } from '../../../contract/postcodes';
import { unzipWithin, ZipTooLarge, ZipUnreadable } from '../../http/zip';

/**
 * Russian Post's postcode database as the post publishes it (https://www.pochta.ru/support/database/ops): a zip holding
 * one dBASE III file `PIndxNN.dbf` in CP866, one record per office with the fields INDEX, OPSNAME, OPSTYPE, OPSSUBM,
 * REGION, AUTONOM, AREA, CITY, CITY_1 (character), ACTDATE (date) and INDEXOLD. Either the zip or the DBF is read.
 */

export const PINDX_FIELDS = ['INDEX', 'OPSNAME', 'OPSTYPE', 'OPSSUBM', 'REGION', 'AUTONOM', 'AREA', 'CITY', 'CITY_1', 'ACTDATE', 'INDEXOLD'] as const;
const REQUIRED = ['INDEX', 'OPSNAME', 'OPSTYPE', 'REGION', 'CITY'] as const;
/** Reported per file: enough to fix it, not a wall of text. */
const MAX_REPORTED = 5;

/** Why a file cannot be loaded, in words an administrator can act on (English: the post's own field names). */
export class PindxError extends Error {
  override name = 'PindxError';
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
/** What the post's zip may unpack to: its one DBF is ~20 MB; a DBF given as it is may be as large as an upload. */
export const PINDX_UNZIPPED_MAX_BYTES = 4 * POSTCODE_IMPORT_MAX_BYTES;

/** The DBF bytes of a file that is either the post's zip or the DBF itself. */
function dbfBytes(bytes: Uint8Array): Uint8Array {
  if (!ZIP_MAGIC.every((byte, i) => bytes[i] === byte)) return bytes;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipWithin(bytes, PINDX_UNZIPPED_MAX_BYTES, (name) => /\.dbf$/i.test(name));
  } catch (error) {
    if (error instanceof ZipTooLarge || error instanceof ZipUnreadable) throw new PindxError(error.message);
    throw error;
  }
  const names = Object.keys(entries);
  if (names.length !== 1) throw new PindxError(names.length === 0 ? 'the zip holds no .dbf file' : `the zip holds ${names.length} .dbf files; expected one`);
  return entries[names[0]!]!;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
const isoDate = (value: unknown) => (value instanceof Date && Number.isFinite(value.getTime()) ? value.toISOString().slice(0, 10) : '');

/**
 * Every office of the file, checked: six-digit indexes, each once, the required fields present. Any fault refuses the
 * whole file (the first few faults named), so an import never loads half a database.
 */
export async function readPindx(bytes: Uint8Array): Promise<PostOffice[]> {
  const dbf = dbfBytes(bytes);
  if (dbf.length < 33 || ![0x03, 0x83, 0x8b, 0x30].includes(dbf[0]!)) throw new PindxError('not a dBASE (.dbf) file');
  const dir = await mkdtemp(join(tmpdir(), 'pindx-'));
  try {
    const path = join(dir, 'PIndx.dbf');
    await writeFile(path, dbf);
    let file: DBFFile;
    try {
      file = await DBFFile.open(path, { encoding: 'cp866', readMode: 'loose' });
    } catch (error) {
      throw new PindxError(`the .dbf cannot be read (${(error as Error).message})`);
    }
    const names = new Set(file.fields.map((field) => field.name.toUpperCase()));
    const missing = REQUIRED.filter((name) => !names.has(name));
    if (missing.length > 0) throw new PindxError(`fields missing: ${missing.join(', ')}`);

    const offices: PostOffice[] = [];
    const seen = new Set<string>();
    const faults: string[] = [];
    let row = 0;
    try {
      for await (const record of file) {
        row++;
        const get = (name: string) => record[name] ?? record[name.toLowerCase()];
        const index = text(get('INDEX'));
        if (!/^\d{6}$/.test(index)) faults.push(`row ${row}: INDEX ${JSON.stringify(index)} is not six digits`);
        else if (seen.has(index)) faults.push(`row ${row}: INDEX ${index} appears twice`);
        else if (!text(get('OPSNAME'))) faults.push(`row ${row}: OPSNAME is empty`);
        if (faults.length > MAX_REPORTED) break;
        seen.add(index);
        offices.push({
          index,
          name: text(get('OPSNAME')),
          type: text(get('OPSTYPE')),
          parent: text(get('OPSSUBM')),
          region: text(get('REGION')),
          autonomous: text(get('AUTONOM')),
          area: text(get('AREA')),
          city: text(get('CITY')),
          settlement: text(get('CITY_1')),
          changed: isoDate(get('ACTDATE')),
          previousIndex: text(get('INDEXOLD')),
        });
      }
    } catch (error) {
      throw new PindxError(`the .dbf is cut off or damaged after row ${row} (${(error as Error).message})`);
    }
    if (faults.length > 0) throw new PindxError(faults.slice(0, MAX_REPORTED).join('; ') + (faults.length > MAX_REPORTED ? '; …' : ''));
    if (offices.length === 0) throw new PindxError('the file holds no offices');
    return offices;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function readPindxFile(path: string): Promise<PostOffice[]> {
  return readPindx(new Uint8Array(await readFile(path)));
}

/** Writes offices as the post's DBF (the demo's sample and the tests' files are made with it). */
export async function writePindx(path: string, offices: readonly PostOffice[]): Promise<void> {
  const c = (name: string, size: number) => ({ name, type: 'C' as const, size });
  const file = await DBFFile.create(
    path,
    [c('INDEX', 6), c('OPSNAME', 60), c('OPSTYPE', 50), c('OPSSUBM', 6), c('REGION', 60), c('AUTONOM', 60), c('AREA', 60), c('CITY', 60), c('CITY_1', 60), { name: 'ACTDATE', type: 'D', size: 8 }, c('INDEXOLD', 6)],
    { encoding: 'cp866' },
  );
  await file.appendRecords(
    offices.map((o) => ({
      INDEX: o.index,
      OPSNAME: o.name,
      OPSTYPE: o.type,
      OPSSUBM: o.parent,
      REGION: o.region,
      AUTONOM: o.autonomous,
      AREA: o.area,
      CITY: o.city,
      CITY_1: o.settlement,
      ACTDATE: o.changed ? new Date(`${o.changed}T00:00:00Z`) : null,
      INDEXOLD: o.previousIndex,
    })),
  );
}
