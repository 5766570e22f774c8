import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AUTH_HEADERS } from '../../contract/envelope';
import { freePort } from '../support/freePort';
import { TEST_CAPTCHA } from './harness';

export type ServerProcess = {
  /** http://127.0.0.1:port */
  base: string;
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Whether it is still running. */
  alive(): boolean;
  /** Resolves once /api/health answers 200 (throws with its output if it exits or takes longer than `ms`). */
  healthy(ms?: number): Promise<void>;
};

export const PROCESS_ADMIN = { username: 'admin', password: 'Admin12345' };

/**
 * `npm run serve` as an operator starts it: its own process, port and DATA_DIR, on `databaseUrl`; stopped by the
 * cleanup it pushes. Not waited for: call `healthy()`.
 */
export async function serverProcess(databaseUrl: string, cleanups: Array<() => Promise<void>>, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'instance-'));
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: resolve(import.meta.dirname, '../..'),
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SECRET_KEY: 'cd'.repeat(32),
      DEMO: 'false',
      ADMIN_PASSWORD: PROCESS_ADMIN.password,
      CAPTCHA_TEST_CODE: TEST_CAPTCHA,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (data) => output.push(String(data)));
  child.stderr.on('data', (data) => output.push(String(data)));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  cleanups.push(async () => {
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  });
  const base = `http://127.0.0.1:${port}`;
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    base,
    child,
    output: () => output.join(''),
    alive,
    async healthy(ms = 90_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        if (!alive()) throw new Error(`server exited with ${child.exitCode ?? child.signalCode}:\n${output.join('')}`);
        if (Date.now() > deadline) throw new Error(`server did not answer in time:\n${output.join('')}`);
        const health = await fetch(`${base}/api/health`).catch(() => null);
        if (health?.ok) return;
        await new Promise((done) => setTimeout(done, 100));
      }
    },
  };
}

/** Signs in at `base` (captcha by the test code); answers the session's headers and id. */
export async function processLogin(base: string, user = PROCESS_ADMIN): Promise<{ id: number; token: string; headers: Record<string, string> }> {
  const { uuid } = ((await (await fetch(`${base}/api/captchaImage`)).json()) as { data: { uuid: string } }).data;
  const answer = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...user, uuid, code: TEST_CAPTCHA }),
  });
  if (answer.status !== 200) throw new Error(`login failed: ${answer.status} ${await answer.text()}`);
  const { id, token } = ((await answer.json()) as { data: { token: string; id: number } }).data;
  return { id, token, headers: { [AUTH_HEADERS.token]: token, [AUTH_HEADERS.userId]: String(id) } };
}
