import type { Database } from '../db/database';
import { SAMPLE_POSTCODES } from '../areas/postcodes/sample';
import { replacePostcodes } from '../areas/postcodes/service';

/** Loads the sample postcode database when none was ever loaded (an imported one is kept). */
export async function seedDemoPostcodes(database: Database): Promise<void> {
  const [loaded] = await database.query<{ n: number }>('select count(*)::int as n from postcode_imports');
  if ((loaded?.n ?? 0) > 0) return;
  await replacePostcodes(database, SAMPLE_POSTCODES, 'demo sample (server/areas/postcodes/sample.ts)', null);
}
