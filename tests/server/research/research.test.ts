import type { FastifyInstance } from 'fastify';
import { productQuerySchema, type KeywordDetail, type KeywordExportPage, type KeywordResult, type ProductExportPage, type MarketProductRow, type ProductDetail, type ProductQuery, type ProductResult } from '../../../contract/research';
import { generateMarket } from '../../../server/areas/research/generate';
import { COVERED_COLUMNS, hotExport, hotProducts, PRODUCT_COLUMNS, SORT_COLUMNS, typesUnder } from '../../../server/areas/research/queries';
import { openPostgres, POOL_SIZE, QueryCancelled } from '../../../server/db/database';
import { ApiError } from '../../../server/http/errors';
import { createPostgresDatabase, ALL_DATABASE_TARGETS, login, startTestApp, type Session, type TestApp } from '../harness';

type Envelope<T> = { code: number; msg: string; data: T };

async function post<T>(app: FastifyInstance, session: Session, url: string, payload: object = {}) {
  const response = await app.inject({ method: 'POST', url: `/api${url}`, headers: session.headers, payload });
  return { status: response.statusCode, body: response.json<Envelope<T>>() };
}

/** A seeded pseudo-random sequence (the queries differ per seed but not per run). */
function sequence(seed: number) {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4_294_967_296;
  };
}

const SORT_FIELDS = ['sales7', 'sales30', 'sales90', 'revenue30', 'growth', 'price', 'rating', 'reviews', 'firstSeen', 'potentialScore'] as const;

/** The reference: the same query answered in plain JavaScript over every row. */
function reference(rows: MarketProductRow[], query: Required<Pick<ProductQuery, 'sort' | 'limit'>> & ProductQuery, extra: (row: MarketProductRow) => boolean = () => true) {
  const period = query.period ?? 30;
  const sales = (row: MarketProductRow) => row[`sales${period}` as 'sales30'];
  const revenue = (row: MarketProductRow) => row[`revenue${period}` as 'revenue30'];
  const types = query.categoryId === undefined ? null : typesUnder(query.categoryId);
  const inside = (value: number | null, min?: number, max?: number) => (min === undefined || (value !== null && value >= min)) && (max === undefined || (value !== null && value <= max));
  const kept = rows.filter(
    (row) =>
      (!types || types.includes(row.typeId)) &&
      inside(row.price, query.priceMin, query.priceMax) &&
      inside(sales(row), query.salesMin, query.salesMax) &&
      inside(revenue(row), query.revenueMin, query.revenueMax) &&
      inside(row.growth, query.growthMin, query.growthMax) &&
      // rating is a real: the database compares the bound as one too (4.7 stored is 4.699999809...).
      inside(row.rating, query.ratingMin === undefined ? undefined : Math.fround(query.ratingMin)) &&
      inside(row.reviews, query.reviewsMin, query.reviewsMax) &&
      extra(row),
  );
  const { column, direction } = query.sort;
  const sign = direction === 'asc' ? 1 : -1;
  kept.sort((a, b) => {
    const x = a[column];
    const y = b[column];
    if (x === null || y === null) return x === y ? sign * (a.sku - b.sku) : x === null ? 1 : -1;
    return x !== y ? sign * (x - y) : sign * (a.sku - b.sku);
  });
  const offset = query.offset ?? 0;
  return { total: kept.length, skus: kept.slice(offset, offset + query.limit).map((row) => row.sku) };
}

describe.each(ALL_DATABASE_TARGETS)('market research ($kind)', (target) => {
  let test: TestApp;
  let analyst: Session;
  let all: MarketProductRow[];
  beforeAll(async () => {
    test = await startTestApp(target);
    await generateMarket(test.database, { products: 2_000, now: test.clock.now() });
    analyst = await login(test.app, 'analyst', 'analyst123');
    all = await test.database.query<MarketProductRow>(`select ${PRODUCT_COLUMNS} from market_products`);
  });
  afterAll(async () => test.close());

  it('answers random queries (three filters and a sort) as a plain reference does', async () => {
    const random = sequence(7);
    for (let round = 0; round < 12; round++) {
      const period = ([7, 30, 90] as const)[Math.floor(random() * 3)]!;
      const filters: Partial<ProductQuery>[] = [
        { categoryId: [17027000, 17028650, 94760, 17027200][Math.floor(random() * 4)]! },
        { priceMin: Math.round(random() * 800) },
        { salesMin: Math.round(random() * 20) },
        { growthMin: Math.round(random() * 60) - 30 },
        { ratingMin: 4 + Math.round(random() * 8) / 10 },
        { reviewsMax: Math.round(random() * 400) },
        { revenueMin: Math.round(random() * 5_000) },
      ];
      const picked = filters.sort(() => random() - 0.5).slice(0, 3);
      const query = {
        period,
        ...Object.assign({}, ...picked),
        sort: { column: SORT_FIELDS[Math.floor(random() * SORT_FIELDS.length)]!, direction: random() < 0.5 ? 'asc' : 'desc' },
        limit: 50,
      } as Required<Pick<ProductQuery, 'sort' | 'limit'>> & ProductQuery;
      const { status, body } = await post<ProductResult>(test.app, analyst, '/search/hotProductPro', query);
      expect(status, JSON.stringify(query)).toBe(200);
      const expected = reference(all, query);
      expect(body.data.rows.map((row) => row.sku), JSON.stringify(query)).toEqual(expected.skus);
      expect(body.data.total).toBe(expected.total);
      expect(body.data.asOf).toBe('2025-06-09');
    }
  });

  it('answers the same through each path: a short walk of the sort, a longer one, and the filters first', async () => {
    const run = test.database.query.bind(test.database) as Parameters<typeof hotProducts>[0];
    const random = sequence(11);
    // A walk of 60 rows finds 40 only when the filters pass most rows; a longer one is allowed up to 400 rows, so the
    // rest go filters first. Each query is checked on all three, against the reference. Every third query also names
    // a seller, a column the sort indexes do not hold: its walks read the table (the longer walk only when the first
    // one's rate says it reaches the rows), the others read the index alone.
    const paths = { walked: 0, walkedLonger: 0, filtered: 0, bySeller: 0 };
    for (let round = 0; round < 24; round++) {
      const filters: Partial<ProductQuery>[] = [
        { categoryId: [17027000, 17028650, 94760][Math.floor(random() * 3)]! },
        { priceMin: Math.round(random() * 800), priceMax: 1000 + Math.round(random() * 4000) },
        { salesMin: [1, 5, 20][Math.floor(random() * 3)]! },
        { growthMin: Math.round(random() * 60) - 30 },
        { ratingMin: 4 + Math.round(random() * 8) / 10 },
        { reviewsMax: Math.round(random() * 400) },
      ];
      const picked = filters.sort(() => random() - 0.5).slice(0, 1 + Math.floor(random() * 3));
      const bySeller = round % 3 === 0;
      if (bySeller) picked.push({ seller: '贸易' });
      // Every fourth query asks for a later page of its result.
      const offset = round % 4 === 2 ? 25 : 0;
      const input = { ...Object.assign({}, ...picked), sort: { column: SORT_FIELDS[Math.floor(random() * SORT_FIELDS.length)]!, direction: random() < 0.5 ? 'asc' : 'desc' }, limit: 40, offset };
      const query = productQuerySchema.parse(input);
      const expected = reference(all, query as Required<Pick<ProductQuery, 'sort' | 'limit'>> & ProductQuery, bySeller ? (row) => row.sellerName.includes('贸易') : undefined);
      if (bySeller) expect(expected.total, 'the seller filter matches some products').toBeGreaterThan(0);
      const statements: string[] = [];
      const counting: typeof run = (text, params) => (statements.push(text), run(text, params));
      const result = await hotProducts(counting, query, { first: 60, max: 400 });
      expect(result.rows.map((row) => row.sku), JSON.stringify(input)).toEqual(expected.skus);
      expect(result.total, JSON.stringify(input)).toBe(expected.total);
      const walks = statements.filter((text) => /limit \d+\) p/.test(text)).length;
      const filtered = statements.some((text) => text.includes(' + 0 '));
      if (filtered) paths.filtered++;
      else if (walks === 2) paths.walkedLonger++;
      else paths.walked++;
      if (bySeller && (filtered || walks === 2)) paths.bySeller++;
    }
    expect(paths.walked).toBeGreaterThan(0);
    expect(paths.walkedLonger).toBeGreaterThan(0);
    expect(paths.filtered).toBeGreaterThan(0);
    expect(paths.bySeller).toBeGreaterThan(0);
  });

  it('pages through the whole sorted market, and counts a result exactly apart', async () => {
    const query = { priceMin: 300, period: 30, sort: { column: 'price', direction: 'desc' }, limit: 500 } as const;
    const expected = reference(all, { ...query, limit: 5_000 });
    expect(expected.total).toBeGreaterThan(1_000);
    const skus: number[] = [];
    for (let offset = 0; offset < expected.total; offset += 500) {
      const { status, body } = await post<ProductResult>(test.app, analyst, '/search/hotProductPro', { ...query, offset });
      expect(status).toBe(200);
      expect(body.data.total).toBe(expected.total);
      expect(body.data.estimate).toBeNull();
      skus.push(...body.data.rows.map((row) => row.sku));
    }
    expect(skus).toEqual(expected.skus);
    const counted = await post<ProductResult>(test.app, analyst, '/search/hotProductPro', { ...query, countOnly: true });
    expect(counted.body.data).toMatchObject({ total: expected.total, totalCapped: false, rows: [] });
    const refused = await post<ProductResult>(test.app, analyst, '/search/hotProductPro', { ...query, offset: 100_000 });
    expect(refused.status).toBe(400);
  });

  it("counts a niche exactly, as a direct COUNT does; past the cap it answers the planner's estimate, marked as one", async () => {
    const run = test.database.query.bind(test.database) as Parameters<typeof hotProducts>[0];
    const query = { priceMin: 200, ratingMin: 4, period: 30, sort: { column: 'sales30', direction: 'desc' }, limit: 100 } as const;
    const [direct] = await test.database.query<{ n: number }>(`select count(*)::int as n from market_products where price >= 200 and rating >= 4`);
    expect(direct!.n).toBeGreaterThan(300);
    const exact = await post<ProductResult>(test.app, analyst, '/search/hotProductPro', { ...query, countOnly: true });
    expect(exact.body.data.total).toBe(direct!.n);
    // Under a cap of 300 (10,000 on the real market) the rows' answer says "about" and the page asks the count apart.
    const capped = await hotProducts(run, productQuerySchema.parse(query), undefined, 300);
    expect(capped).toMatchObject({ totalCapped: true, total: 300 });
    expect(capped.estimate).toBeGreaterThan(300);
    expect(capped.rows).toHaveLength(100);
    const under = await hotProducts(run, productQuerySchema.parse(query), undefined, 10_000);
    expect(under).toMatchObject({ totalCapped: false, total: direct!.n, estimate: null });
  });

  it("exports a list's rows page after page in the list's own order, whatever the sort (nulls last either way)", async () => {
    const exportAll = async (url: string, query: object, limit: number) => {
      const skus: number[] = [];
      let after: ProductExportPage['next'] | undefined;
      let total: number | null = null;
      for (let pages = 0; pages < 50; pages++) {
        const { status, body } = await post<ProductExportPage>(test.app, analyst, url, { ...query, limit, after });
        expect(status, JSON.stringify(body)).toBe(200);
        if (!after) total = body.data.total;
        else expect(body.data.total).toBeNull();
        skus.push(...body.data.rows.map((row) => row.sku));
        if (!body.data.next) break;
        after = body.data.next;
      }
      return { total, skus };
    };
    for (const sort of [
      { column: 'growth', direction: 'desc' }, { column: 'growth', direction: 'asc' }, { column: 'rating', direction: 'asc' }, { column: 'firstSeen', direction: 'desc' },
    ] as const) {
      const query = { priceMin: 100, period: 30 as const, sort };
      const expected = reference(all, { ...query, limit: 5_000 });
      expect(await exportAll('/search/hotProductPro/export', query, 420), JSON.stringify(sort)).toEqual({ total: expected.total, skus: expected.skus });
    }
    // The other lists: the export's rows are the list's own rows (its pages), in the same order.
    for (const [url, query] of [
      ['/search/cnProductPro', { sort: { column: 'revenue30', direction: 'desc' } }],
      ['/search/hotProductProNew', { newDays: 20, sort: { column: 'growth', direction: 'desc' } }],
      ['/getPotentialResult', { demandMin: 40 }],
    ] as const) {
      const listed = await post<ProductResult>(test.app, analyst, url, { ...query, limit: 2_000 });
      expect(listed.body.data.total).toBeGreaterThan(0);
      expect(await exportAll(`${url}/export`, query, 280), url).toEqual({ total: listed.body.data.total, skus: listed.body.data.rows.map((row) => row.sku) });
    }
  });

  it('refuses an export past its row cap with a message saying so, and exports the keyword list in its order', async () => {
    const run = test.database.query.bind(test.database) as Parameters<typeof hotExport>[0];
    const query = { period: 30, sort: { column: 'sales30', direction: 'desc' }, limit: 100 } as const;
    const refused = await hotExport(run, productQuerySchema.omit({ offset: true, countOnly: true }).parse(query), 1_500).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe(400);
    expect((refused as ApiError).localized('zh')).toBe('导出最多 1,500 行，此结果超过 1,500 行：请缩小筛选范围后再导出');
    expect((refused as ApiError).localized('en')).toBe('An export holds at most 1,500 rows and this result has more: narrow the filters, then export again');
    expect((await hotExport(run, productQuerySchema.omit({ offset: true, countOnly: true }).parse(query), 2_000)).total).toBe(2_000);
    const bad = await post<unknown>(test.app, analyst, '/search/hotProductPro/export', { ...query, limit: 5_001 });
    expect(bad.status).toBe(400);

    const sort = { column: 'growth', direction: 'desc' } as const;
    const listed = await post<KeywordResult>(test.app, analyst, '/getQueryResult', { sort, limit: 500 });
    const rows: string[] = [];
    let page = await post<KeywordExportPage>(test.app, analyst, '/getQueryResult/export', { sort, limit: 60 });
    const [counted] = await test.database.query<{ n: number }>(`select count(*)::int as n from market_keywords`);
    expect(page.body.data.total).toBe(counted!.n);
    for (;;) {
      rows.push(...page.body.data.rows.map((row) => row.keyword));
      if (!page.body.data.next) break;
      page = await post<KeywordExportPage>(test.app, analyst, '/getQueryResult/export', { sort, limit: 60, after: page.body.data.next });
    }
    expect(rows).toHaveLength(counted!.n);
    expect(rows.slice(0, 500)).toEqual(listed.body.data.rows.map((row) => row.keyword));
  });

  it('keeps in every sort index (and the category index) each column the filters read, so walks need no table page', async () => {
    const indexes = await test.database.query<{ definition: string }>(
      `select pg_get_indexdef(x.indexrelid) as definition from pg_index x join pg_class t on t.oid = x.indrelid where t.relname = 'market_products'`,
    );
    for (const column of [...Object.values(SORT_COLUMNS), 'type_id']) {
      const index = indexes.find(({ definition }) => new RegExp(`USING btree \\(${column}( DESC NULLS LAST)?, `).test(definition));
      expect(index, column).toBeDefined();
      // `... USING btree (key columns) INCLUDE (columns)`: what the index holds, whatever the order of the keys.
      const held = [...index!.definition.matchAll(/\(([^()]*)\)/g)].flatMap((match) => match[1]!.split(', ').map((part) => part.replace(/ (ASC|DESC)( NULLS (FIRST|LAST))?$/, '')));
      const missing = [...COVERED_COLUMNS].filter((covered) => !held.includes(covered));
      expect(missing, index!.definition).toEqual([]);
    }
  });

  it('narrows to Chinese sellers, to products first seen in the last N days, and to potential by each part', async () => {
    const sort = { column: 'sales30', direction: 'desc' } as const;
    const cn = await post<ProductResult>(test.app, analyst, '/search/cnProductPro', { sort, limit: 2000 });
    expect(cn.body.data.total).toBe(reference(all, { sort, limit: 2000 }, (row) => row.sellerCountry === 'CN').total);
    expect(cn.body.data.rows.every((row) => row.sellerCountry === 'CN')).toBe(true);

    const fresh = await post<ProductResult>(test.app, analyst, '/search/hotProductProNew', { newDays: 14, sort, limit: 2000 });
    const since = Date.parse('2025-06-09T00:00:00Z') - 14 * 86_400_000;
    expect(fresh.body.data.rows.map((row) => row.sku)).toEqual(reference(all, { sort, limit: 2000 }, (row) => row.firstSeen > since).skus);
    expect(fresh.body.data.total).toBeGreaterThan(0);

    const potential = await post<ProductResult>(test.app, analyst, '/getPotentialResult', { demandMin: 60, competitionMin: 40, limit: 2000 });
    const expected = reference(all, { sort: { column: 'potentialScore', direction: 'desc' }, limit: 2000 }, (row) => row.potentialDemand >= 60 && row.potentialCompetition >= 40);
    expect(potential.body.data.rows.map((row) => row.sku)).toEqual(expected.skus);
    for (const row of potential.body.data.rows) {
      const weighed = 0.4 * row.potentialDemand + 0.25 * row.potentialCompetition + 0.2 * row.potentialReviews + 0.15 * row.potentialPrice;
      expect(Math.abs(row.potentialScore - weighed)).toBeLessThan(0.2);
    }
  });

  it("answers a product's history and keywords, and a keyword's history, related keywords and ranking products", async () => {
    const [keyword] = await test.database.query<{ keyword: string; top: string[] }>(`select keyword, top_skus::text[] as top from market_keywords where cardinality(top_skus) = 10 order by freq_30 desc limit 1`);
    const detail = await post<KeywordDetail>(test.app, analyst, '/search/keywordDetail', { keyword: keyword!.keyword.toUpperCase() });
    expect(detail.status).toBe(200);
    expect(detail.body.data.frequency).toHaveLength(90);
    expect(detail.body.data.keyword.freq7).toBe(detail.body.data.frequency.slice(-7).reduce((a, b) => a + b, 0));
    expect(detail.body.data.products.map((row) => String(row.sku))).toEqual(keyword!.top);
    expect(detail.body.data.related.length).toBeGreaterThan(0);
    expect(detail.body.data.related[0]!.shared).toBeGreaterThan(0);

    const sku = Number(keyword!.top[0]);
    const product = await post<ProductDetail>(test.app, analyst, '/search/productDetail', { sku });
    expect(product.body.data.sales).toHaveLength(90);
    expect(product.body.data.product.sales30).toBe(product.body.data.sales.slice(-30).reduce((a, b) => a + b, 0));
    expect(product.body.data.keywords.map((k) => k.keyword)).toContain(keyword!.keyword);

    const found = await post<KeywordResult>(test.app, analyst, '/getQueryResult', { text: keyword!.keyword.split(' ')[0] });
    expect(found.body.data.rows.length).toBeGreaterThan(0);
    expect(found.body.data.rows.every((row) => row.keyword.includes(keyword!.keyword.split(' ')[0]!))).toBe(true);
    const freqs = found.body.data.rows.map((row) => row.freq30);
    expect(freqs).toEqual([...freqs].sort((a, b) => b - a));

    const missing = await post<ProductDetail>(test.app, analyst, '/search/productDetail', { sku: 1 });
    expect(missing.status).toBe(404);
    const badCategory = await post<ProductResult>(test.app, analyst, '/search/hotProductPro', { categoryId: 123 });
    expect(badCategory.status).toBe(400);
  });

  it("answers an analyst whose search period has passed with the spec's 401 and nothing else; other roles as the table says", async () => {
    await test.database.query(`update users set search_word_valid_time = $1 where username = 'analyst'`, [new Date(test.clock.now().getTime() - 1000)]);
    for (const url of ['/search/hotProductPro', '/search/cnProductPro', '/search/hotProductProNew', '/getPotentialResult', '/getQueryResult', '/getCategory',
      '/search/hotProductPro/export', '/search/cnProductPro/export', '/search/hotProductProNew/export', '/getPotentialResult/export', '/getQueryResult/export']) {
      const refused = await post<unknown>(test.app, analyst, url, {});
      expect(refused.status, url).toBe(401);
      expect(refused.body).toEqual({ code: 401, msg: '权限已过期或无权限操作，请联系管理员', data: null });
    }
    const newbie = await login(test.app, 'newbie', 'newbie123');
    expect((await post(test.app, newbie, '/search/hotProductPro', {})).status).toBe(401);
    expect((await post(test.app, newbie, '/search/hotProductPro/export', {})).status).toBe(401);
    const admin = await login(test.app, 'admin', 'admin123');
    // Hot products are open to admin, follow and search; the other research pages to search and follow.
    expect((await post(test.app, admin, '/search/hotProductPro', {})).status).toBe(200);
    const seller = await login(test.app, 'seller', 'seller123');
    expect((await post(test.app, seller, '/search/cnProductPro', {})).status).toBe(200);
    expect((await post(test.app, seller, '/search/cnProductPro/export', { limit: 10 })).status).toBe(200);
    await test.database.query(`update users set search_word_valid_time = $1 where username = 'analyst'`, [new Date(test.clock.now().getTime() + 86_400_000)]);
    expect((await post(test.app, analyst, '/search/hotProductPro', {})).status).toBe(200);
  });

  it('refuses the same when the period was never opened or the follow period has passed; getInfo names the role as expired', async () => {
    const refusedAll = async (session: Session) => {
      for (const [method, url] of [['POST', '/search/hotProductPro'], ['POST', '/search/keywordDetail'], ['POST', '/search/productDetail'], ['GET', '/search/ownQueries']] as const) {
        const response = await test.app.inject({ method, url: `/api${url}`, headers: session.headers, ...(method === 'POST' ? { payload: { keyword: 'x', sku: 1 } } : {}) });
        expect(response.statusCode, url).toBe(401);
        expect(response.json(), url).toEqual({ code: 401, msg: '权限已过期或无权限操作，请联系管理员', data: null });
      }
    };
    const info = async (session: Session) =>
      (await test.app.inject({ method: 'GET', url: '/api/getInfo', headers: session.headers })).json<Envelope<{ rolePermissions: string[]; user: { rightInfo: { expiredRoles: string[] } } }>>().data;
    try {
      // The analyst's keyword period is still current: it opens no research call (spec: those pages are search and follow).
      await test.database.query(`update users set search_word_valid_time = null where username = 'analyst'`);
      await refusedAll(analyst);
      expect((await info(analyst)).rolePermissions).toEqual(['keyword']);
      await test.database.query(`update users set search_word_valid_time = $1 where username = 'analyst'`, [new Date(test.clock.now().getTime() - 1000)]);
      expect((await info(analyst)).user.rightInfo.expiredRoles).toContain('search');

      await test.database.query(`update users set follow_valid_time = $1 where username = 'seller'`, [new Date(test.clock.now().getTime() - 1000)]);
      const seller = await login(test.app, 'seller', 'seller123');
      await refusedAll(seller);
      expect((await info(seller)).user.rightInfo.expiredRoles).toContain('follow');
    } finally {
      const later = new Date(test.clock.now().getTime() + 365 * 86_400_000);
      await test.database.query(`update users set search_word_valid_time = $1 where username = 'analyst'`, [later]);
      await test.database.query(`update users set follow_valid_time = $1 where username = 'seller'`, [later]);
    }
    expect((await post(test.app, analyst, '/search/hotProductPro', {})).status).toBe(200);
  });

  it('does not run a query whose signal has already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(test.database.cancellableQuery(`select 1`, [], controller.signal)).rejects.toBeInstanceOf(QueryCancelled);
  });

  it.runIf(target.kind === 'postgres')('cancels a running query in the database when its signal aborts', async () => {
    const controller = new AbortController();
    const running = test.database.cancellableQuery(`select pg_sleep(5), 'research-cancel-probe'`, [], controller.signal);
    const active = () =>
      test.database.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where query like '%research-cancel-probe%' and state = 'active' and pid <> pg_backend_pid()`);
    await vi.waitFor(async () => expect((await active())[0]!.n).toBe(1));
    const aborted = Date.now();
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(QueryCancelled);
    expect(Date.now() - aborted).toBeLessThan(1_000);
    expect((await active())[0]!.n).toBe(0);
  });

  it.runIf(target.kind === 'postgres')('cancels a running query while every connection of its pool is busy', async () => {
    // A pool of its own (a database of its own on the same server), watched from outside through the test's database.
    const created = await createPostgresDatabase(process.env.TEST_DATABASE_URL!);
    const pooled = await openPostgres(created.url);
    const running = async (tag: string) =>
      (await test.database.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where state = 'active' and query like $1 and pid <> pg_backend_pid()`, [`%${tag}%`]))[0]!.n;
    const patiently = { timeout: 15_000, interval: 50 };
    const queries: Promise<unknown>[] = [];
    let done = false;
    try {
      const controller = new AbortController();
      const cancelled = pooled.cancellableQuery(`select pg_sleep(60), 'busy-pool-cancel-probe'`, [], controller.signal);
      queries.push(cancelled.catch(() => undefined));
      await vi.waitFor(async () => expect(await running('busy-pool-cancel-probe')).toBe(1), patiently);
      // Every other connection of the pool, and one query more waiting for a connection.
      for (let i = 0; i < POOL_SIZE; i++) queries.push(pooled.query(`select pg_sleep(60), 'busy-pool-sleeper'`).catch(() => undefined));
      await vi.waitFor(async () => expect(await running('busy-pool-sleeper')).toBe(POOL_SIZE - 1), patiently);

      const aborted = Date.now();
      controller.abort();
      await expect(cancelled).rejects.toBeInstanceOf(QueryCancelled);
      await vi.waitFor(async () => expect(await running('busy-pool-cancel-probe')).toBe(0), patiently);
      expect(Date.now() - aborted).toBeLessThan(5_000);
      // Its connection went back to the pool in working order: the waiting query runs on it.
      await vi.waitFor(async () => expect(await running('busy-pool-sleeper')).toBe(POOL_SIZE), patiently);
      await test.database.query(`select pg_cancel_backend(pid) from pg_stat_activity where query like '%busy-pool-sleeper%' and pid <> pg_backend_pid()`);
      await Promise.all(queries);

      // No connection was left broken: the whole pool answers, and a query is cancelled again.
      const answers = await Promise.all(Array.from({ length: POOL_SIZE * 2 }, (_, i) => pooled.query<{ n: number }>(`select $1::int as n`, [i])));
      expect(answers.map(([row]) => row!.n)).toEqual(Array.from({ length: POOL_SIZE * 2 }, (_, i) => i));
      const again = new AbortController();
      const next = pooled.cancellableQuery(`select pg_sleep(60), 'busy-pool-cancel-again'`, [], again.signal);
      queries.push(next.catch(() => undefined));
      await vi.waitFor(async () => expect(await running('busy-pool-cancel-again')).toBe(1), patiently);
      again.abort();
      await expect(next).rejects.toBeInstanceOf(QueryCancelled);
      done = true;
    } finally {
      // After a failure, dropping the database (with its connections) ends whatever still sleeps in it.
      if (!done) await created.drop();
      await Promise.all(queries);
      await pooled.close();
      if (done) await created.drop();
    }
  });
});
