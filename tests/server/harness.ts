import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { inject, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import { openPglite, openPostgres, type Database } from '../../server/db/database';
import { seedDemoUsers } from '../../server/demo/seed';
import { setPasswordHashCost } from '../../server/areas/session/passwords';
import { AUTH_HEADERS, REFRESH_COOKIE } from '../../contract/envelope';
import { createDatabase, dropDatabase } from '../support/postgres';
import type { LoginData } from '../../contract/session';

export const TEST_CAPTCHA = 'T3ST';
/**
 * scrypt at 2^10 instead of 2^14 for the suite's passwords: each file seeds the demo accounts and logs in dozens of
 * times, and at the production cost those hashes were a large share of the suite's CPU time. The cost travels with
 * each hash, so verification is the same code path.
 */
export const TEST_PASSWORD_HASH_COST = '10';
setPasswordHashCost(Number(TEST_PASSWORD_HASH_COST));

/** A database the server tests run against: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export type DatabaseTarget = { kind: 'pglite' | 'postgres'; open(): Promise<{ database: Database; dispose(): Promise<void> }> };

/** The migrated template of tests/server/global-setup.ts, read once per test file (absent outside the server suite). */
let pgliteTemplate: Blob | null | undefined;
function migratedPglite(): Blob | undefined {
  if (pgliteTemplate === undefined) {
    const file = inject('pgliteTemplate');
    pgliteTemplate = file ? new Blob([readFileSync(file)]) : null;
  }
  return pgliteTemplate ?? undefined;
}

const pgliteTarget: DatabaseTarget = {
  kind: 'pglite',
  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'server-test-'));
    const database = await openPglite(join(dir, 'pglite'), migratedPglite());
    return {
      database,
      async dispose() {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

/**
 * A fresh database on the PostgreSQL server at `url`, dropped by `drop` (with its connections): already migrated,
 * or `empty` for a test of the migrations themselves. Its `url` may be opened several times: two server instances
 * on one database.
 */
export async function createPostgresDatabase(url: string, options: { empty?: boolean } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  // From the suite's migrated template when there is one (tests/server/global-setup.ts), unless the test migrates.
  const template = options.empty ? '' : inject('postgresTemplate');
  return { url: await createDatabase(url, name, template), drop: () => dropDatabase(url, name) };
}

/** Each opening gets its own database, created and dropped here, so test files never see each other's rows. */
const postgresTarget = (url: string): DatabaseTarget => ({
  kind: 'postgres',
  async open() {
    const created = await createPostgresDatabase(url);
    const database = await openPostgres(created.url);
    return {
      database,
      async dispose() {
        await database.close();
        await created.drop();
      },
    };
  },
});

/** PGlite, and PostgreSQL when TEST_DATABASE_URL is set. */
export const ALL_DATABASE_TARGETS: DatabaseTarget[] = [
  pgliteTarget,
  ...(process.env.TEST_DATABASE_URL ? [postgresTarget(process.env.TEST_DATABASE_URL)] : []),
];

/** The embedded database alone, for what only PGlite does (its planner statistics, the demo's own start). */
export const PGLITE_TARGET: DatabaseTarget = pgliteTarget;

/**
 * The database a server test file runs on: PostgreSQL, the production database, when TEST_DATABASE_URL is set (CI
 * sets it), else PGlite. Both run the same PostgreSQL engine (PGlite is PostgreSQL compiled to WebAssembly); what
 * differs is the driver layer of server/db/database.ts (binary COPY, COPY IN, cancelled queries, transactions,
 * migrations), and the files about those parts run on both through ALL_DATABASE_TARGETS, as the browser suite runs
 * the whole app on PGlite. TEST_DATABASES=both runs every file on both, for a change to the database layer.
 */
export const DATABASE_TARGETS: DatabaseTarget[] =
  process.env.TEST_DATABASES === 'both' ? ALL_DATABASE_TARGETS : [ALL_DATABASE_TARGETS[ALL_DATABASE_TARGETS.length - 1]!];

/**
 * A digest of every table's rows, to show that a refused call wrote nothing; captchas aside (fetching one writes one),
 * and the sign-in log (every refused sign-in is recorded, by design).
 */
export async function databaseDigest(database: Database): Promise<string> {
  const tables = await database.query<{ name: string }>(
    `select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not in ('captchas', 'sign_in_log') order by 1`,
  );
  const parts = await Promise.all(
    tables.map(async ({ name }) => {
      const [row] = await database.query<{ digest: string | null }>(`select md5(string_agg(t::text, '|' order by t::text)) as digest from "${name}" t`);
      return `${name}:${row?.digest ?? ''}`;
    }),
  );
  return parts.join('\n');
}

/** A clock the test moves by hand, for token, captcha and rate-limit expiry. */
export function testClock(start = Date.parse('2025-06-10T08:00:00Z')) {
  let time = start;
  return { now: () => new Date(time), advance: (ms: number) => void (time += ms) };
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'server-config-')),
    SECRET_KEY: 'ab'.repeat(32),
    CAPTCHA_TEST_CODE: TEST_CAPTCHA,
    LOG_LEVEL: 'silent',
    PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST,
    ...env,
  });
}

export type TestApp = {
  app: FastifyInstance;
  database: Database;
  clock: ReturnType<typeof testClock>;
  config: Config;
  close(): Promise<void>;
};

/**
 * A migrated database with the demo accounts, and the app over it (not yet ready, so a test may add probe routes
 * before its first inject).
 */
export async function startTestApp(
  target: DatabaseTarget,
  options: { env?: Record<string, string>; app?: Omit<AppOptions, 'database' | 'now'> } = {},
): Promise<TestApp> {
  const { database, dispose } = await target.open();
  await database.migrate();
  const clock = testClock();
  await seedDemoUsers(database.db, clock.now());
  const config = testConfig(options.env);
  // A user is announced offline as soon as their last socket closes (production waits 3 s for a reload). The
  // products area's background runs (re-upload runner, picture cleanup) have no timer: a test ticks them by hand, and a
  // timer's lease renewals would be writes no request made (the bad-input suite checks a refusal writes nothing).
  const app = await buildApp(config, {
    push: { offlineGraceMs: 0 },
    ...options.app,
    products: { reuploadIntervalMs: 0, pictureCleanupIntervalMs: 0, ...options.app?.products },
    database,
    now: clock.now,
    logger: options.app?.logger ?? false,
  });
  return {
    app,
    database,
    clock,
    config,
    async close() {
      await app.close();
      await dispose();
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

export async function captcha(app: FastifyInstance): Promise<{ uuid: string; code: string }> {
  const response = await app.inject({ method: 'GET', url: '/api/captchaImage' });
  return { uuid: response.json<{ data: { uuid: string } }>().data.uuid, code: TEST_CAPTCHA };
}

export type Session = LoginData & { refreshCookie: string; headers: Record<string, string> };

export function authHeaders(data: Pick<LoginData, 'token' | 'id'>): Record<string, string> {
  return { [AUTH_HEADERS.token]: data.token, [AUTH_HEADERS.userId]: String(data.id) };
}

/** The address a page opens its push socket at: PUSH_PATH with a single-use ticket asked for with the session's token. */
export async function pushUrl(app: FastifyInstance, session: Pick<LoginData, 'token' | 'id'>): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/ws/ticket', headers: authHeaders(session) });
  if (response.statusCode !== 200) throw new Error(`no push ticket: ${response.body}`);
  return `/api/ws?ticket=${encodeURIComponent(response.json<{ data: { ticket: string } }>().data.ticket)}`;
}

export async function login(app: FastifyInstance, username: string, password: string, remoteAddress?: string): Promise<Session> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { username, password, ...(await captcha(app)) },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
  if (response.statusCode !== 200) throw new Error(`login of ${username} failed: ${response.body}`);
  const data = response.json<{ data: LoginData }>().data;
  const cookie = response.cookies.find((c) => c.name === REFRESH_COOKIE);
  if (!cookie) throw new Error('no refresh cookie');
  return { ...data, refreshCookie: cookie.value, headers: authHeaders(data) };
}

/**
 * Waits until every shop of the session has finished its first sync of every entity, so what a test counts or
 * reads next is not mixed with the background sync's own requests.
 */
export async function firstSyncDone(app: FastifyInstance, session: Session): Promise<void> {
  await vi.waitFor(
    async () => {
      const answer = await app.inject({ method: 'GET', url: '/api/store/list', headers: session.headers });
      const shops = answer.json<{ data: { sync: { status: string }[] }[] }>().data;
      if (!shops.every((shop) => shop.sync.every((entity) => entity.status === 'done' || entity.status === 'failed'))) throw new Error('first sync still running');
    },
    { timeout: 120_000, interval: 200 },
  );
}
