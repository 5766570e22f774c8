/**
 * `npm run postcodes:import -- FILE`: replaces the postcode database with Russian Post's PIndx file (the zip as the
 * post publishes it, or the .dbf inside), in the database the server uses (DATABASE_URL, else DATA_DIR's PGlite).
 * A file that cannot be read whole changes nothing.
 */
import { basename } from 'node:path';
import { loadConfig } from '../../config';
import { openDatabase } from '../../db/database';
import { PindxError, readPindxFile } from './pindx';
import { replacePostcodes } from './service';

const file = process.argv[2];
if (!file) {
  console.error('usage: npm run postcodes:import -- PIndx.zip (or PIndxNN.dbf)');
  process.exit(2);
}
const config = loadConfig(process.env);
const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
try {
  await database.migrate();
  const started = Date.now();
  const offices = await readPindxFile(file);
  const loaded = await replacePostcodes(database, offices, basename(file), null);
  console.log(`Loaded ${loaded.rows} post offices from ${basename(file)} (newest change ${loaded.newestChange ?? '—'}) in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
} catch (error) {
  if (error instanceof PindxError) {
    console.error(`The file cannot be loaded; the postcode database is unchanged: ${error.message}`);
    process.exitCode = 1;
  } else throw error;
} finally {
  await database.close();
}
