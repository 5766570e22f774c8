/**
 * `npm run bench [-- --sizes 100000,1000000 --runs 3 --only app,main,ag --db pglite|postgres --skip-build --seeded DIR]`:
 * the order list at scale (issue 5
 * "Benchmark"). Not a test: it prints figures and writes tests/bench/results/latest.json (git-ignored).
 * `--scenario policies` (issue 44): the access hook's policy evaluation at 1,000 policies (tests/bench/policies.ts).
 * `--scenario products` (issue 28): the same measures on the product list (/product/oz-product-list) over
 * `--sizes` (default 500,000) seeded products, beside the same two peers fed the product sync's rows, plus the export of
 * the whole list to CSV and XLSX (app only), written to tests/bench/results/products.json.
 *
 * Per size: seeds N orders into a fresh DATA_DIR (server/demo/orders-seed.ts), starts the built app (as `npm start`
 * serves it), and drives headless Chromium through the same scripted actions on three pages fed by that server:
 *   app   the product: /order-manager/order-list (worker engine, IndexedDB cache)
 *   main  peer: our VirtualTable with the same engine on the main thread (tests/bench/pages/main-thread.tsx)
 *   ag    peer: AG Grid Community, client-side row model (tests/bench/pages/ag.ts)
 * Times are measured inside the page (performance.now(), checked every animation frame), medians of `--runs`.
 * `--db postgres` runs the server on a throw-away PostgreSQL 15 cluster instead of the embedded PGlite: the same pages
 * against the database a larger seller runs (docs/performance.md has both).
 * `--as owner,member` (issue 41 "Teams"): the same pages as the owner (`seller`, the default) and as a member of the
 * seller's organisation added through the console's calls (a role with order view, its data scope one of the two
 * seeded shops), one after the other on the same server and seeded rows; the member's expected figures are counted
 * in that shop alone.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { cpus, tmpdir, totalmem } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Unzip, UnzipInflate } from 'fflate';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { openDatabase } from '../../server/db/database';
import { freePort } from '../support/freePort';

const ROOT = resolve(import.meta.dirname, '../..');
const BENCH = import.meta.dirname;
const CAPTCHA = '2468';
/** The seeding command and the server share it (with DATABASE_URL it is required), so the demo shops' keys decrypt. */
const BENCH_SECRET_KEY = '5e'.repeat(32);
type Kind = 'app' | 'main' | 'ag';
const KINDS: Kind[] = ['app', 'main', 'ag'];

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string' },
    runs: { type: 'string', default: '3' },
    only: { type: 'string' },
    'skip-build': { type: 'boolean', default: false },
    /** pglite (the default DATA_DIR database) or postgres (a throw-away PostgreSQL 15 cluster, as production runs). */
    db: { type: 'string', default: 'pglite' },
    /**
     * orders (the list in the browser, the default), products (the product list in the browser, app only) or market
     * (research and sales analysis on a seeded database, tests/bench/market.ts) or policies (the access policies'
     * evaluation at 1,000 policies, tests/bench/policies.ts).
     */
    scenario: { type: 'string', default: 'orders' },
    /** market: the PostgreSQL database holding the market and the seller's orders (else the PGlite one in DATA_DIR). */
    'database-url': { type: 'string' },
    /**
     * pglite: a data directory already seeded with the one size asked for (`npm run seed` with the bench's SECRET_KEY):
     * each run starts from a copy of it (cp -a) instead of seeding; the directory itself is never opened.
     */
    seeded: { type: 'string' },
    /** owner (the default), member, or both (`owner,member`): who is signed in on the pages. */
    as: { type: 'string', default: 'owner' },
  },
});

type Sort = { key: string; column: string; sql: string; header: string };
/** One big list in the browser, measured the same way: what is seeded, where it shows, and what the seller does. */
type ListBench = {
  /** The rows' name in the report, and the seeding flag (`--orders N`, `--products N`). */
  noun: 'orders' | 'products';
  table: 'orders' | 'products';
  defaultSizes: string;
  /** The peers that have a page for this list. */
  kinds: Kind[];
  appPath: string;
  /** The column whose value names a row in its visible text (a head of a sort is found by it). */
  idSql: string;
  /** The grid cell (nth-child) whose text shows once a row is filled, not a placeholder. */
  textCell: number;
  needle: string;
  searchSql: string[];
  filter: { sql: string; value: string; label: string };
  /** Clicked before a measured sort, so the measured click always sorts ascending. */
  otherSort: { column: string; header: string };
  sorts: readonly [Sort, ...Sort[]];
  targets: { coldAllRows: string; warmAllRows: string };
  /** Whether the list exports the whole result to CSV and XLSX (measured on the app only). */
  exports: boolean;
  results: string;
};

const ORDERS: ListBench = {
  noun: 'orders',
  table: 'orders',
  defaultSizes: '100000,1000000',
  kinds: KINDS,
  appPath: '/order-manager/order-list',
  idSql: 'posting_number',
  textCell: 2,
  needle: '70012',
  searchSql: ['posting_number', 'order_number', 'sku', 'offer_id', 'product_name', 'tracking_number'],
  filter: { sql: `status = 'awaiting_packaging'`, value: 'awaiting_packaging', label: '等待备货' },
  otherSort: { column: 'orderNumber', header: '订单号' },
  sorts: [
    { key: 'number', column: 'amount', sql: 'amount', header: '金额' },
    { key: 'date', column: 'shipmentDate', sql: 'shipment_date', header: '发货截止' },
    { key: 'text', column: 'productName', sql: 'product_name collate "C"', header: '商品名称' },
  ],
  targets: { coldAllRows: '<= 10000', warmAllRows: '<= 2000' },
  exports: false,
  results: 'latest.json',
};

/** Issue 28's targets: all cached <= 6 s, all queryable <= 1.5 s warm; the rest as the order list. */
const PRODUCTS: ListBench = {
  noun: 'products',
  table: 'products',
  defaultSizes: '500000',
  kinds: KINDS,
  appPath: '/product/oz-product-list',
  idSql: 'offer_id',
  textCell: 3,
  needle: '12345',
  searchSql: ['name', 'offer_id', 'sku', 'barcode'],
  filter: { sql: `status = 'failed'`, value: 'failed', label: '审核失败' },
  otherSort: { column: 'offerId', header: '货号' },
  sorts: [
    { key: 'number', column: 'price', sql: 'price', header: '售价' },
    { key: 'date', column: 'createdAt', sql: 'created_at', header: '创建时间' },
    { key: 'text', column: 'name', sql: 'name collate "C"', header: '商品名称' },
  ],
  targets: { coldAllRows: '<= 6000', warmAllRows: '<= 1500' },
  exports: true,
  results: 'products.json',
};

const LIST = args.scenario === 'products' ? PRODUCTS : ORDERS;
const SIZES = (args.sizes ?? LIST.defaultSizes).split(',').map(Number);
const RUNS = Number(args.runs);
const ONLY = (args.only ?? LIST.kinds.join(',')).split(',') as Kind[];

/** Who is signed in: the seller, or a staff member of the seller's organisation scoped to one shop. */
type Persona = 'owner' | 'member';
const PERSONA_NAMES: Persona[] = ['owner', 'member'];
const PERSONAS = args.as.split(',') as Persona[];
type Credentials = { username: string; password: string };
const CREDENTIALS: Record<Persona, Credentials> = {
  owner: { username: 'seller', password: 'seller123' },
  member: { username: 'benchstaff', password: 'benchstaff123' },
};

// ---------------------------------------------------------------- helpers

const median = (xs: number[]) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const log = (...parts: unknown[]) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...parts);

function run(command: string, argv: string[], env: Record<string, string>): void {
  const result = spawnSync(command, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${argv.join(' ')} failed`);
}

const PG_BIN = '/usr/lib/postgresql/15/bin';

/** A throw-away cluster in `dir` (fsync off: a benchmark, not a database to keep). Root runs it as `postgres`. */
async function startPostgres(dir: string): Promise<{ url: string; stop: () => void }> {
  const asRoot = process.getuid?.() === 0;
  const pgUser = asRoot ? Number(spawnSync('id', ['-u', 'postgres']).stdout.toString().trim()) : null;
  const as = (argv: string[]) => (asRoot ? ['runuser', ['-u', 'postgres', '--', ...argv]] : [argv[0]!, argv.slice(1)]) as [string, string[]];
  mkdirSync(join(dir, 'pg'), { recursive: true });
  if (pgUser !== null) {
    // mkdtemp makes 0700 directories: the postgres user must be able to reach its own one inside.
    chmodSync(dir, 0o755);
    chownSync(join(dir, 'pg'), pgUser, pgUser);
  }
  const port = await freePort();
  run(...as([`${PG_BIN}/initdb`, '-D', join(dir, 'pg', 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale', 'C']), {});
  run(...as([`${PG_BIN}/pg_ctl`, '-D', join(dir, 'pg', 'data'), '-w', '-l', join(dir, 'pg', 'log'), '-o', `-p ${port} -k ${join(dir, 'pg')} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off`, 'start']), {});
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => void spawnSync(...as([`${PG_BIN}/pg_ctl`, '-D', join(dir, 'pg', 'data'), '-m', 'fast', '-w', 'stop']), { stdio: 'ignore' }),
  };
}

async function startApp(dataDir: string, databaseUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: databaseUrl, SECRET_KEY: BENCH_SECRET_KEY, DEMO: 'true', CAPTCHA_TEST_CODE: CAPTCHA, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, child };
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error('server did not start');
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/** Serves the peer pages at /bench/* and passes /api/* to the app: same origin, same server, same rows. */
async function startPeerServer(appUrl: string): Promise<{ url: string; server: Server }> {
  const target = new URL(appUrl);
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path.startsWith('/api/')) {
      const upstream = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
      return;
    }
    const file = join(BENCH, 'dist', path.replace(/^\/bench\//, '').replace(/^\//, ''));
    if (!file.startsWith(join(BENCH, 'dist')) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  const port = await freePort();
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${port}`, server };
}

type Login = { token: string; userId: number };

async function apiLogin(url: string, who: Credentials): Promise<Login> {
  const captcha = (await (await fetch(`${url}/api/captchaImage`)).json()) as { data: { uuid: string } };
  const response = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: who.username, password: who.password, code: CAPTCHA, uuid: captcha.data.uuid }),
  });
  const envelope = (await response.json()) as { code: number; msg?: string; data?: { token: string; id: number } };
  if (!envelope.data?.token) throw new Error(`login as ${who.username}: ${envelope.code} ${envelope.msg ?? ''}`);
  return { token: envelope.data.token, userId: envelope.data.id };
}

/** A call of the app's API as `login`, answering the envelope's data (an error names the call and the message). */
async function apiCall<T>(url: string, login: Login, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${url}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-token': login.token, 'x-user-id': String(login.userId) },
    body: JSON.stringify(body),
  });
  const envelope = (await response.json()) as { code: number; msg?: string; data?: T };
  if (envelope.code !== 200 || envelope.data === undefined) throw new Error(`${path}: ${response.status} ${envelope.code} ${envelope.msg ?? ''}`);
  return envelope.data;
}

/**
 * The bench's member, added by the owner through the organisation console's calls (contract/team.ts): a role that
 * views orders in `shopId` only, and a staff login holding it.
 */
async function addBenchMember(url: string, owner: Login, shopId: number): Promise<void> {
  const role = await apiCall<{ id: number }>(url, owner, '/permission/role/add', {
    name: '订单查看（基准）',
    note: 'npm run bench -- --as member',
    permissions: ['store:view', 'orders:view'],
    dataScope: 'shops',
    shopIds: [shopId],
  });
  await apiCall(url, owner, '/permission/user/add', { ...CREDENTIALS.member, nickName: '基准成员', roleId: role.id });
}

// ---------------------------------------------------------------- expectations from the database

const NEEDLE = LIST.needle;
const STATUS = LIST.filter.value;
const SORTS = LIST.sorts;

type Expected = {
  total: number;
  search: number;
  filter: number;
  /** Posting numbers that may head each ascending sort (ties at the top value); `filtered:` ones under the filter. */
  heads: Record<string, string[]>;
};

/** The figures each persona's pages must reach, and the shop the member is scoped to (the seller's first). */
type Prepared = { expected: Partial<Record<Persona, Expected>>; memberShop: { id: number; name: string } | null };

async function prepare(dataDir: string, databaseUrl: string, size: number): Promise<Prepared> {
  const database = await openDatabase({ dataDir, databaseUrl: databaseUrl || null });
  try {
    // No background posting sync during the run: the rows stay exactly the seeded ones.
    await database.query(`update mp_shops set status = 'keyFailed'`);
    const [user] = await database.query<{ id: number }>(`select id from users where username = 'seller'`);
    const shops = await database.query<{ id: number; name: string }>(`select id, name from mp_shops where user_id = $1 order by client_id`, [user!.id]);
    const memberShop = PERSONAS.includes('member') ? shops[0] ?? null : null;
    if (PERSONAS.includes('member') && (!memberShop || shops.length < 2)) throw new Error(`--as member: the seller has ${shops.length} shops, the member's scope needs one of two`);
    const expectedFor = async (scope: string): Promise<Expected> => {
      const where = `user_id = ${user!.id} and not deleted${scope}`;
      const count = async (extra: string, params: unknown[] = []) =>
        Number((await database.query<{ n: number }>(`select count(*)::int as n from ${LIST.table} where ${where} and ${extra}`, params))[0]!.n);
      const like = `%${NEEDLE}%`;
      const fields = LIST.searchSql;
      const heads: Record<string, string[]> = {};
      for (const sort of SORTS) {
        for (const [name, extra] of [
          [sort.key, 'true'],
          [`filtered:${sort.key}`, LIST.filter.sql],
        ] as const) {
          const rows = await database.query<{ p: string }>(
            `select ${LIST.idSql} as p from ${LIST.table} where ${where} and ${extra} and ${sort.sql} = (select min(${sort.sql}) from ${LIST.table} where ${where} and ${extra}) limit 5000`,
          );
          heads[name] = rows.map((r) => r.p);
        }
      }
      return {
        total: await count('true'),
        search: await count(`(${fields.map((f) => `lower(${f}) like $1`).join(' or ')})`, [like]),
        filter: await count(LIST.filter.sql),
        heads,
      };
    };
    const expected: Partial<Record<Persona, Expected>> = {};
    for (const persona of PERSONAS) expected[persona] = await expectedFor(persona === 'member' ? ` and shop_id = ${memberShop!.id}` : '');
    if (expected.owner && expected.owner.total !== size) log(`note: ${expected.owner.total} rows for the seller (seeded ${size})`);
    return { expected, memberShop };
  } finally {
    await database.close();
  }
}

// ---------------------------------------------------------------- in-page probes

/** Installed before any page script: long tasks and the animation-frame clock. */
const INIT = () => {
  const w = window as unknown as { __longTasks: number[]; __longTaskAt: string[]; __frames: number[] | null };
  w.__longTasks = [];
  w.__longTaskAt = [];
  w.__frames = null;
  // When a file is handed to the browser to save (an export's Blob becomes the link's object URL): its time and size.
  const createObjectURL = URL.createObjectURL.bind(URL);
  URL.createObjectURL = (object: Blob | MediaSource) => {
    (window as unknown as { __fileAt: { at: number; bytes: number } | null }).__fileAt = { at: performance.now(), bytes: object instanceof Blob ? object.size : 0 };
    return createObjectURL(object);
  };
  // Our grids scroll themselves; in AG Grid the scrolling element is the deepest one that overflows.
  (window as unknown as { __scroller: (kind: string) => HTMLElement }).__scroller = (kind) => {
    if (kind !== 'ag') return document.querySelector('[role=grid]') as HTMLElement;
    let best = document.getElementById('grid')!;
    for (const el of document.querySelectorAll<HTMLElement>('#grid *')) {
      if (el.scrollHeight - el.clientHeight > best.scrollHeight - best.clientHeight && getComputedStyle(el).overflowY !== 'hidden') best = el;
    }
    return best;
  };
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        w.__longTasks.push(entry.duration);
        w.__longTaskAt.push(`${Math.round(entry.duration)}ms@${Math.round(entry.startTime)}`);
      }
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // no longtask support
  }
};

/** The page's visible state, the same questions for all three kinds. */
function probeSource(kind: Kind): string {
  if (kind === 'ag') {
    return `(() => { const s = window.__bench?.state() ?? { total: 0, loaded: false };
      const first = [...document.querySelectorAll('#grid [row-index="0"]')].map((r) => r.textContent ?? '').join('');
      return { total: s.total, loaded: s.loaded, first }; })()`;
  }
  // The app's grid is busy while a reload's rows are still coming in (its total and first rows come first).
  const loaded = kind === 'main' ? 'window.__bench?.state().loaded ?? false' : "grid?.getAttribute('aria-busy') !== 'true'";
  return `(() => { const grid = document.querySelector('[role=grid]');
    const row = grid?.querySelector('[role=row][aria-rowindex="2"]');
    const first = row ? [...row.querySelectorAll('[role=gridcell]')].map((c) => c.textContent).join('|') : '';
    return { total: Number(grid?.getAttribute('aria-rowcount') ?? 0), loaded: ${loaded}, first }; })()`;
}

/**
 * Waits, checking every animation frame, until `condition(probe)` holds; answers performance.now() at that frame
 * minus `since` (a performance.now() of the same document), or NaN after the timeout.
 */
async function until(page: Page, kind: Kind, condition: string, since: number | 'nav', timeoutMs = 300_000): Promise<number> {
  const at = await page.evaluate(
    ({ probe, condition, timeoutMs }) =>
      new Promise<number>((done) => {
        const test = new Function('p', `return (${condition})(p)`) as (p: unknown) => boolean;
        const read = new Function(`return ${probe}`) as () => unknown;
        const started = performance.now();
        const tick = () => {
          let ok = false;
          try {
            ok = test(read());
          } catch {
            ok = false;
          }
          if (ok) done(performance.now());
          else if (performance.now() - started > timeoutMs) {
            console.warn('bench: timed out waiting; last probe', JSON.stringify(read()).slice(0, 300));
            done(NaN);
          }
          else requestAnimationFrame(tick);
        };
        tick();
      }),
    { probe: probeSource(kind), condition, timeoutMs },
  );
  return since === 'nav' ? at : at - since;
}

const now = (page: Page) => page.evaluate(() => performance.now());

/**
 * `until` started in the page before an action, for a condition that cannot hold before it: the page notices the
 * rows at the first frame they are there. Waiting after the action would add the harness's own round trip to the
 * browser (10-20 ms on two busy cores) to the time measured. Resolves once the watch runs (calls reach the page in
 * order), with the watch's own promise wrapped (a promise returned bare would be waited for).
 */
async function watchFor(page: Page, kind: Kind, condition: string): Promise<{ done: Promise<number> }> {
  const done = until(page, kind, condition, 0, 120_000);
  await now(page);
  return { done };
}
/** The long tasks since the last call (durations), and when each began (logged with the run, to see where they are). */
const takeLongTasks = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[]; __longTaskAt: string[] };
    const tasks = w.__longTasks;
    if (w.__longTaskAt.length > 0) console.info(`long tasks: ${w.__longTaskAt.join(' ')}`);
    w.__longTasks = [];
    w.__longTaskAt = [];
    return tasks;
  });

async function heapMb(page: Page): Promise<number> {
  const session = await page.context().newCDPSession(page);
  await session.send('HeapProfiler.collectGarbage');
  const usage = (await session.send('Runtime.getHeapUsage')) as { usedSize: number };
  await session.detach();
  return usage.usedSize / 1024 / 1024;
}

/** Stamps performance.now() of the next event of `type` (capture phase) so times start at the user's action. */
const armEvent = (page: Page, type: string) =>
  page.evaluate((type) => {
    const w = window as unknown as { __eventAt: number };
    w.__eventAt = NaN;
    document.addEventListener(type, (event) => (w.__eventAt = event.timeStamp), { capture: true, once: true });
  }, type);
const eventAt = (page: Page) => page.evaluate(() => (window as unknown as { __eventAt: number }).__eventAt);

// ---------------------------------------------------------------- scenarios

type Sample = Record<string, number>;

/** Where the pages are, and who is signed in on them (the peers' pages take the runner's API login). */
type Urls = { app: string; peers: string; who: Credentials } & Login;

async function openPage(browser: Browser, kind: Kind, urls: Urls): Promise<{ context: BrowserContext; page: Page; url: string }> {
  const base = kind === 'app' ? urls.app : urls.peers;
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1366, height: 800 }, locale: 'zh-CN' });
  await context.addCookies([{ name: 'language', value: 'zh', url: base }]);
  // tsx (esbuild keepNames) wraps named functions in __name(...): the page needs it for the functions we evaluate.
  await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  await context.addInitScript(INIT);
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'warning' || message.type() === 'error' || message.text().startsWith('long tasks:')) log(kind, 'page:', message.text().slice(0, 300));
  });
  page.on('pageerror', (error) => log(kind, 'page error:', error.message.slice(0, 300)));
  if (kind === 'app') {
    await page.goto('/login');
    await page.getByLabel('用户名').fill(urls.who.username);
    await page.getByLabel('密码').fill(urls.who.password);
    await page.getByPlaceholder('验证码').fill(CAPTCHA);
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
    return { context, page, url: LIST.appPath };
  }
  return { context, page, url: `/bench/${kind === 'ag' ? 'ag' : 'main-thread'}.html?list=${LIST.noun}&token=${encodeURIComponent(urls.token)}&userId=${urls.userId}` };
}

const FIRST_ROWS = `(p) => p.first.length > 0`;
const allRows = (n: number) => `(p) => p.total === ${n} && p.loaded && p.first.length > 0`;

async function scrollScenario(page: Page, kind: Kind, expected: Expected): Promise<Sample> {
  await takeLongTasks(page);
  const result = await page.evaluate(
    async ({ kind, total, textCell }) => {
      const scrollerOf = (window as unknown as { __scroller: (kind: string) => HTMLElement }).__scroller;
      const scroller = scrollerOf(kind);
      const frames: number[] = [];
      let last = performance.now();
      const frame = () =>
        new Promise<void>((done) =>
          requestAnimationFrame((t) => {
            frames.push(t - last);
            last = t;
            done();
          }),
        );
      await frame();
      frames.length = 0;
      const max = scroller.scrollHeight - scroller.clientHeight;
      const steps = 300;
      for (let i = 1; i <= steps; i++) {
        scroller.scrollTop = (max * i) / steps;
        await frame();
      }
      const sweep = frames.splice(0);
      // 50 random jumps (fixed sequence), each until the rows at the new place show.
      let seed = 12345;
      const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
      const jumpTimes: number[] = [];
      // The rows near the jump's target are rendered and filled (not placeholders while a window loads).
      const rowsShown = (target: number) => {
        const rows =
          kind === 'ag'
            ? [...document.querySelectorAll('#grid [row-index]')].map((r) => [Number(r.getAttribute('row-index')), r.textContent ?? ''] as const)
            : [...document.querySelectorAll('[role=grid] [role=row][aria-rowindex]')]
                .filter((r) => r.getAttribute('aria-rowindex') !== '1')
                .map((r) => [Number(r.getAttribute('aria-rowindex')) - 2, r.querySelector(`[role=gridcell]:nth-child(${textCell})`)?.textContent ?? ''] as const);
        const near = rows.filter(([index]) => Math.abs(index - target) < 100);
        return near.length > 0 && near.every(([, text]) => text.length > 0);
      };
      for (let j = 0; j < 50; j++) {
        const started = performance.now();
        const fraction = random();
        scroller.scrollTop = Math.floor(fraction * max);
        const target = Math.floor(fraction * (total - 20));
        let waited = 0;
        do {
          await frame();
          waited++;
        } while (!rowsShown(target) && waited < 120);
        jumpTimes.push(performance.now() - started);
      }
      return { sweep, jumps: frames.splice(0), jumpTimes };
    },
    { kind, total: expected.total, textCell: LIST.textCell },
  );
  const tasks = await takeLongTasks(page);
  const all = [...result.sweep, ...result.jumps];
  return {
    sweepP95: percentile(result.sweep, 95),
    sweepMax: Math.max(...result.sweep),
    jumpsP95: percentile(result.jumps, 95),
    framesOver50: all.filter((f) => f > 50).length,
    jumpToRows: median(result.jumpTimes),
    scrollLongTasks: tasks.length,
  };
}

async function searchScenario(page: Page, kind: Kind, expected: Expected): Promise<number> {
  const box = page.getByRole('searchbox');
  await box.fill(NEEDLE.slice(0, -1));
  await until(page, kind, `(p) => p.first.length > 0 && p.total < ${expected.total}`, 0, 120_000);
  await armEvent(page, 'keydown');
  const watching = await watchFor(page, kind, `(p) => p.total === ${expected.search} && p.first.includes(${JSON.stringify(NEEDLE)})`);
  await box.press(NEEDLE.slice(-1));
  const done = await watching.done;
  const started = await eventAt(page);
  await box.fill('');
  await until(page, kind, `(p) => p.total === ${expected.total}`, 0, 120_000);
  return done - started;
}

async function clickHeader(page: Page, kind: Kind, column: string, header: string): Promise<void> {
  if (kind === 'ag') await page.locator(`.ag-header-cell[col-id="${column}"] .ag-header-cell-label`).click();
  // Our tables draw only the columns in view sideways. Playwright's click first centres a header that is partly out
  // of view, which scrolls the table sideways, and the posting numbers the check reads are then no longer drawn:
  // the click is dispatched where the header is, as a user clicks a header they see.
  else await page.getByRole('columnheader', { name: header }).getByRole('button').dispatchEvent('click');
}

async function sortScenario(page: Page, kind: Kind, sort: Sort, heads: string[], total: number): Promise<number> {
  // A click on another column first, so the measured click is always the one that sorts ascending.
  await clickHeader(page, kind, LIST.otherSort.column, LIST.otherSort.header);
  await until(page, kind, `(p) => p.total === ${total} && p.first.length > 0`, 0, 120_000);
  await page.waitForTimeout(300);
  await armEvent(page, 'click');
  await clickHeader(page, kind, sort.column, sort.header);
  const done = await until(page, kind, `(p) => p.total === ${total} && ${JSON.stringify(heads)}.some((h) => p.first.includes(h))`, 0, 120_000);
  return done - (await eventAt(page));
}

async function setStatusFilter(page: Page, kind: Kind, on: boolean, expectTotal: number): Promise<number> {
  if (kind === 'app') {
    // The status toggles: picking one is a click on it, dropping it another.
    await armEvent(page, 'click');
    const watching = await watchFor(page, kind, `(p) => p.total === ${expectTotal} && p.first.length > 0`);
    await page.getByRole('group', { name: '状态' }).getByRole('checkbox', { name: LIST.filter.label, exact: true }).click();
    const done = await watching.done;
    return done - (await eventAt(page));
  }
  const watching = await watchFor(page, kind, `(p) => p.total === ${expectTotal} && p.first.length > 0`);
  const started = await now(page);
  await page.evaluate((value) => window.__bench!.filterStatus(value), on ? STATUS : null);
  return (await watching.done) - started;
}

type ExportFormat = 'csv' | 'xlsx';
const EXPORT_LABELS: Record<ExportFormat, string> = { csv: 'CSV (.csv)', xlsx: 'Excel (.xlsx)' };

/** Data rows of a CSV file (the header's line not counted): line breaks inside quoted fields do not end a row. */
function csvRows(bytes: Buffer): number {
  let rows = 0;
  let quoted = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === 0x22) quoted = !quoted;
    else if (c === 0x0a && !quoted) rows++;
  }
  if (bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a) rows++;
  return rows - 1;
}

/** Data rows of the workbook's sheet (the header row not counted): its <row> elements, counted as the sheet inflates. */
function xlsxRows(bytes: Buffer): number {
  const tag = Buffer.from('<row ');
  let rows = 0;
  let carry = Buffer.alloc(0);
  const unzip = new Unzip((file) => {
    if (file.name !== 'xl/worksheets/sheet1.xml') return;
    file.ondata = (error, data) => {
      if (error) throw error;
      const text = Buffer.concat([carry, data]);
      for (let at = text.indexOf(tag); at >= 0; at = text.indexOf(tag, at + tag.length)) rows++;
      carry = text.subarray(Math.max(0, text.length - tag.length + 1));
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  unzip.push(bytes, true);
  return rows - 1;
}

/**
 * The whole current result exported from the product list's toolbar: from the click on the format in the export menu
 * to the file handed to the browser (in the page) and to the file saved (the harness's clock, after the download
 * finished), with the main thread's long tasks meanwhile. The saved file is read back and its rows counted.
 */
async function exportScenario(page: Page, format: ExportFormat, total: number): Promise<Sample> {
  await takeLongTasks(page);
  await page.evaluate(() => ((window as unknown as { __fileAt: unknown }).__fileAt = null));
  await page.getByRole('button', { name: '导出' }).hover();
  const item = page.getByRole('menuitem', { name: EXPORT_LABELS[format] });
  await item.waitFor();
  await armEvent(page, 'click');
  const downloading = page.waitForEvent('download', { timeout: 300_000 });
  const clicked = Date.now();
  await item.click();
  const download = await downloading;
  const path = await download.path();
  const savedMs = Date.now() - clicked;
  const file = await page.evaluate(() => (window as unknown as { __fileAt: { at: number; bytes: number } | null }).__fileAt);
  const handedMs = file ? file.at - (await eventAt(page)) : NaN;
  const tasks = await takeLongTasks(page);
  const bytes = readFileSync(path);
  const rows = format === 'csv' ? csvRows(bytes) : xlsxRows(bytes);
  log(`export ${format}: ${rows} rows, ${(bytes.length / 2 ** 20).toFixed(1)} MB, ${Math.round(handedMs)} ms to the file, ${savedMs} ms to saved; long tasks ${tasks.map(Math.round).join(' ') || 'none'}`);
  if (rows !== total) throw new Error(`the ${format} export holds ${rows} rows, the list ${total}`);
  return { [`export_${format}`]: handedMs, [`export_${format}_saved`]: savedMs, [`export_${format}_longTasks`]: tasks.length, [`export_${format}_mb`]: bytes.length / 2 ** 20 };
}

type RunResult = { sample: Sample; longTasks: number[] };

/**
 * One run of the scripted actions on a fresh browser context (a cold IndexedDB): its figures and the main thread's
 * long tasks meanwhile. `label` names the run in the log ("app run 1", "app as member run 2").
 */
async function benchRun(browser: Browser, kind: Kind, expected: Expected, urls: Urls, label: string): Promise<RunResult> {
  const n = expected.total;
  const longTasks: number[] = [];
  let heap = 0;
  const sample: Sample = {};
  const step = (name: string) => log(`${label}:`, name, JSON.stringify(sample));
  const { context, page, url } = await openPage(browser, kind, urls);
  try {
    await takeLongTasks(page).catch(() => []);
    await page.goto(url);
    step('cold first rows');
    sample.coldFirstRows = await until(page, kind, FIRST_ROWS, 'nav');
    step('cold all rows');
    sample.coldAllRows = await until(page, kind, allRows(n), 'nav', 600_000);
    let tasks = await takeLongTasks(page);
    sample.loadLongTasks = tasks.length;
    longTasks.push(...tasks);
    await page.waitForTimeout(1000);
    await page.reload();
    step('warm first rows');
    sample.warmFirstRows = await until(page, kind, FIRST_ROWS, 'nav');
    step('warm all rows');
    sample.warmAllRows = await until(page, kind, allRows(n), 'nav', 600_000);
    tasks = await takeLongTasks(page);
    sample.warmLongTasks = tasks.length;
    longTasks.push(...tasks);
    await page.waitForTimeout(500);
    heap = Math.max(heap, await heapMb(page));

    step('scroll');
    const scroll = await scrollScenario(page, kind, expected);
    Object.assign(sample, scroll);
    const scrollTasks = scroll.scrollLongTasks!;
    await page.evaluate((kind) => {
      (window as unknown as { __scroller: (kind: string) => HTMLElement }).__scroller(kind).scrollTop = 0;
    }, kind);

    step('search');
    sample.search = await searchScenario(page, kind, expected);
    step('sorts');
    for (const sort of SORTS) sample[`sort_${sort.key}`] = await sortScenario(page, kind, sort, expected.heads[sort.key]!, n);
    step('filter');
    sample.filter = await setStatusFilter(page, kind, true, expected.filter);
    sample.filterSort = await sortScenario(page, kind, SORTS[0], expected.heads[`filtered:${SORTS[0].key}`]!, expected.filter);
    await setStatusFilter(page, kind, false, n);
    tasks = await takeLongTasks(page);
    sample.queryLongTasks = tasks.length;
    longTasks.push(...tasks);
    sample.longTasks = sample.loadLongTasks! + sample.warmLongTasks! + scrollTasks + sample.queryLongTasks!;
    heap = Math.max(heap, await heapMb(page));
    sample.heapMb = heap;
    if (LIST.exports && kind === 'app') {
      // The whole list, as the last sort left it (no filter, no search).
      await until(page, kind, allRows(n), 0, 120_000);
      for (const format of ['csv', 'xlsx'] as const) {
        step(`export ${format}`);
        Object.assign(sample, await exportScenario(page, format, n));
      }
    }
    log(label, JSON.stringify(Object.fromEntries(Object.entries(sample).map(([k, v]) => [k, Math.round(v)]))));
  } catch (error) {
    log(`${label} failed:`, error instanceof Error ? error.message.split('\n')[0] : error, JSON.stringify(sample));
  } finally {
    await context.close();
  }
  return { sample, longTasks };
}

/** Medians of the runs' figures; the heap is the largest any run reached, the longest task the longest of all. */
function summarise(runs: readonly RunResult[]): Record<string, number> {
  const samples = runs.map((run) => run.sample);
  const keys = [...new Set(samples.flatMap((s) => Object.keys(s)))];
  const result: Record<string, number> = Object.fromEntries(keys.map((k) => [k, median(samples.map((s) => s[k] ?? NaN))]));
  const heaps = samples.map((s) => s.heapMb).filter((mb): mb is number => mb !== undefined);
  if (heaps.length > 0) result.heapMb = Math.max(...heaps);
  const longTasks = runs.flatMap((run) => run.longTasks);
  result.longestTask = longTasks.length ? Math.max(...longTasks) : 0;
  return result;
}


// ---------------------------------------------------------------- report

const ROWS: { key: string; label: string; target?: string }[] = [
  { key: 'coldFirstRows', label: 'cold load: first rows (ms)', target: '<= 1000' },
  { key: 'coldAllRows', label: 'cold load: all rows cached (ms)', target: LIST.targets.coldAllRows },
  { key: 'warmFirstRows', label: 'warm open: first rows (ms)', target: '<= 500' },
  { key: 'warmAllRows', label: 'warm open: all queryable (ms)', target: LIST.targets.warmAllRows },
  { key: 'sweepP95', label: 'scroll sweep frame p95 (ms)', target: '<= 20' },
  { key: 'sweepMax', label: 'scroll sweep longest frame (ms)', target: '<= 50' },
  { key: 'jumpsP95', label: '50 jumps frame p95 (ms)', target: '<= 20' },
  { key: 'framesOver50', label: 'frames over 50 ms (sweep+jumps)', target: '0' },
  { key: 'jumpToRows', label: 'jump to rows shown, median (ms)' },
  { key: 'search', label: 'search keystroke to rows (ms)', target: '<= 50' },
  { key: 'filter', label: 'filter click to rows (ms)', target: '<= 50' },
  { key: 'sort_number', label: 'sort number column (ms)', target: '<= 300' },
  { key: 'sort_date', label: 'sort date column (ms)', target: '<= 300' },
  { key: 'sort_text', label: 'sort text column (ms)', target: '<= 300' },
  { key: 'filterSort', label: 'sort under a filter (ms)', target: '<= 300' },
  { key: 'longTasks', label: 'main-thread long tasks (count)', target: '0' },
  { key: 'longestTask', label: 'longest main-thread task (ms)' },
  { key: 'heapMb', label: 'main-thread heap (MB)', target: '<= 150' },
  ...(LIST.exports
    ? [
        { key: 'export_csv', label: 'export CSV: click to file (ms)', target: '<= 10000' },
        { key: 'export_csv_saved', label: 'export CSV: click to saved (ms)' },
        { key: 'export_csv_longTasks', label: 'export CSV: long tasks (count)', target: '0' },
        { key: 'export_csv_mb', label: 'export CSV: file size (MB)' },
        { key: 'export_xlsx', label: 'export XLSX: click to file (ms)' },
        { key: 'export_xlsx_saved', label: 'export XLSX: click to saved (ms)' },
        { key: 'export_xlsx_longTasks', label: 'export XLSX: long tasks (count)' },
        { key: 'export_xlsx_mb', label: 'export XLSX: file size (MB)' },
      ]
    : []),
];

const fmt = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '—' : v >= 100 ? v.toFixed(0) : v.toFixed(1));
/** `b / a` as a factor, '—' when either is missing. */
const ratio = (a: number | undefined, b: number | undefined, digits = 1) =>
  a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || a <= 0 ? '—' : `${(b / a).toFixed(digits)}x`;

/** A plain-text table: the title, the head, a rule, the lines; the first column left-aligned, the others right. */
function textTable(title: string, head: string[], lines: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const pad = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ');
  return [title, pad(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...lines.map(pad)].join('\n');
}

function table(size: number, results: Partial<Record<Kind, Record<string, number>>>, who: string): string {
  // The peers' columns only when a peer ran.
  const width = results.main || results.ag ? 7 : 3;
  const head = ['', 'target', 'app (worker)', 'main thread', 'AG Grid', 'vs main', 'vs AG'].slice(0, width);
  const lines = ROWS.map((row) =>
    [
      row.label,
      row.target ?? '',
      fmt(results.app?.[row.key]),
      fmt(results.main?.[row.key]),
      fmt(results.ag?.[row.key]),
      ratio(results.app?.[row.key], results.main?.[row.key]),
      ratio(results.app?.[row.key], results.ag?.[row.key]),
    ].slice(0, width),
  );
  return textTable(`${size.toLocaleString('en')} ${LIST.noun} on ${args.db}, ${who} (medians of ${RUNS} runs; "vs" = peer time / our time)`, head, lines);
}

/** `--as owner,member`: the app's figures side by side, the member's over the owner's. */
function personaTable(size: number, owner: Partial<Record<Kind, Record<string, number>>>, member: Partial<Record<Kind, Record<string, number>>>): string {
  const lines = ROWS.map((row) => [row.label, row.target ?? '', fmt(owner.app?.[row.key]), fmt(member.app?.[row.key]), ratio(owner.app?.[row.key], member.app?.[row.key], 2)]);
  return textTable(
    `${size.toLocaleString('en')} ${LIST.noun} on ${args.db}, app: the owner and a member scoped to one shop of two (medians of ${RUNS} runs)`,
    ['', 'target', 'owner', 'member (1 shop)', 'member / owner'],
    lines,
  );
}

/**
 * How fast this machine is right now: the best of three sorts of the same two million numbers, in ms. A shared VM's
 * speed drifts by half within a day; figures from runs whose calibrations differ are not comparable.
 */
function calibrate(): number {
  const random = (() => {
    let state = 42;
    return () => ((state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32);
  })();
  const numbers = Float64Array.from({ length: 2_000_000 }, random);
  let best = Infinity;
  for (let k = 0; k < 3; k++) {
    const copy = numbers.slice();
    const started = performance.now();
    copy.sort();
    best = Math.min(best, performance.now() - started);
  }
  return Math.round(best);
}

/**
 * Whether the machine has a font for Chinese text, as every seller's machine has. Without one, each Chinese character
 * the list draws for the first time sends the browser looking through every font for it: the first rows' frame of a
 * cold load measured 28-53 ms here (layout 16-27 ms for 200 layout objects) against 17-21 ms (layout 7-10 ms) with
 * Debian's fonts-noto-cjk, so figures taken without it are not a seller's.
 */
function hasCjkFont(): boolean {
  const listed = spawnSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8' });
  return listed.status === 0 && listed.stdout.trim().length > 0;
}

// ---------------------------------------------------------------- main

async function main() {
  if (args.scenario === 'policies') {
    const { runPolicyBench } = await import('./policies');
    await runPolicyBench({ resultsDir: join(BENCH, 'results'), runs: Math.max(RUNS, 5) });
    return;
  }
  if (args.scenario === 'market') {
    const { runMarketBench } = await import('./market');
    await runMarketBench({ databaseUrl: args['database-url'] ?? null, dataDir: process.env.DATA_DIR ?? join(ROOT, 'data'), runs: Math.max(RUNS, 40), resultsDir: join(BENCH, 'results') });
    return;
  }
  if (args.seeded && (args.db !== 'pglite' || SIZES.length !== 1)) throw new Error('--seeded: one size on pglite (a copy of that seeded data directory)');
  const strangers = PERSONAS.filter((persona) => !PERSONA_NAMES.includes(persona));
  if (strangers.length > 0 || PERSONAS.length === 0) throw new Error(`--as ${args.as}: owner, member or owner,member`);
  if (PERSONAS.includes('member') && LIST !== ORDERS) throw new Error('--as member: the order list only');
  const unsupported = ONLY.filter((kind) => !LIST.kinds.includes(kind));
  if (unsupported.length > 0) throw new Error(`--only ${unsupported.join(',')}: no such page for ${LIST.noun} (there: ${LIST.kinds.join(', ')})`);
  // The app as `npm start` serves it: rebuilt unless dist/ is built from the current code (tools/build.ts).
  if (!args['skip-build'] || !existsSync(join(ROOT, 'dist', 'index.html'))) run(process.execPath, ['--import', 'tsx', 'tools/build.ts', '--if-stale'], {});
  if (ONLY.some((kind) => kind !== 'app')) run('npx', ['rsbuild', 'build', '-c', 'tests/bench/rsbuild.config.ts'], {});
  const cjkFont = hasCjkFont();
  if (!cjkFont) log('warning: no font for Chinese text on this machine (apt-get install fonts-noto-cjk): every Chinese character falls back glyph by glyph, as no seller machine does');
  const report: Record<string, unknown> = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), cjkFont },
    runs: RUNS,
    scenario: LIST.noun,
    database: args.db,
    sizes: {},
  };
  const tables: string[] = [];
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    for (const size of SIZES) {
      const dataDir = mkdtempSync(join(tmpdir(), 'seller-bench-'));
      let app: { url: string; child: ChildProcess } | null = null;
      let peers: { url: string; server: Server } | null = null;
      let postgres: { url: string; stop: () => void } | null = null;
      try {
        if (args.db === 'postgres') postgres = await startPostgres(dataDir);
        const databaseUrl = postgres?.url ?? '';
        if (args.seeded) {
          log(`copying ${args.seeded} into ${dataDir}`);
          run('cp', ['-a', `${resolve(args.seeded)}/.`, dataDir], {});
        } else {
          log(`seeding ${size} ${LIST.noun} into ${dataDir}`);
          run(process.execPath, ['--import', 'tsx', 'server/demo/seed-cli.ts', `--${LIST.noun}`, String(size)], { DATA_DIR: dataDir, DATABASE_URL: databaseUrl, SECRET_KEY: BENCH_SECRET_KEY, LOG_LEVEL: 'warn' });
        }
        const { expected, memberShop } = await prepare(dataDir, databaseUrl, size);
        for (const [persona, figures] of Object.entries(expected)) log(`expected (${persona})`, JSON.stringify({ ...figures, heads: Object.fromEntries(Object.entries(figures.heads).map(([k, v]) => [k, v.length])) }));
        app = await startApp(dataDir, databaseUrl);
        peers = await startPeerServer(app.url);
        const ownerLogin = await apiLogin(app.url, CREDENTIALS.owner);
        if (memberShop) {
          await addBenchMember(app.url, ownerLogin, memberShop.id);
          log(`member ${CREDENTIALS.member.username} added: orders of shop ${memberShop.id} (${memberShop.name}) only`);
        }
        // Interleaved (owner run 1, member run 1, owner run 2, ...): a shared machine's speed drifts within minutes, and
        // both see the same drift. The machine's speed is measured before each run.
        const logins: Partial<Record<Persona, Urls>> = {};
        for (const persona of PERSONAS) {
          const login = persona === 'owner' ? ownerLogin : await apiLogin(app.url, CREDENTIALS[persona]);
          logins[persona] = { app: app.url, peers: peers.url, who: CREDENTIALS[persona], ...login };
        }
        const runs: Partial<Record<Persona, Partial<Record<Kind, RunResult[]>>>> = {};
        const speeds: Partial<Record<Persona, Partial<Record<Kind, number[]>>>> = {};
        for (const kind of KINDS.filter((k) => ONLY.includes(k))) {
          for (let r = 0; r < RUNS; r++) {
            for (const persona of PERSONAS) {
              const ms = calibrate();
              ((speeds[persona] ??= {})[kind] ??= []).push(ms);
              const label = `${kind}${PERSONAS.length > 1 ? ` as ${persona}` : ''} run ${r + 1}`;
              log(`${size}: ${label} (machine: 2M numbers sorted in ${ms} ms)`);
              ((runs[persona] ??= {})[kind] ??= []).push(await benchRun(browser, kind, expected[persona]!, logins[persona]!, label));
            }
          }
        }
        const byPersona: Partial<Record<Persona, { results: Partial<Record<Kind, Record<string, number>>>; calibrationMs: Partial<Record<Kind, number[]>> }>> = {};
        const printedTables: string[] = [];
        for (const persona of PERSONAS) {
          const results = Object.fromEntries(Object.entries(runs[persona] ?? {}).map(([kind, kindRuns]) => [kind, summarise(kindRuns)])) as Partial<Record<Kind, Record<string, number>>>;
          const calibration = speeds[persona] ?? {};
          byPersona[persona] = { results, calibrationMs: calibration };
          const speedText = Object.entries(calibration).map(([kind, ms]) => `${kind} ${ms.join(', ')} ms`).join('; ');
          const who = persona === 'owner' ? 'as the owner' : `as a member scoped to shop ${memberShop!.id} (${expected.member!.total.toLocaleString('en')} of them)`;
          printedTables.push(`${table(size, results, who)}\nmachine speed before each run (2M numbers sorted in Node): ${speedText}; font for Chinese text: ${cjkFont ? 'yes' : 'none'}`);
        }
        if (byPersona.owner && byPersona.member) printedTables.push(personaTable(size, byPersona.owner.results, byPersona.member.results));
        const expectedFigures = Object.fromEntries(Object.entries(expected).map(([persona, e]) => [persona, { total: e.total, search: e.search, filter: e.filter }]));
        (report.sizes as Record<string, unknown>)[size] =
          PERSONAS.length === 1 && PERSONAS[0] === 'owner'
            ? { expected: expectedFigures.owner, ...byPersona.owner }
            : { expected: expectedFigures, memberShop, personas: byPersona };
        const printed = printedTables.join('\n\n');
        tables.push(printed);
        console.log(`\n${printed}\n`);
      } finally {
        peers?.server.close();
        if (app) {
          const exited = new Promise<void>((done) => app!.child.once('exit', () => done()));
          app.child.kill('SIGTERM');
          const forced = setTimeout(() => app!.child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(forced);
        }
        postgres?.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    await browser.close();
  }
  report.tables = tables;
  mkdirSync(join(BENCH, 'results'), { recursive: true });
  writeFileSync(join(BENCH, 'results', LIST.results), `${JSON.stringify(report, null, 2)}\n`);
  console.log(tables.join('\n\n'));
  log(`written tests/bench/results/${LIST.results}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
