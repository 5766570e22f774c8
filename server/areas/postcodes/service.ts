import { POSTCODE_SEARCH_LIMIT, type PostcodeDataset, type PostOffice } from '../../../contract/postcodes';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/database';

const COLUMNS = `index, name, type, parent, region, autonomous, area, city, settlement,
  coalesce(to_char(changed, 'YYYY-MM-DD'), '') as changed, previous_index as "previousIndex"`;
const INSERT_BATCH = 2_000;

/** What the text search matches: the place and the office's name, lower-cased (Russian letters included). */
export const searchTextOf = (o: PostOffice) => [o.region, o.autonomous, o.area, o.city, o.settlement, o.name, o.index].join(' ').toLowerCase().replaceAll('ё', 'е');

/**
 * Replaces every office with `offices` in one transaction: readers see the old database until it commits, and a
 * failure part-way leaves it as it was. Records the import.
 */
export async function replacePostcodes(database: Database, offices: readonly PostOffice[], file: string, userId: number | null): Promise<PostcodeDataset> {
  const newest = offices.reduce((max, o) => (o.changed > max ? o.changed : max), '');
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`delete from postcodes`);
    for (let from = 0; from < offices.length; from += INSERT_BATCH) {
      const rows = offices.slice(from, from + INSERT_BATCH).map((o) => ({
        index: o.index,
        name: o.name,
        type: o.type,
        parent: o.parent,
        region: o.region,
        autonomous: o.autonomous,
        area: o.area,
        city: o.city,
        settlement: o.settlement,
        changed: o.changed || null,
        previous_index: o.previousIndex,
        search: searchTextOf(o),
      }));
      await tx.execute(sql`insert into postcodes select * from json_populate_recordset(null::postcodes, ${JSON.stringify(rows)}::json)`);
    }
    await tx.execute(sql`insert into postcode_imports (file, rows, newest_change, imported_by) values (${file}, ${offices.length}, ${newest || null}, ${userId})`);
  });
  return dataset(database);
}

export async function dataset(database: Database): Promise<PostcodeDataset> {
  const [last] = await database.query<{ file: string; imported_at: Date; newest: string | null }>(
    "select file, imported_at, to_char(newest_change, 'YYYY-MM-DD') as newest from postcode_imports order by id desc limit 1",
  );
  const [count] = await database.query<{ rows: number }>('select count(*)::int as rows from postcodes');
  return { file: last?.file ?? null, importedAt: last ? new Date(last.imported_at).toISOString() : null, rows: count?.rows ?? 0, newestChange: last?.newest ?? null };
}

export async function officeByIndex(database: Database, index: string): Promise<{ office: PostOffice | null; renumbered: PostOffice[] }> {
  const [office] = await database.query<PostOffice>(`select ${COLUMNS} from postcodes where index = $1`, [index]);
  const renumbered = office ? [] : await database.query<PostOffice>(`select ${COLUMNS} from postcodes where previous_index = $1 order by index limit 10`, [index]);
  return { office: office ?? null, renumbered };
}

/** Offices holding every word of `q` (in any field of the place or the name), in an optional region; at most 50. */
export async function searchOffices(database: Database, q: string, region: string | undefined): Promise<{ offices: PostOffice[]; total: number }> {
  const words = q.toLowerCase().replaceAll('ё', 'е').split(/[\s,]+/).filter(Boolean).slice(0, 6);
  const params: unknown[] = [];
  const where = words.map((word) => {
    params.push(`%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    return `search like $${params.length}`;
  });
  if (region) {
    params.push(region);
    where.push(`region = $${params.length}`);
  }
  const condition = where.length > 0 ? where.join(' and ') : 'true';
  const offices = await database.query<PostOffice>(
    `select ${COLUMNS} from postcodes where ${condition} order by region, city, settlement, index limit ${POSTCODE_SEARCH_LIMIT}`,
    params,
  );
  const total =
    offices.length < POSTCODE_SEARCH_LIMIT
      ? offices.length
      : ((await database.query<{ n: number }>(`select count(*)::int as n from postcodes where ${condition}`, params))[0]?.n ?? 0);
  return { offices, total };
}
