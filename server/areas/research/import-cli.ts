import { createReadStream, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../config';
import { openDatabase } from '../../db/database';
import { entityOfFile, importMarket, type ImportSource } from './importer';
import type { Entity } from './importFormat';
import { textLines } from './textLines';

/**
 * `npm run market:import -- DIR`: imports DIR's products.(csv|jsonl) and keywords.(csv|jsonl) into the configured
 * database (docs/market-import.md), printing progress and, when lines are refused, each with its file and number.
 */
async function run() {
  const dir = process.argv[2];
  if (!dir || dir === '--help' || !existsSync(dir)) {
    console.log('Usage: npm run market:import -- DIR\nDIR holds products.csv or products.jsonl and keywords.csv or keywords.jsonl (docs/market-import.md).');
    process.exit(dir === '--help' ? 0 : 1);
  }
  const found: Partial<Record<Entity, ImportSource>> = {};
  for (const name of readdirSync(dir)) {
    const kind = entityOfFile(name);
    if (!kind) continue;
    if (found[kind.entity]) throw new Error(`${dir} holds two ${kind.entity} files: keep one`);
    found[kind.entity] = { name, format: kind.format, lines: textLines(createReadStream(join(dir, name))) };
  }
  if (!found.products || !found.keywords) {
    console.error(`${dir} must hold products.csv or products.jsonl and keywords.csv or keywords.jsonl`);
    process.exit(1);
  }
  const database = await openDatabase(loadConfig(process.env));
  const started = Date.now();
  try {
    await database.migrate();
    const result = await importMarket(database, { products: found.products, keywords: found.keywords }, {
      onProgress: (p) => console.log(`  ${p.step}: ${p.lines} lines, ${p.loaded} loaded (${((Date.now() - started) / 1000).toFixed(1)} s)`),
    });
    if (result.status === 'done') {
      const s = result.summary;
      console.log(`Imported ${s.products} products and ${s.keywords} keywords as of ${s.asOf} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
      return;
    }
    console.error(result.message.en);
    for (const error of result.errors) console.error(`  ${error.file}:${error.line}: ${error.message.en}`);
    if (result.errorCount > result.errors.length) console.error(`  … and ${result.errorCount - result.errors.length} more`);
    process.exitCode = 1;
  } finally {
    await database.close();
  }
}

run().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
