import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { AUTH_HEADERS } from '../../contract/envelope';
import type { Store } from '../../contract/store';
import { freePort } from '../support/freePort';
import { buildIfStale } from '../../tools/build';
import { E2E_WORKERS } from './workers';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One app server per worker of the suite: worker N (VITEST_POOL_ID) talks to the Nth only (useBrowser). */
    servers: { baseUrl: string; serverLog: string }[];
    captchaCode: string;
  }
}

const ROOT = resolve(import.meta.dirname, '../..');
export const CAPTCHA_TEST_CODE = '2468';

/**
 * The limits below catch a server that hangs, not a slow one: npm test starts this suite beside the jsdom suites, and
 * on the 2-core machine the server's first start (tsx compiling it, the migrations, the demo seed) shares the CPU.
 */
const HEALTH_LIMIT_S = 360;
const DEMO_SYNC_LIMIT_S = 420;

async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + HEALTH_LIMIT_S * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`The server did not answer /api/health within ${HEALTH_LIMIT_S} s:\n${output()}`);
}

/**
 * Waits until the demo seller's shops have synced every entity once. The first sync stores, projects and rolls up
 * thousands of records right after start; the embedded database answered nothing else for seconds at a time while it
 * ran (the worst health probe took 18 s on a loaded machine), so a browser test started then timed out on anything.
 */
async function waitForDemoSync(baseUrl: string): Promise<void> {
  const captcha = (await (await fetch(`${baseUrl}/api/captchaImage`)).json()) as { data: { uuid: string } };
  const login = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'seller', password: 'seller123', code: CAPTCHA_TEST_CODE, uuid: captcha.data.uuid }),
  });
  if (!login.ok) throw new Error(`The demo seller could not log in: ${login.status} ${await login.text()}`);
  const session = ((await login.json()) as { data: { token: string; id: number } }).data;
  const headers = { [AUTH_HEADERS.token]: session.token, [AUTH_HEADERS.userId]: String(session.id) };
  const deadline = Date.now() + DEMO_SYNC_LIMIT_S * 1000;
  for (;;) {
    const response = await fetch(`${baseUrl}/api/store/list`, { headers });
    const stores = response.ok ? ((await response.json()) as { data: Store[] }).data : [];
    const synced = stores.length > 0 && stores.every((store) => store.sync.every((state) => state.status === 'done' || state.status === 'failed'));
    if (synced) return;
    if (Date.now() > deadline) throw new Error(`The demo shops did not finish their first sync within ${DEMO_SYNC_LIMIT_S} s: ${JSON.stringify(stores.map((store) => store.sync))}`);
    await new Promise((done) => setTimeout(done, 1_000));
  }
}

interface TestServer {
  baseUrl: string;
  serverLog: string;
  stop(): Promise<void>;
}

/**
 * Starts the built app the way `npm start` serves it (`node --import tsx server/main.ts` over ./dist) on a free port
 * with a fresh data directory and a fixed captcha answer, and waits until its demo shops have synced.
 */
async function startServer(): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'seller-e2e-'));
  const port = await freePort();
  let log = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      DEMO: 'true',
      CAPTCHA_TEST_CODE,
      LOG_LEVEL: 'warn',
      // The test accounts' passwords hashed at scrypt 2^10 rather than 2^14: every test signs in at least once.
      PASSWORD_HASH_COST: '10',
      // The chat's external pictures (issue 27) come from the simulator's picture files under this address, the one
      // other site the proxy may fetch at a loopback address; the same files as `localhost` stay refused.
      CHAT_IMAGE_ALLOWED_HOSTS: `127.0.0.1:${port}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A run stopped before its teardown (Ctrl+C, a killed vitest) takes its servers with it rather than leaving them
  // running their demo in the background.
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  const serverLog = join(dataDir, 'server.log');
  const keep = (chunk: Buffer) => {
    log += chunk.toString();
    appendFileSync(serverLog, chunk);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    process.off('exit', orphaned);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(forced);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseUrl, child, () => log);
    await waitForDemoSync(baseUrl);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return { baseUrl, serverLog, stop };
}

/**
 * Builds the UI unless dist/ is up to date and, beside the build, starts one app server per worker of the suite (a
 * server serves the UI once the build is in place). Files that run at the same time never share a server, so one
 * file's notices, members and shipped postings are never on another's pages.
 */
export default async function setup(project: TestProject) {
  // `npm test` builds here, beside the servers' start; a bare `vitest --project e2e` too when dist/ is not built from
  // the current code (tools/build.ts).
  const starting = Array.from({ length: E2E_WORKERS }, () => startServer());
  const results = await Promise.allSettled([buildIfStale(), ...starting]);
  const servers = results.slice(1).flatMap((result) => (result.status === 'fulfilled' ? [result.value as TestServer] : []));
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) {
    await Promise.all(servers.map((server) => server.stop()));
    throw failed.reason;
  }
  project.provide('servers', servers.map(({ baseUrl, serverLog }) => ({ baseUrl, serverLog })));
  project.provide('captchaCode', CAPTCHA_TEST_CODE);

  return async () => {
    await Promise.all(servers.map((server) => server.stop()));
  };
}
