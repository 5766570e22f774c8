import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { marketDays, marketRecords } from './generate';
import { csvHeader, formatLine, type Entity } from './importFormat';

/** Writes a generated market as import files (products.<format>, keywords.<format>) into `dir`: samples and tests. */
export async function writeMarketFiles(dir: string, products: number, format: 'csv' | 'jsonl', now = new Date()): Promise<void> {
  const streams = {
    products: createWriteStream(join(dir, `products.${format}`)),
    keywords: createWriteStream(join(dir, `keywords.${format}`)),
  };
  const write = async (entity: Entity, line: string) => {
    if (!streams[entity].write(`${line}\n`)) await once(streams[entity], 'drain');
  };
  if (format === 'csv') for (const entity of ['products', 'keywords'] as const) await write(entity, csvHeader(entity));
  for (const record of marketRecords(products, marketDays(now))) {
    if (record.product) await write('products', formatLine('products', format, record.product));
    else await write('keywords', formatLine('keywords', format, record.keyword));
  }
  await Promise.all(Object.values(streams).map((stream) => new Promise((resolve) => stream.end(resolve))));
}
