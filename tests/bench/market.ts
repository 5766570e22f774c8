/**
 * `npm run bench -- --scenario market --database-url postgres://…`: the research and sales-analysis figures of issue 30
 * on a database that already holds a market and a seller's orders (not a test; prints a table and writes
 * tests/bench/results/market.json). Fill one with
 *   DATABASE_URL=… SECRET_KEY=… npm run seed -- --market 1000000 --orders 1000000
 * Without --database-url it reads the PGlite database in DATA_DIR.
 *
 * - research query: `runs` random queries of three filters (of category, price, units, rating, reviews, growth), a
 *   random sort of the 12 and the first 500 rows, as the hot-products page sends them;
 *   past COUNT_CAP, its exact count (the page's second call); up to three of those results of at most 100,000 rows
 *   exported, every page of 5,000;
 * - keyword page: a random keyword's detail (its history, products and related keywords);
 * - sales analysis, 90 days: cold (a period not asked before: each run ends a day earlier) and warm (the same period
 *   again, as the SKU table's pages and a regrouping ask it);
 * - on PostgreSQL, a cancelled query: from its AbortSignal until no backend runs it; again with every connection of
 *   the pool busy.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { EXPORT_MAX_ROWS, EXPORT_PAGE_ROWS, PRODUCT_SORTS, type ProductQuery } from '../../contract/research';
import { createAnalysisService } from '../../server/areas/analysis/service';
import { hotExport, hotProducts, keywordDetail } from '../../server/areas/research/queries';
import { openDatabase, POOL_SIZE } from '../../server/db/database';
import { CATEGORY_TREE } from '../../server/marketplace/simulator/catalog';

type Figure = { name: string; target: number; samples: number[] };

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

function sequence(seed: number) {
  let s = seed;
  return () => ((s = (s * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
}

async function timed<T>(samples: number[], work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  samples.push(performance.now() - started);
  return result;
}

export async function runMarketBench(options: { databaseUrl: string | null; dataDir: string; runs: number; resultsDir: string }) {
  const database = await openDatabase({ dataDir: options.dataDir, databaseUrl: options.databaseUrl });
  const run = database.query.bind(database) as Parameters<typeof hotProducts>[0];
  const random = sequence(30);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const figures: Figure[] = [];
  try {
    const [counts] = await database.query<{ products: number; keywords: number }>(
      `select (select count(*) from market_products)::int as products, (select count(*) from market_keywords)::int as keywords`,
    );
    const { products, keywords } = counts ?? { products: 0, keywords: 0 };
    const categories = CATEGORY_TREE.flatMap((root) => [root.categoryId, ...root.children.map((c) => c.categoryId)]);
    const filters: ((q: ProductQuery) => void)[] = [
      (q) => (q.categoryId = pick(categories)),
      (q) => ((q.priceMin = Math.round(random() * 500)), (q.priceMax = (q.priceMin ?? 0) + 500 + Math.round(random() * 5000))),
      (q) => (q.salesMin = pick([1, 5, 10, 50])),
      (q) => (q.ratingMin = pick([3, 4, 4.5])),
      (q) => (q.reviewsMax = pick([10, 100, 1000])),
      (q) => (q.growthMin = pick([0, 20, 100])),
    ];
    const research: Figure = { name: 'research query: 3 filters, a sort, 500 rows (ms)', target: 300, samples: [] };
    const count: Figure = { name: 'its exact count, past the 10,000 estimate (ms)', target: 500, samples: [] };
    const exportable: { query: ProductQuery; total: number }[] = [];
    for (let i = 0; i < options.runs; i++) {
      const query: ProductQuery = { period: 30, sort: { column: pick(PRODUCT_SORTS), direction: random() < 0.8 ? 'desc' : 'asc' }, limit: 500 };
      const chosen = new Set<number>();
      while (chosen.size < 3) chosen.add(Math.floor(random() * filters.length));
      for (const f of chosen) filters[f]!(query);
      const result = await timed(research.samples, () => hotProducts(run, query as Parameters<typeof hotProducts>[1]));
      if (!result.totalCapped) continue;
      // Past COUNT_CAP the page shows the estimate and asks the exact count apart (countOnly).
      const exact = await timed(count.samples, () => hotProducts(run, { ...query, countOnly: true } as Parameters<typeof hotProducts>[1]));
      if (exact.total <= EXPORT_MAX_ROWS) exportable.push({ query, total: exact.total });
    }
    figures.push(research, count);

    // An export of such a result (at most 100,000 rows), page after page as the worker asks them.
    const exporting: Figure = { name: 'export of 10,001-100,000 rows, all pages (ms)', target: 10_000, samples: [] };
    for (const { query } of exportable.slice(0, 3)) {
      await timed(exporting.samples, async () => {
        let page = await hotExport(run, { ...query, limit: EXPORT_PAGE_ROWS } as Parameters<typeof hotExport>[1]);
        while (page.next) page = await hotExport(run, { ...query, limit: EXPORT_PAGE_ROWS, after: page.next } as Parameters<typeof hotExport>[1]);
      });
    }
    if (exportable.length > 0) console.log(`exported: ${exportable.slice(0, 3).map((e) => e.total.toLocaleString('en')).join(', ')} rows`);
    figures.push(exporting);

    const keyword: Figure = { name: 'keyword page (ms)', target: 200, samples: [] };
    const names = await database.query<{ keyword: string }>(`select keyword from market_keywords order by id limit 1000`);
    for (let i = 0; i < Math.min(options.runs, names.length); i++) await timed(keyword.samples, () => keywordDetail(run, pick(names).keyword));
    figures.push(keyword);

    const [seller] = await database.query<{ id: number; orders: number }>(
      `select u.id, (select count(*) from orders o where o.user_id = u.id)::int as orders from users u where username = 'seller'`,
    );
    let orders = 0;
    if (seller && seller.orders > 0) {
      orders = seller.orders;
      const service = createAnalysisService({ database, secretKey: Buffer.alloc(32), clientFor: () => { throw new Error('offline'); }, log: { warn: () => undefined } });
      const today = Date.parse(new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10));
      const day = (n: number) => new Date(today - n * 86_400_000).toISOString().slice(0, 10);
      const ask = (end: number) => service.analyze(seller.id, { from: day(end + 89), to: day(end), shopIds: [], groupBy: 'day', breakdown: 'shop' }, 'en');
      const cold: Figure = { name: 'sales analysis, 90 days, new period (ms)', target: 300, samples: [] };
      const warm: Figure = { name: 'sales analysis, 90 days, asked again (ms)', target: 300, samples: [] };
      await ask(0);
      for (let i = 1; i <= Math.min(options.runs, 30); i++) {
        await timed(cold.samples, () => ask(i));
        await timed(warm.samples, () => ask(i));
      }
      figures.push(cold, warm);
    }

    if (database.kind === 'postgres') {
      // A research query cancelled while it runs (a newer query, or the analyst leaving the page): from the abort until
      // no backend runs it any more. The statement scans the 1.5 GB history, so it is surely running when aborted.
      const freed: Figure = { name: 'cancelled query freed in the database (ms)', target: 100, samples: [] };
      for (let i = 0; i < 10; i++) {
        const tag = `bench-cancel-${i}`;
        const controller = new AbortController();
        const running = database.cancellableQuery(`select count(*) from market_product_history where sales::text <> '${tag}'`, [], controller.signal).catch(() => null);
        await new Promise((resolve) => setTimeout(resolve, 150));
        const aborted = performance.now();
        controller.abort();
        for (;;) {
          const [row] = await database.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity where state = 'active' and query like $1 and pid <> pg_backend_pid()`,
            [`%${tag}%`],
          );
          if (!row || row.n === 0) break;
        }
        freed.samples.push(performance.now() - aborted);
        await running;
      }
      figures.push(freed);

      // The same while every connection of the pool is busy (POOL_SIZE one-second sleeps, one of them waiting for a
      // connection), watched through a pool of its own. A cancel that needed a pool connection would wait for a sleep
      // to end: up to the sleeps' length, which is this figure's ceiling.
      const watcher = await openDatabase({ dataDir: options.dataDir, databaseUrl: options.databaseUrl });
      const active = async (tag: string) =>
        (await watcher.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where state = 'active' and query like $1 and pid <> pg_backend_pid()`, [`%${tag}%`]))[0]!.n;
      const busy: Figure = { name: 'the same, every pool connection busy (ms)', target: 100, samples: [] };
      try {
        for (let i = 0; i < 10; i++) {
          const tag = `bench-busy-cancel-${i}`;
          const controller = new AbortController();
          let ended = false;
          const running = database
            .cancellableQuery(`select count(*) from market_product_history where sales::text <> '${tag}'`, [], controller.signal)
            .catch(() => null)
            .finally(() => (ended = true));
          while ((await active(`${tag}'`)) === 0);
          const sleeps = Array.from({ length: POOL_SIZE }, () => database.query(`select pg_sleep(1), '${tag}-sleep'`));
          while ((await active(`${tag}-sleep`)) < POOL_SIZE - 1);
          if (ended) throw new Error('the scan ended before it was cancelled: market_product_history is too small for this figure');
          const aborted = performance.now();
          controller.abort();
          while ((await active(`${tag}'`)) > 0);
          busy.samples.push(performance.now() - aborted);
          await Promise.all([running, ...sleeps]);
        }
      } finally {
        await watcher.close();
      }
      figures.push(busy);
    }

    const rows = figures.map((f) => ({ name: f.name, target: f.target, p50: percentile(f.samples, 50), p95: percentile(f.samples, 95), runs: f.samples.length }));
    console.log(`market: ${products.toLocaleString('en')} products, ${keywords.toLocaleString('en')} keywords; seller orders ${orders.toLocaleString('en')}; ${database.kind}; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
    console.log(`${'figure'.padEnd(46)} | target |    p50 |    p95 | runs`);
    for (const r of rows) console.log(`${r.name.padEnd(46)} | ${`<= ${r.target}`.padStart(6)} | ${r.p50.toFixed(0).padStart(6)} | ${r.p95.toFixed(0).padStart(6)} | ${r.runs}`);
    mkdirSync(options.resultsDir, { recursive: true });
    const report = { date: new Date().toISOString(), database: database.kind, products, keywords, orders, loadAverage: loadavg(), cpus: cpus().length, figures: rows };
    writeFileSync(join(options.resultsDir, 'market.json'), `${JSON.stringify(report, null, 2)}\n`);
    console.log('written tests/bench/results/market.json');
  } finally {
    await database.close();
  }
}
